# `jax.jit(partial(f, a), static_argnums=...)` counts positions on what the partial leaves: with
# `kernel` bound, `stride` is position 1, and position 2 is past the end, so `jax.jit` raises
# `ValueError` when it wraps the function (measured with JAX 0.10.2).
from functools import partial

import jax
import jax.numpy as jnp


def strided_conv(kernel, x, stride):
    return jnp.convolve(x, kernel, mode="valid")[::stride]


kernel = jnp.array([0.25, 0.5, 0.25])


def make_bad():
    return jax.jit(partial(strided_conv, kernel), static_argnums=2)  # error: JAX612


# near misses

conv = jax.jit(partial(strided_conv, kernel), static_argnums=1)

if __name__ == "__main__":
    print(conv(jnp.arange(10.0), 2))
    try:
        make_bad()
    except ValueError as error:
        print("ValueError", str(error)[:50])
    else:
        raise AssertionError("expected ValueError")
