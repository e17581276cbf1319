import random
import secrets
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


@jax.vmap
def jitter(x):
    # a bare vmap traces once per call, for the whole batch: every element gets this array
    return x + 0.1 * np.random.normal(size=x.shape)  # error: JAX105


def jitter_rows(batch):
    return jax.vmap(lambda row: row + np.random.randn(3))(batch)  # error: JAX105


def generator_rows(batch):
    return jax.vmap(lambda row: row + rng.normal(size=row.shape))(batch)  # error: JAX105


# --- near misses ---


@jax.vmap
def shifted(x):
    return x + random.random()  # one number per call: perhaps meant so


@jax.vmap
def shifted_by_generator(x):
    return x + rng.normal()  # a scalar: one number per call, perhaps meant so


def jitter_keys(key, batch):
    keys = jax.random.split(key, batch.shape[0])
    return jax.vmap(lambda k, row: row + jax.random.normal(k, row.shape))(keys, batch)


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


@jax.jit
def augment(img):
    shift = secrets.randbelow(4) + 1  # error: JAX105
    return jax.numpy.roll(img, shift, axis=0)


def augment_eagerly(img):
    shift = secrets.randbelow(4) + 1  # eager: a new shift on every call
    return jax.numpy.roll(img, shift, axis=0)


if __name__ == "__main__":
    import jax.numpy as jnp

    rows = jitter(jnp.zeros((4, 3)))
    assert bool((rows[0] == rows[1]).all())  # the same noise in every row
    rows = jitter_rows(jnp.zeros((4, 3)))
    assert bool((rows[0] == rows[1]).all())
    img = jnp.arange(16.0).reshape(8, 2)
    assert len({float(augment(img)[0, 0]) for _ in range(8)}) == 1  # one shift, frozen
    augment_eagerly(img)
    rows = jitter_keys(jax.random.key(0), jnp.zeros((4, 3)))
    assert not bool((rows[0] == rows[1]).all())
    print(shifted(jnp.zeros(2)))
