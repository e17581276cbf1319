# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    vals = jnp.unique(jnp.round(x), size=jnp.round(x).size, fill_value=0)
    total = jnp.unique(x, size=x.size, fill_value=1).prod()
    top = jnp.unique(x, size=x.size).max()
    idx = jnp.nonzero(x > 0)  # no fix: the caller would get padding indices
    return x + vals.sum() + total + top, idx


@jax.jit
def forms(x):
    a = jnp.sum(jnp.unique(x, size=x.size, fill_value=0))
    u = jnp.unique(x, size=x.size, fill_value=1)
    b = jnp.prod(u)
    c = jnp.unique(x, size=x.size).max()
    n = jnp.unique(x).shape[0]  # no fix: the length would count the padding
    m = jnp.unique(x).mean()  # no fix
    r = jnp.sum(jnp.unique(x, axis=0))  # no fix: size would count rows
    return a, b, c, n, m, r
