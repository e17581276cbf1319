# fix: unsafe
import jax
import jax.numpy as jnp
import numpy as np

TABLE = jnp.array([3, 1, 3, 2])


@jax.jit
def distinct(x):
    return x + jnp.asarray(np.unique(TABLE)).sum()
