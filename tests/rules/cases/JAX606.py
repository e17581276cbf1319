import dataclasses
import functools
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("sizes",))
def split_sum(x, sizes):
    return [jnp.sum(part) for part in jnp.split(x, sizes)]


def mlp(x, layers, activation):
    for width in layers:
        x = activation(x[:width])
    return x


mlp_jit = jax.jit(mlp, static_argnums=(1, 2))
CONFIG = {"depth": 2}


class Net:
    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, options):
        return x * len(options)


def run(x, net):
    a = split_sum(x, sizes=[2, 5])  # error: JAX606
    b = split_sum(x, [2, 5])  # error: JAX606
    c = mlp_jit(x, [4, 2], jnp.tanh)  # error: JAX606
    d = mlp_jit(x, (4, [2]), jnp.tanh)  # error: JAX606
    e = split_sum(x, jnp.array([2, 5]))  # error: JAX606
    f = split_sum(x, np.array([2, 5]))  # error: JAX606
    g = jax.jit(mlp, static_argnames="layers")(x, layers={4, 2}, activation=jnp.tanh)  # error: JAX606, JAX611
    h = net.apply(x, CONFIG)
    return a, b, c, d, e, f, g, h


class Runner:
    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, options):
        return x * len(options)

    def go(self, x):
        return self.apply(x, {"a": 1})  # error: JAX606


# --- near misses ---


def hashable(x):
    return split_sum(x, (2, 5)), split_sum(x, sizes=(2, 5)), mlp_jit(x, (4, 2), jnp.tanh)


def traced_positions(x):
    return mlp_jit([x, x], (4,), jnp.tanh)  # pytrees are fine where arguments are traced


def plain_call(x):
    return mlp(x, [4, 2], jnp.tanh)  # not through jit


def unknown_static(x, sizes, **kwargs):
    return split_sum(x, sizes), split_sum(x, *kwargs.values())


@dataclasses.dataclass
class Config:
    scale: int


@dataclasses.dataclass(frozen=True)
class FrozenConfig:
    scale: int


@dataclasses.dataclass(eq=False)
class IdentityConfig:
    scale: int


@functools.partial(jax.jit, static_argnums=1)
def configured(x, config):
    return x * config.scale


def configurations(x):
    a = configured(x, Config(3))  # error: JAX606 (a dataclass that is not frozen has no hash)
    b = configured(x, FrozenConfig(3))  # ok: frozen, hashable
    c = configured(x, IdentityConfig(3))  # ok: eq=False keeps the identity hash
    return a, b, c


@functools.partial(jax.jit, static_argnums=(1,))
def mesh(x, limits):
    return x * limits[0]


def mesh_eval(x, limits):
    return mesh(x, limits)


def mesh_eval_tuple(x, limits):
    limits = tuple(limits)
    return mesh(x, limits)


def plots(x):
    a = mesh_eval(x, [-2, 2])  # error: JAX606 (mesh_eval hands it to a static parameter)
    b = mesh_eval(x, (-2, 2))  # ok: a tuple
    c = mesh_eval_tuple(x, [-2, 2])  # ok: made a tuple before it is passed on
    return a, b, c


@functools.partial(jax.jit, static_argnums=(0,))
def add_one(dummy, x):
    return x + 1


def rebuilt_lists(x):
    dummy = [0]
    out = add_one(dummy, x)  # error: JAX606 (every binding of `dummy` is a list)
    dummy = [0]
    return add_one(dummy, out)  # error: JAX606


def list_then_tuple(x):
    dummy = [0]
    dummy = tuple(dummy)
    return add_one(dummy, x)  # ok: not every binding is a list (this one is a tuple)
