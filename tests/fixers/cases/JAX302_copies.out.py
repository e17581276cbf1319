# fix: unsafe
import jax
import jax.numpy as jnp
from jax import random

SIZES = [(4, 8), (8, 8)]


def init_layers(key):
    params = []
    for k, (n_in, n_out) in zip(list(random.split(key, len(SIZES))), SIZES):  # one key per layer
        params.append(random.normal(k, (n_in, n_out)))
    return params


def noise(key):
    return [jax.random.uniform(k, (2,)) for k in list(random.split(key, 3))]


def augment(key, image):
    return image + jax.random.normal(key, image.shape)


def augment_batch(key, images):
    keys = random.split(key, images.shape[0])
    return jax.vmap(augment)(keys, images)


def stacked_batch(key, images):
    keys = random.split(key, images.shape[0])
    return jax.vmap(augment)(keys, images)

