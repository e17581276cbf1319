# `time.sleep` in a compiled function pauses only while JAX traces it: the compiled program has
# no Python in it, so later calls never wait (measured with JAX 0.10.2).
import time

import jax
import jax.numpy as jnp


@jax.jit
def throttled_query(w, x):
    time.sleep(0.2)  # error: JAX102
    return jnp.tanh(x @ w)


# near misses


def polled(w, x):
    out = throttled_clean(w, x)
    time.sleep(0.2)  # on the host, between calls
    return out


@jax.jit
def throttled_clean(w, x):
    return jnp.tanh(x @ w)


def mapped(x):
    time.sleep(0.01)  # a bare vmap traces again on every call: it waits every call
    return x * 2.0


if __name__ == "__main__":
    w, x = jnp.ones((4, 2)), jnp.ones((3, 4))
    jax.block_until_ready(throttled_query(w, x))
    start = time.perf_counter()
    jax.block_until_ready(throttled_query(w, x))
    assert time.perf_counter() - start < 0.1  # the second call did not wait
    polled(w, x)
    jax.vmap(mapped)(jnp.ones(2))
    print("ok")
