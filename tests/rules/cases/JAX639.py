# A function cached by `functools.lru_cache`/`cache` hashes its arguments: a JAX array (or a
# tracer) is unhashable, and the call raises `TypeError` (measured with JAX 0.10.2, eagerly
# and under `jit`).
import functools
from functools import lru_cache

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def gram(x):
    return x @ x.T


@functools.cache
def squared(x):
    return x * x


@lru_cache
def window(n):
    return jnp.hanning(n)


@lru_cache(maxsize=8)
def compiled_scale(factor):
    return jax.jit(lambda x: x * factor)


def eager_gram():
    return gram(jnp.ones((3, 3)))  # error: JAX639


@jax.jit
def traced_square(x):
    return squared(x) + 1.0  # error: JAX503


def squared_scalar():
    return squared(jnp.float32(2.0))  # error: JAX639


# near misses


def by_size(x):
    return x * window(x.shape[0])


def by_factor(x):
    return compiled_scale(2.0)(x)


def plain_gram(x):
    return x @ x.T


def uncached(x):
    return plain_gram(x)


def unhashable(call):
    try:
        call()
    except TypeError as error:
        return "unhashable" in str(error)
    return False


if __name__ == "__main__":
    for call in (eager_gram, lambda: traced_square(jnp.ones(2)), squared_scalar):
        assert unhashable(call)
    for call in (
        lambda: by_size(jnp.ones(4)),
        lambda: by_factor(jnp.ones(2)),
        lambda: uncached(jnp.ones((2, 2))),
    ):
        assert not unhashable(call)
