# fix: safe
import jax
from jax import numpy as jnp


def total_loss(a, b, c):
    return jnp.sum(jnp.array([a, b, c]))


def pairwise(x, y):
    return jnp.maximum(jnp.array((x, y)), jnp.array([0.0, 1.0]))


def spelled_long(a, b):
    return jax.numpy.mean(
        jax.numpy.array([
            a,
            b,
        ])
    )


WEIGHTS = [0.2, 0.8]


def weighted(x):
    return jnp.dot(x, jnp.array(WEIGHTS))
