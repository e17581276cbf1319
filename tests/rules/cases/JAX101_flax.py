"""A flax linen module's `__call__` runs wherever `apply` runs: under `jax.jit` once per trace (a
print there shows tracers), eagerly on real values. jaxlint decides from the project: a module
applied in jitted code is traced; one only ever applied eagerly is not."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Traced(nn.Module):
    @nn.compact
    def __call__(self, x):
        print("input", x)  # error: JAX101
        return nn.Dense(4)(x)


class Eager(nn.Module):
    @nn.compact
    def __call__(self, x):
        print("input", x)  # ok: only applied eagerly below, it prints real values
        return nn.Dense(4)(x)


@jax.jit
def step(params, x):
    return Traced().apply(params, x)


def evaluate(params, x):
    return Eager().apply(params, x)


def setup():
    return Eager().init(jax.random.key(0), jnp.ones(3))


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        print("block", x)  # error: JAX101 (a submodule of Net, applied under jit)
        return nn.Dense(self.features)(x)


class Net(nn.Module):
    def setup(self):
        self.block = Block(4)

    def __call__(self, x):
        return self.block(x)


def make_step():
    net = Net()
    return jax.jit(net.apply)


class EagerBlock(nn.Module):
    @nn.compact
    def __call__(self, x):
        print("block", x)  # ok: EagerNet is only applied eagerly
        return nn.Dense(4)(x)


class EagerNet(nn.Module):
    def setup(self):
        self.block = EagerBlock()

    def __call__(self, x):
        return self.block(x)


def evaluate_net(params, x):
    return EagerNet().apply(params, x)
