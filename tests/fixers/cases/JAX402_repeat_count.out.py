# fix: unsafe
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def tiled(x):
    c = np.arange(4).sum() // 2
    return jnp.repeat(x, c)  # `c` made by jnp from constants: computed with NumPy instead


@jax.jit
def counted(x, n):
    return jnp.repeat(x, n)  # no fix: `n` is an argument, traced


@jax.jit
def from_data(x):
    c = x.shape[0] + jnp.argmax(x)
    return jnp.repeat(x, c)  # no fix: `argmax` of the data is traced


def on_host(x):
    c = np.arange(4).sum() // 2
    return jnp.repeat(x, c)
