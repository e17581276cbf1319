# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    vals = jnp.unique(jnp.round(x))
    total = jnp.unique(x).prod()
    top = jnp.unique(x).max()
    idx = jnp.nonzero(x > 0)
    return x + vals.sum() + total + top, idx
