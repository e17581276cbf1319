# A `functools.lru_cache`d helper hashes its arguments to look them up: a tracer is unhashable,
# so calling it with one from traced code raises `TypeError` (measured with JAX 0.10.2). Static
# arguments (a shape, a flag) are what such caches are for.
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.lru_cache(maxsize=None)
def rotation(theta):
    c, s = jnp.cos(theta), jnp.sin(theta)
    return jnp.array([[c, -s], [s, c]])


@functools.cache
def positions(n):
    return np.arange(n, dtype=np.float32)


@jax.jit
def rotate(v, theta):
    return rotation(theta) @ v  # error: JAX503


@jax.jit
def weigh(x):
    return x * positions(x.shape[0])  # a shape: hashable, and the point of the cache


if __name__ == "__main__":
    print(weigh(jnp.ones(3)), rotation(0.5))
    try:
        rotate(jnp.array([1.0, 0.0]), jnp.pi / 2)
    except TypeError as error:
        print("TypeError:", error)
