# fix: unsafe
import jax
import jax.numpy as jnp
from jax import jit


@jax.jit
def relu_or_leak(x):
    if x.sum() > 0:  # positive: pass through
        return x
    return 0.01 * x  # leak the rest


@jit
def piecewise(x):
    if x < 0:
        return -x
    elif x < 1:
        return x**2
    else:
        return 2 * x - 1


def square_small(v):
    return v if v > 1.0 else v**2


batched = jax.vmap(square_small)


@jax.jit
def assign_both(x, y):
    if x > y:  # pick the larger
        big = x
        small = y
    else:
        big = y
        small = x
    return big - small


@jax.jit
def assign_one(x):
    scale = 1.0
    if x.max() > 10:
        scale = 0.1
    return x * scale


@jax.jit
def safe_log(x):
    if x > 0:
        return jnp.log(x)
    return 0.0


@jax.jit
def safe_ratio(a, b):
    return a / b if b != 0 else 0.0


@jax.jit
def positive_and_finite(x):
    if x.sum() > 0 and not jnp.isnan(x).any():
        x = jnp.zeros(3)
    return x


@jax.jit
def in_unit_interval(x):
    return x if 0 < x < 1 else 0.0


@jax.jit
def comment_on_the_last_branch(x):
    if x.sum() > 0:  # positive
        y = x + 1
    else:
        y = x - 1  # negative: not on the merged line
    return y
