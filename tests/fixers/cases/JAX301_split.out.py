# fix: unsafe
import jax
import jax.numpy as jnp
import jax.random as jr
from jax import random


def init_linear(key):
    key, subkey = jax.random.split(key)
    w = jax.random.normal(subkey, (3, 2))
    b = jax.random.normal(key, (2,))
    return w, b


def parent_after_split(key):
    key, subkey = jax.random.split(key)
    k1, k2 = jax.random.split(subkey)
    a = jax.random.uniform(k1, (3,))
    b = jax.random.uniform(key, (3,))
    return a, b, k2


def three_draws(key, subkey):
    key, subkey_2 = jr.split(key)
    a = jr.normal(subkey_2, ())
    key, subkey_3 = jr.split(key)
    b = jr.normal(subkey_3, ())
    c = jr.normal(key, ())
    return a, b, c, subkey


def carried(key, x):
    def body(it, state):
        key, total = state
        key, subkey = jax.random.split(key)
        a = jax.random.normal(subkey, (4,))
        key, subkey_2 = jax.random.split(key)
        b = jax.random.uniform(subkey_2, (4,))
        return key, total + jnp.sum(a + b)  # the key handed back must be fresh

    return jax.lax.fori_loop(0, 3, body, (key, x))


def returns_key(key):
    key, subkey, subkey_2 = jax.random.split(key, 3)
    a = jax.random.normal(subkey, (4,)) * jax.random.uniform(subkey_2, (4,))
    return a, key


def shuffle_in_step(key, images, labels):
    images = jax.random.permutation(key, images)
    labels = jax.random.permutation(key, labels)  # no fix: the shared order may be meant
    return images, labels
