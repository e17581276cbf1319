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


@jax.jit
def seeded_projection(x, seed=0):
    gen = np.random.default_rng(seed)
    return x @ gen.standard_normal((x.shape[-1], 4))  # ok: made here with a seed: the same on every call, eager too


@jax.jit
def unseeded_projection(x):
    gen = np.random.default_rng()
    return x @ gen.standard_normal((x.shape[-1], 4))  # error: JAX105


@jax.jit
def draws_from_a_module_generator(x):
    return x + rng.standard_normal(x.shape)  # error: JAX105
