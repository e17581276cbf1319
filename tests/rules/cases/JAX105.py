import random
import time

import jax
import numpy as np

rng = np.random.default_rng(0)


@jax.jit
def add_noise(x):
    noise = np.random.normal(size=x.shape)  # error: JAX105
    coin = random.random()  # error: JAX105
    stamp = time.time()  # error: JAX105
    extra = rng.normal()  # error: JAX105
    return x + 0.1 * noise + coin + stamp + extra


# --- near misses ---


@jax.jit
def jax_noise(key, x):
    return x + jax.random.normal(key, x.shape)


def eager_noise(x):
    return x + np.random.normal(size=x.shape) + time.time()


@jax.jit
def seeded(x):
    gen = np.random.default_rng(0)
    return x + 1, gen


from jax import random as jrandom  # noqa: E402


@jax.jit
def jax_random_alias(key, x):
    return x + jrandom.uniform(key, x.shape)
