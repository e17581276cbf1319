# Flax linen modules, equinox modules, flax PyTreeNodes and dataclasses make `__init__` from
# their annotated class attributes: a list/dict/set default raises `ValueError` when the class is
# defined, and an attribute without an annotation is no field, so a keyword for it raises
# `TypeError` (measured with flax 0.12.8 and equinox 0.13.8). nnx modules are no dataclasses.
import dataclasses
from typing import ClassVar

import equinox as eqx
import flax.linen as nn
import flax.struct
import jax.numpy as jnp
from flax import nnx


def define_linen():
    class MLP(nn.Module):
        hidden_sizes: list = [16, 16]  # error: JAX651

    return MLP


def define_equinox():
    class Head(eqx.Module):
        weights: dict = {}  # error: JAX651

    return Head


def define_pytree():
    class State(flax.struct.PyTreeNode):
        history: list = list()  # error: JAX651

    return State


def define_dataclass():
    @dataclasses.dataclass(frozen=True)
    class Config:
        layers: set = {1, 2}  # error: JAX651

    return Config


class MLPBlock(nn.Module):
    features = 16

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.features)(x)


class Wider(MLPBlock):
    pass


def build():
    return MLPBlock(features=32)  # error: JAX651


def build_wider():
    return Wider(features=64)  # error: JAX651


# near misses


class Good(nn.Module):
    hidden_sizes: tuple = (16, 16)
    registry: ClassVar[dict] = {}
    features: int = 16

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.features)(x)


class NnxModule(nnx.Module):
    sizes: list = [16, 16]  # not a dataclass: a class attribute

    def __init__(self, features=4):
        self.features = features


class CustomInit(eqx.Module):
    scale = 2.0

    def __init__(self, scale=1.0):
        pass


def build_good():
    return Good(features=8), NnxModule(features=8), CustomInit(scale=3.0)


if __name__ == "__main__":
    for define in (define_linen, define_equinox, define_pytree, define_dataclass):
        try:
            define()
        except ValueError as error:
            assert "mutable default" in str(error)
        else:
            raise AssertionError("expected ValueError")
    for construct in (build, build_wider):
        try:
            construct()
        except TypeError as error:
            assert "unexpected keyword argument" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print(build_good()[0].features, jnp.ones(1))
    print("ok")
