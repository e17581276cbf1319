# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    vals = jnp.unique(jnp.round(x), size=jnp.round(x).size, fill_value=0)
    total = jnp.unique(x, size=x.size, fill_value=1).prod()
    top = jnp.unique(x, size=x.size).max()
    idx = jnp.nonzero(x > 0, size=(x > 0).size)
    return x + vals.sum() + total + top, idx
