# A flax linen `Dropout` (`deterministic`) or `BatchNorm` (`use_running_average`) needs its mode
# flag from the constructor or the call: with neither, flax raises `ValueError` ("Parameter
# "deterministic" must be passed to the constructor or at call time") when `init` runs it
# (measured with flax beside JAX 0.10.2).
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp

x = jnp.ones((2, 4))


class Inline(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        x = nn.Dense(4)(x)
        return nn.Dropout(0.1)(x)  # error: JAX627


class Named(nn.Module):
    @nn.compact
    def __call__(self, x):
        drop = nn.Dropout(rate=0.5)
        return drop(x)  # error: JAX627


class SetUp(nn.Module):
    def setup(self):
        self.dense = nn.Dense(4)
        self.drop = nn.Dropout(0.2)

    def __call__(self, x):
        return self.drop(self.dense(x))  # error: JAX627


class Normed(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = True):
        return nn.BatchNorm(momentum=0.9)(x)  # error: JAX627


# near misses


class AtTheCall(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool = False):
        x = nn.Dropout(0.1)(x, deterministic=not train)
        return nn.Dropout(0.1)(x, not train)


class InTheConstructor(nn.Module):
    train: bool = False

    def setup(self):
        self.drop = nn.Dropout(0.1, deterministic=not self.train)
        self.positional = nn.Dropout(0.1, (), True)
        self.norm = nn.BatchNorm(use_running_average=True)

    def __call__(self, x):
        return self.norm(self.positional(self.drop(x)))


class Forwarded(nn.Module):
    @nn.compact
    def __call__(self, x, **kwargs):
        x = nn.Dropout(0.1)(x, **kwargs)
        return nn.BatchNorm(True)(x)


class Partial(nn.Module):
    @nn.compact
    def __call__(self, x):
        return partial(nn.Dropout, deterministic=True)(0.1)(x)


class Attention(nn.Module):
    @nn.compact
    def __call__(self, x):  # no dropout rate: its `deterministic` is never read
        return nn.MultiHeadDotProductAttention(num_heads=1)(x[:, None, :])


class Dropout:
    """Not flax's."""

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, x):
        return x * (1 - self.rate)


def own_dropout(x):
    return Dropout(0.1)(x)


if __name__ == "__main__":
    key = jax.random.key(0)
    for module in (AtTheCall(), InTheConstructor(), Partial(), Attention()):
        module.init(key, x)
    Forwarded().init(key, x, deterministic=True)
    own_dropout(x)
    for module in (Inline(), Named(), SetUp(), Normed()):
        try:
            module.init(key, x)
        except ValueError as error:
            assert "must be passed to the constructor or at call time" in str(error), error
        else:
            raise AssertionError(f"{type(module).__name__}: expected ValueError")
    print("as labelled")
