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


def seeded(x, rngs: nnx.Rngs, seed: int):
    key = jax.random.key(seed)  # the caller's seed: each call may pass another
    return x + jax.random.normal(key, x.shape), rngs


def streams_read_in_a_helper(x, rngs: nnx.Rngs):
    def noise():
        return jax.random.normal(rngs.noise(), x.shape)

    key = jax.random.key(0)  # the streams are read too: a fixed draw beside them is a choice
    return x + noise() + jax.random.normal(key, x.shape)


def no_streams(x):
    key = jax.random.key(0)  # nothing handed over to ignore
    return x + jax.random.normal(key, x.shape)


class Sampler(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.rngs = rngs

    def draw(self, shape):
        return jax.random.normal(self.rngs.sample(), shape)

    def fixed(self, shape):
        return jax.random.normal(jax.random.key(1), shape)  # no streams parameter here


if __name__ == "__main__":
    patches = jnp.arange(16.0).reshape(8, 2) + 1.0
    masker = Masker(2, nnx.Rngs(0))
    first = masker.mask(patches, nnx.Rngs(mask=1))
    second = masker.mask(patches, nnx.Rngs(mask=2))
    assert jnp.array_equal(first, second)  # the same mask, whatever streams it gets
    assert jnp.array_equal(masker.mask(patches, nnx.Rngs(mask=1), training=False), patches)
    streamed = [masker.mask_from_streams(patches, nnx.Rngs(mask=seed)) for seed in (1, 2)]
    assert not jnp.array_equal(streamed[0], streamed[1])
    assert fixed_projection(jnp.ones((3, 4)), jax.random.key(0)).shape == (3, 2)
    assert not jnp.array_equal(seeded(jnp.zeros(3), nnx.Rngs(0), 1)[0], seeded(jnp.zeros(3), nnx.Rngs(0), 2)[0])
    assert streams_read_in_a_helper(jnp.zeros(3), nnx.Rngs(noise=0)).shape == (3,)
    assert no_streams(jnp.zeros(3)).shape == (3,)
    sampler = Sampler(nnx.Rngs(sample=0))
    assert not jnp.array_equal(sampler.draw((3,)), sampler.draw((3,)))
    assert jnp.array_equal(sampler.fixed((3,)), sampler.fixed((3,)))
    print("ok")
