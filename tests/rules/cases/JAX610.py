import dataclasses
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


class A1:
    """jax#5595."""

    @jax.jit  # error: JAX610
    def f(self, x):
        return x


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @partial(jax.jit, static_argnames=("n",))  # error: JAX610 (only `n` is static)
    def scale(self, x, n):
        return x * self.factor * n

    # near misses: a static self, no self, pytrees

    @partial(jax.jit, static_argnums=0)  # ok: a static self (hashable, frozen attributes)
    def scale_static(self, x):
        return x * self.factor

    @staticmethod
    @jax.jit
    def helper(x):  # ok: no self
        return x * 2


class Child(Scaler):
    @jax.jit  # error: JAX610 (a plain class of this module as its base)
    def shift(self, x):
        return x + self.factor


@jax.tree_util.register_pytree_node_class
class Registered:
    def __init__(self, w):
        self.w = w

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def apply(self, x):  # ok: a pytree
        return x * self.w


@dataclasses.dataclass
class Config:
    scale: float

    @jax.jit  # error: JAX610 (a plain dataclass is no pytree)
    def apply(self, x):
        return x * self.scale


class Model(eqx.Module):
    w: jnp.ndarray

    @jax.jit
    def __call__(self, x):  # ok: an equinox Module is a pytree
        return x * self.w
