"""A key a class declares as a field, read through ``self``: every read in one call is the same
key, whatever the class (a flax or equinox module, a dataclass, a NamedTuple), and whether the
method draws from it itself or hands it to a helper."""

import dataclasses
from collections import UserDict
from typing import NamedTuple

import equinox as eqx
import jax
from flax import linen as nn


def sample(key, shape):
    return jax.random.normal(key, shape)


class NoisyDense(nn.Module):
    rng_key: jax.Array

    @staticmethod
    def sample_noise(key, shape):
        return jax.random.normal(key, shape)

    @nn.compact
    def __call__(self, x):
        p = NoisyDense.sample_noise(self.rng_key, (x.shape[0], 1))
        q = NoisyDense.sample_noise(self.rng_key, (1, 3))  # error: JAX301
        return x @ (p * q)


class Block(eqx.Module):
    key: jax.Array

    def __call__(self, x):
        noise = jax.random.normal(self.key, x.shape)
        mask = jax.random.bernoulli(self.key, 0.5, x.shape)  # error: JAX301
        return (x + noise) * mask


@dataclasses.dataclass(frozen=True)
class Sampler:
    key: jax.Array

    def pair(self):
        a = sample(self.key, (3,))
        b = sample(self.key, (3,))  # error: JAX301
        return a, b

    def loop(self):
        draws = []
        for _ in range(3):
            draws.append(jax.random.normal(self.key, (3,)))  # error: JAX302
        return draws


class Noise(NamedTuple):
    key: jax.Array

    def twice(self):
        return jax.random.normal(self.key, (2,)) + jax.random.normal(self.key, (2,))  # error: JAX301


class SplitsFirst(eqx.Module):
    key: jax.Array

    def __call__(self, x):
        k1, k2 = jax.random.split(self.key)
        return jax.random.normal(k1, x.shape) + jax.random.normal(k2, x.shape)


class SetUp(nn.Module):
    def setup(self):
        self.noise_key = jax.random.key(0)

    def __call__(self, x):
        return x + jax.random.normal(self.noise_key, x.shape) * jax.random.normal(self.noise_key, x.shape)  # error: JAX301


# near misses: an attribute that may change between two reads, or that is not a plain field


class Advancing:
    def __init__(self, key):
        self.key = key

    def advance(self):
        self.key, _ = jax.random.split(self.key)

    def pair(self):
        a = jax.random.normal(self.key, (3,))
        self.advance()
        b = jax.random.normal(self.key, (3,))  # the key was replaced in between
        return a, b


class Streaming:
    def __init__(self, key):
        self._key = key

    @property
    def key(self):
        self._key, subkey = jax.random.split(self._key)
        return subkey

    def pair(self):
        return jax.random.normal(self.key, (3,)), jax.random.normal(self.key, (3,))  # a property: a new key per read


class Undeclared:
    def pair(self):
        return jax.random.normal(self.key, (3,)), jax.random.normal(self.key, (3,))  # set by whom, when?


class FromLibrary(UserDict):
    key: jax.Array

    def pair(self):
        return jax.random.normal(self.key, (3,)), jax.random.normal(self.key, (3,))  # a base not known here


class OtherOwner(eqx.Module):
    key: jax.Array

    def pair(self, other):
        return jax.random.normal(self.key, (3,)), jax.random.normal(other.key, (3,))  # two objects


if __name__ == "__main__":
    import jax.numpy as jnp

    x = jnp.ones((2, 3))
    a, b = Sampler(jax.random.key(0)).pair()
    assert jnp.array_equal(a, b)  # the same draw twice
    draws = Sampler(jax.random.key(0)).loop()
    assert jnp.array_equal(draws[0], draws[2])
    assert jnp.array_equal(Noise(jax.random.key(0)).twice(), 2 * jax.random.normal(jax.random.key(0), (2,)))
    jax.config.update("jax_debug_key_reuse", True)

    def apply(module):
        return module.apply(module.init(jax.random.key(1), x), x)

    for hazard in (
        lambda: apply(NoisyDense(jax.random.key(2))),
        lambda: Block(jax.random.key(3))(x),
        lambda: Sampler(jax.random.key(4)).pair(),
        lambda: Sampler(jax.random.key(5)).loop(),
        lambda: Noise(jax.random.key(6)).twice(),
        lambda: apply(SetUp()),
    ):
        try:
            hazard()
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise KeyReuseError")
    SplitsFirst(jax.random.key(7))(x)
    first, second = Streaming(jax.random.key(8)).pair()
    assert not jnp.array_equal(first, second)
    OtherOwner(jax.random.key(9)).pair(OtherOwner(jax.random.key(10)))
    print("ok")
