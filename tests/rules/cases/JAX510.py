# `isinstance(p, int)` where a call through `jax.jit` passes a Python number for `p`: jit traces
# the number, the tracer is no `int`, and the jitted call silently takes the other branch
# (measured with JAX 0.10.2).
from functools import partial

import jax
import jax.numpy as jnp


def normalize(x, p):
    if isinstance(p, int):  # error: JAX510
        return x / jnp.sum(jnp.abs(x) ** p) ** (1.0 / p)
    return x / jnp.max(jnp.abs(x))


@jax.jit
def scale(x, factor):
    if isinstance(factor, (int, float)):  # error: JAX510
        return x * factor
    return x


# near misses


@partial(jax.jit, static_argnames=("p",))
def normalize_static(x, p):
    if isinstance(p, int):
        return x / jnp.sum(jnp.abs(x) ** p) ** (1.0 / p)
    return x / jnp.max(jnp.abs(x))


def shift(x, offset):
    if isinstance(offset, int):
        return x + offset
    return x


def norm_by(x, p):
    if isinstance(p, int):
        return x / jnp.sum(jnp.abs(x) ** p) ** (1.0 / p)
    return x / jnp.max(jnp.abs(x))


@jax.jit
def as_array(x, w):
    if isinstance(w, float):
        return x * w
    return x + w


if __name__ == "__main__":
    x = jnp.array([3.0, 4.0])
    eager, jitted = normalize(x, 2), jax.jit(normalize)(x, 2)
    assert jnp.allclose(eager, jnp.array([0.6, 0.8])) and jnp.allclose(jitted, jnp.array([0.75, 1.0]))
    assert jnp.allclose(scale(x, 2.0), x)  # the multiplication was skipped
    by_static = jax.jit(norm_by, static_argnames=("p",))(x, 2)
    by_array = jax.jit(norm_by)(x, jnp.int32(2))
    print(normalize_static(x, 2), shift(x, 1), as_array(x, jnp.float32(2.0)), by_static, by_array)
