# `heapq.nlargest`/`nsmallest` compare what their `key=` returns for each item: a key that
# reads traced values returns tracers, whose comparison raises `TracerBoolConversionError`
# under `jit` (measured with JAX 0.10.2).
import heapq

import jax
import jax.numpy as jnp

BEAM = 3


@jax.jit
def top_beams(log_probs):
    scores = [log_probs[i] for i in range(log_probs.shape[0])]
    best = heapq.nlargest(BEAM, range(len(scores)), key=lambda i: scores[i])  # error: JAX503
    return jnp.array(best)


# near misses


@jax.jit
def widest(x, sizes=(3, 1, 2)):
    order = heapq.nsmallest(2, range(len(sizes)), key=lambda i: sizes[i])  # static sizes
    return x * order[0]


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    assert raises(lambda: top_beams(jnp.log(jnp.array([0.1, 0.4, 0.2, 0.3]))))
    widest(jnp.ones(2))
    print("ok")
