# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def scale(x):
    big = any(x > 5.0)  # a comment stays
    small = all(jnp.abs(x) < 1.0)
    each = all(v > 0 for v in x)  # no fix
    return jnp.where(big, x / 5.0, jnp.where(small, x * 5.0, x))
