# A dtype passed to a jitted function for a traced parameter: `jnp.int8`, `np.float32`, a
# `jnp.dtype(...)` or the builtin `float` is no JAX type, so the call raises `TypeError` (measured
# with JAX 0.10.2). A static parameter, or a dtype closed over, is fine.
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def quantize(x, dtype):
    return jnp.clip(jnp.round(x * 127.0), -128, 127).astype(dtype)


quantize_jit = jax.jit(quantize)


@jax.jit
def cast(x, dtype):
    return x.astype(dtype)


def run(x):
    a = quantize_jit(x, jnp.int8)  # error: JAX611
    b = cast(x, np.float32)  # error: JAX611
    c = cast(x, dtype=jnp.dtype("float16"))  # error: JAX611
    return a, b, c


# near misses


@partial(jax.jit, static_argnames=("dtype",))
def cast_static(x, dtype):
    return x.astype(dtype)


@jax.jit
def to_half(x):
    return x.astype(jnp.float16)


if __name__ == "__main__":
    x = jnp.array([0.1, -0.5, 0.9])
    print(cast_static(x, jnp.int8), to_half(x))
    try:
        run(x)
    except TypeError as error:
        print("TypeError", str(error)[:40])
    else:
        raise AssertionError("expected TypeError")
