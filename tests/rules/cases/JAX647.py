# List multiplication repeats one layer object: flax makes one set of parameters for all the
# elements, equinox holds copies of one initialisation (measured with flax 0.12.8 and equinox
# 0.13.8). Comprehensions, layers without parameters and lists of arrays are fine.
import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import nnx


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x)


class DeepMLP(nn.Module):
    def setup(self):
        self.layers = [nn.Dense(4)] * 3  # error: JAX647

    def __call__(self, x):
        for layer in self.layers:
            x = nn.tanh(layer(x))
        return x


class Stacked(nn.Module):
    depth: int = 2

    @nn.compact
    def __call__(self, x):
        for block in self.depth * [Block()]:  # error: JAX647
            x = block(x)
        return x


class NnxStack(nnx.Module):
    def __init__(self, rngs):
        self.layers = nnx.List([nnx.Linear(4, 4, rngs=rngs)] * 3)  # error: JAX647


class EqxStack(eqx.Module):
    layers: list

    def __init__(self, key):
        self.layers = [eqx.nn.Linear(4, 4, key=key)] * 3  # error: JAX647


class Named(nn.Module):
    def setup(self):
        dense = nn.Dense(4)
        self.layers = [dense] * 2  # error: JAX647

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


# near misses


class Distinct(nn.Module):
    def setup(self):
        self.layers = [nn.Dense(4) for _ in range(3)]
        self.drops = [nn.Dropout(0.1)] * 3  # no parameters to share

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


zeros = [jnp.zeros(3)] * 4  # arrays are immutable
streams = [nnx.Rngs(0)] * 2  # one stream drawn from in turn: not a layer
single = [nn.Dense(4)] * 1


if __name__ == "__main__":
    x = jnp.ones((1, 4))
    assert list(DeepMLP().init(jax.random.key(0), x)["params"]) == ["layers_0"]
    assert list(Stacked().init(jax.random.key(0), x)["params"]) == ["Block_0"]
    assert len(jax.tree.leaves(nnx.state(NnxStack(nnx.Rngs(0)), nnx.Param))) == 2
    stack = EqxStack(jax.random.key(0))
    assert all(bool(jnp.all(layer.weight == stack.layers[0].weight)) for layer in stack.layers)
    assert len(Distinct().init(jax.random.key(0), x)["params"]) == 3
    assert len(Named().init(jax.random.key(0), x)["params"]) == 1
    print("ok")
