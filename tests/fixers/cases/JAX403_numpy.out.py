# fix: unsafe
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("training",))
def step(n, training):
    c = np.arange(4).sum() // 2
    buf = jnp.tile(jnp.ones(2), c)
    return n + jnp.sum(buf)


@jax.jit
def slice_bound(x):
    half = np.arange(4).sum() // 2
    return x[:half]


@jax.jit
def slice_bound_from_data(x):
    half = jnp.sum(x > 0)
    return x[:half]  # no fix: the bound depends on the data


@jax.jit
def loops(x):
    steps = np.floor(np.sqrt(16.0)).astype(int)
    for _ in range(steps):
        x = x * 2
    return x


@jax.jit
def from_shape(x):
    k = np.prod(np.array(x.shape)) // 2
    return jnp.zeros(k) + x.sum()


@jax.jit
def from_data(x):
    c = jnp.sum(x > 0)
    return jnp.zeros(c)  # no fix: the size depends on the data


@jax.jit
def updated_with_at(x):
    c = jnp.arange(3)
    c = c.at[0].set(5)
    return jnp.zeros(c[0])  # no fix: c is rebound
