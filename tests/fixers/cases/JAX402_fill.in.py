# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    vals = jnp.unique(jnp.round(x))
    total = jnp.unique(x).prod()
    top = jnp.unique(x).max()
    idx = jnp.nonzero(x > 0)  # no fix: the caller would get padding indices
    return x + vals.sum() + total + top, idx


@jax.jit
def forms(x):
    a = jnp.sum(jnp.unique(x))
    u = jnp.unique(x)
    b = jnp.prod(u)
    c = jnp.unique(x).max()
    n = jnp.unique(x).shape[0]  # no fix: the length would count the padding
    m = jnp.unique(x).mean()  # no fix
    r = jnp.sum(jnp.unique(x, axis=0))  # no fix: size would count rows
    return a, b, c, n, m, r
