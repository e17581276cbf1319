# fix: unsafe
import jax
import jax.numpy as jnp
from jax import jit


@jax.jit
def relu_or_leak(x):
    # positive: pass through
    return jnp.where(x.sum() > 0, x, 0.01 * x)  # leak the rest


@jit
def piecewise(x):
    return jnp.where(x < 0, -x, jnp.where(x < 1, x**2, 2 * x - 1))


def square_small(v):
    return jnp.where(v > 1.0, v, v**2)


batched = jax.vmap(square_small)


@jax.jit
def assign_both(x, y):
    # pick the larger
    big = jnp.where(x > y, x, y)
    small = jnp.where(x > y, y, x)
    return big - small


@jax.jit
def assign_one(x):
    scale = 1.0
    scale = jnp.where(x.max() > 10, 0.1, scale)
    return x * scale


@jax.jit
def safe_log(x):
    return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.0)


@jax.jit
def safe_ratio(a, b):
    return jnp.where(b != 0, a / jnp.where(b != 0, b, 1.0), 0.0)


@jax.jit
def positive_and_finite(x):
    x = jnp.where(jnp.logical_and(x.sum() > 0, jnp.logical_not(jnp.isnan(x).any())), jnp.zeros(3), x)
    return x


@jax.jit
def in_unit_interval(x):
    return jnp.where(jnp.logical_and(0 < x, x < 1), x, 0.0)


@jax.jit
def comment_on_the_last_branch(x):
    # positive
    # negative: not on the merged line
    y = jnp.where(x.sum() > 0, x + 1, x - 1)
    return y
