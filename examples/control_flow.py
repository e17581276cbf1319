"""Python control flow on traced values, and the jit-compatible forms."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def piecewise(x):
    if x < 0:
        return -x
    elif x < 1:
        return x**2
    return 2 * x - 1


@jax.jit
def power_iterate(m, v, num_iters):
    for _ in range(num_iters):
        v = m @ v
        v = v / jnp.linalg.norm(v)
    return v


@jax.jit
def heaviest_row(m):
    i = int(jnp.argmax(m.sum(axis=1)))
    return m[i]


@jax.jit
def safe_log(x):
    assert jnp.all(x > 0), "log of non-positive value"
    return jnp.log(x)


@jax.jit
def piecewise_fixed(x):
    return jnp.where(x < 0, -x, jnp.where(x < 1, x**2, 2 * x - 1))


@jax.jit
def power_iterate_fixed(m, v, num_iters):
    def body(_, v):
        v = m @ v
        return v / jnp.linalg.norm(v)

    return lax.fori_loop(0, num_iters, body, v)


@jax.jit
def maybe_pool(x):
    if x.shape[0] > 2:  # static: shapes are known while tracing
        x = x.reshape(-1, 2).mean(axis=1)
    return x
