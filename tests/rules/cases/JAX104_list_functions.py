# `heapq` and `bisect` change the list they are given, as its methods do: called on a global
# list in traced code, they act once per trace, and a tracer they store leaks (measured with
# JAX 0.10.2).
import bisect
import heapq
from heapq import heappush

import jax
import jax.numpy as jnp

LEADERBOARD = []
RANKS = []
SEEN = []


@jax.jit
def search(x):
    def body(i, acc):
        score = jnp.sum(jnp.sin(acc * i))
        heapq.heappush(LEADERBOARD, (i, score))  # error: JAX104
        return acc + 0.1

    return jax.lax.fori_loop(0, 5, body, x)


@jax.jit
def ranked(x):
    bisect.insort(RANKS, 3)  # error: JAX104
    return x * 2.0


@jax.jit
def noted(x):
    heappush(SEEN, x.sum())  # error: JAX104
    return x


# near misses


@jax.jit
def local_heap(x):
    heap = []
    heapq.heappush(heap, 1)  # its own list, gone with the trace
    return x + heap[0]


def eager_search(x):
    heapq.heappush(LEADERBOARD, (0, float(jnp.sum(x))))  # eager: one entry per call
    return x


if __name__ == "__main__":
    search(jnp.ones(3))
    assert len(LEADERBOARD) == 1 and isinstance(LEADERBOARD[0][1], jax.core.Tracer)
    for _ in range(3):
        ranked(jnp.ones(2))
    assert RANKS == [3]  # three calls, one insort
    noted(jnp.ones(2))
    local_heap(jnp.ones(2))
    LEADERBOARD.clear()
    eager_search(jnp.ones(2))
    assert len(LEADERBOARD) == 1
    print("ok")
