# fix: safe
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class State(NamedTuple):
    w: jax.Array
    b: jax.Array


@jax.jit
def zero_first_bias(params):
    params["b"][0] = 0.0  # fixed: jit hands `params` a dict of its own, which no caller holds
    return params["w"] @ params["b"]


@jax.jit
def bump(state: State):
    state.b[0] += 1.0  # fixed: a new `State`, and no caller holds the old one
    return state.w * state.b


@jax.jit
def scaled_pair(pair):
    pair[1].at[0].set(2.0)  # fixed: the update goes into a new local name the function reads
    return pair[1] * 2.0


def helper(params):
    params["b"][0] = 0.0  # no fix (unsafe): its caller holds `params` and would see the new entry only
    return params["b"]


@jax.jit
def calls_helper(params):
    return helper(params)


@jax.jit
def keeps_the_leaf(params):
    b = params["b"]
    params["b"][0] = 0.0  # no fix (unsafe): `b` keeps the old leaf, where in place it would change
    return b + params["b"]


def curvature(batch):
    batch["x"][1:3] = 0.0  # fixed: only `jax.hessian` enters it, and a JVP tracer takes no item assignment either
    return jnp.sum(batch["x"] ** 3)


second = jax.hessian(curvature)


def eager_too(batch):
    batch["x"][0] = 0.0  # no fix (unsafe): called eagerly too, where a NumPy entry takes the write
    return jnp.sum(batch["x"])


slopes = jax.grad(eager_too)
total = eager_too({"x": np.ones(3)})
