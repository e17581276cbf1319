"""PRNG keys: reuse gives identical numbers, silently."""

import jax
import jax.numpy as jnp


def init_linear(key, n_in, n_out):
    w = jax.random.normal(key, (n_in, n_out))
    b = jax.random.normal(key, (n_out,))  # same key: correlated with w
    return w, b


def noisy_average(key, x):
    total = jnp.zeros_like(x)
    for _ in range(4):
        total = total + x + jax.random.normal(key, x.shape)  # same noise each time
    return total / 4


def sample_paths(x0):
    paths = []
    for _ in range(3):
        key = jax.random.PRNGKey(0)  # re-created every iteration
        paths.append(x0 + jax.random.normal(key, x0.shape))
    return jnp.stack(paths)


def init_linear_fixed(key, n_in, n_out):
    w_key, b_key = jax.random.split(key)
    return jax.random.normal(w_key, (n_in, n_out)), jax.random.normal(b_key, (n_out,))
