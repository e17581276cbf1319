# `pmap` (and flax's `nnx.vmap`) with `in_axes=None` for the key: every device (example) draws
# from the same key, so noise shaped like the mapped argument is identical across them
# (measured with JAX 0.10.2 on 4 forced host devices). Split the key and map it.
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from flax import nnx


def shard_dropout(x, key):
    keep = jax.random.bernoulli(key, 0.5, x.shape)
    return jnp.where(keep, x * 2, 0.0)


def shard_offset(x, key):
    return x + jax.random.normal(key, ())  # one number, the same on purpose


x = jnp.ones((4, 16))


def same_masks():
    key = jax.random.PRNGKey(0)
    return jax.pmap(shard_dropout, in_axes=(0, None))(x, key)  # error: JAX302


def own_masks():
    key = jax.random.PRNGKey(1)
    keys = jax.random.split(key, 4)
    return jax.pmap(shard_dropout, in_axes=(0, 0))(x, keys)


def shared_offset():
    key = jax.random.PRNGKey(2)
    return jax.pmap(shard_offset, in_axes=(0, None))(x, key)


def same_noise():
    key = jax.random.PRNGKey(3)
    return nnx.vmap(shard_dropout, in_axes=(0, None))(x, key)  # error: JAX302


def distinct(out):
    assert not jnp.array_equal(out[0], out[1]), "two devices drew the same mask"
    return out.shape


if __name__ == "__main__":
    for same in (same_masks(), same_noise()):
        assert all(jnp.array_equal(same[0], row) for row in same), "the mapped draws differ"
    print(distinct(own_masks()))
    offset = shared_offset()
    assert offset.shape == (4, 16)
    assert jnp.allclose(offset, offset[0, 0])
    print("ok")
