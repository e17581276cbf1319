"""A function handed its random streams (``nnx.Rngs``) that never reads them and draws from a
key of a fixed seed instead: every call draws the same numbers, whatever streams it gets."""

import jax
import jax.numpy as jnp
from flax import nnx


class Masker(nnx.Module):
    def __init__(self, dim: int, rngs: nnx.Rngs):
        self.token = nnx.Param(jnp.zeros((dim,)))

    def mask(self, patches, rngs: nnx.Rngs, training: bool = True):
        if training:
            key = jax.random.key(0)  # error: JAX303
            keep = jax.random.bernoulli(key, 0.5, (patches.shape[0],))
            return jnp.where(keep[:, None], patches, self.token[...])
        return patches

    def mask_from_streams(self, patches, rngs: nnx.Rngs):
        keep = jax.random.bernoulli(rngs.mask(), 0.5, (patches.shape[0],))
        return jnp.where(keep[:, None], patches, self.token[...])


def fixed_projection(x, key):
    # a fixed seed with a key parameter left unread: often meant (a fixed random projection)
    proj = jax.random.normal(jax.random.key(42), (x.shape[-1], 2))
    return x @ proj
