# fix: unsafe
import jax
import jax.numpy as jnp

TABLE = jnp.array([3, 1, 3, 2])


@jax.jit
def distinct(x):
    return x + jnp.unique(TABLE).sum()
