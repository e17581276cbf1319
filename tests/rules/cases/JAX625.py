# `jax.jit` flattens its arguments into arrays: an instance of a class JAX does not know as a
# pytree raises `TypeError` ("Error interpreting argument ... as an abstract array", measured
# with JAX 0.10.2). A registered dataclass, a NamedTuple, a static argument and a class handed
# to a registration are fine.
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Params:
    def __init__(self, w, b):
        self.w = w
        self.b = b


@jax.jit
def forward(p, x):
    return x @ p.w + p.b


def run():
    p = Params(jnp.ones((3, 2)), jnp.zeros(2))
    return forward(p, jnp.ones(3))  # error: JAX625


# near misses


@jax.tree_util.register_dataclass
@dataclass
class Registered:
    w: jax.Array
    b: jax.Array


class Pair(NamedTuple):
    w: jax.Array
    b: jax.Array


class Config:
    def __init__(self, scale):
        self.scale = scale

    def __hash__(self):
        return hash(self.scale)

    def __eq__(self, other):
        return isinstance(other, Config) and other.scale == self.scale


class Custom:
    def __init__(self, w):
        self.w = w

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


jax.tree_util.register_pytree_node(Custom, Custom.tree_flatten, Custom.tree_unflatten)


@partial(jax.jit, static_argnames="config")
def scaled(x, config):
    return x * config.scale


@jax.jit
def first(c):
    return c.w


def run_fine():
    x = jnp.ones(3)
    outputs = (
        forward(Registered(jnp.ones((3, 2)), jnp.zeros(2)), x),
        forward(Pair(jnp.ones((3, 2)), jnp.zeros(2)), x),
        scaled(x, Config(2.0)),
        first(Custom(x)),
    )
    return outputs


if __name__ == "__main__":
    print(run_fine())
    try:
        run()
    except TypeError as error:
        print("TypeError:", str(error)[:60])
    else:
        raise AssertionError("expected TypeError")
