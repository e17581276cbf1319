"""Helpers that are only hazardous when a caller in another module traces them."""

import jax
import jax.numpy as jnp


def scale_by(x, factor):
    """Scale x, but only up."""
    if factor > 1:
        return x * factor
    return x


def pad(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])


def loss(w, x):
    """Squared error."""
    print("loss", w)
    return ((x @ w) ** 2).sum()


def unused(x):
    if x > 0:
        return x
    return -x


batches = iter(range(1000))


def shifted(x):
    return x + next(batches)


def jittered(x):
    return x + next(batches)
