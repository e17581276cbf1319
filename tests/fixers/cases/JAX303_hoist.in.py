# fix: unsafe
import jax
import jax.numpy as jnp
import jax.random as jr
from jax import random


def sample_paths(x0):
    paths = []
    for _ in range(3):
        key = jax.random.PRNGKey(0)
        paths.append(x0 + jax.random.normal(key, x0.shape))
    return jnp.stack(paths)


@jax.vmap
def per_example_noise(x):
    for _ in range(3):
        key = jax.random.PRNGKey(0)  # no fix
        x = x + jax.random.normal(key)
    return x


@jax.jit
def nested_loops(x):
    for _ in range(2):
        for _ in range(3):
            key = jax.random.PRNGKey(0)  # no fix
            x = x + jax.random.normal(key)
    return x


def outer_loop_varies(x):
    for seed in range(2):
        x = x * seed
        for _ in range(3):
            key = jax.random.PRNGKey(0)
            x = x + jax.random.normal(key)
    return x
