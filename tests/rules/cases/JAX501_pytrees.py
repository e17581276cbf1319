"""Fields of pytrees: a NamedTuple, a registered dataclass, a flax struct or an equinox module
traced by a transformation holds tracers in its data fields, Python values in its static ones."""

import dataclasses
from functools import partial
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import struct
from jax import lax


class State(NamedTuple):
    value: jax.Array
    steps: int


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    inputs: jax.Array
    size: int = dataclasses.field(metadata=dict(static=True))


@struct.dataclass
class Train:
    step: int
    apply_fn: object = struct.field(pytree_node=False)


class Net(eqx.Module):
    weight: jax.Array
    depth: int
    activation: object = eqx.field(static=True)


@dataclasses.dataclass
class Config:  # not a pytree: never traced
    ratio: float


@jax.jit
def decorated(state, batch, train):
    if state.value > 0:  # error: JAX501
        pass
    if batch.inputs.sum() > 0:  # error: JAX501
        pass
    if train.step > 100:  # error: JAX501
        pass
    if batch.size > 2:  # a static field: fine
        pass
    if train.apply_fn is None:
        pass
    return state


def applied(state):
    if state.steps > 0:  # error: JAX501
        pass
    return state


applied_jit = jax.jit(applied)


def helper(state):
    if state.value > 0:  # error: JAX501
        return state.value
    return -state.value


@jax.jit
def calls_helper(state):
    return helper(state)


@jax.jit
def annotated(s: State, cfg):
    first, second = s
    if second > 1:  # error: JAX501
        pass
    return first


@jax.jit
def constructed(x):
    state = State(x, 0)
    if state.value > 0:  # error: JAX501
        pass
    if state.steps > 0:  # a Python int stored in the record: fine
        pass
    updated = state._replace(value=1.0)
    if updated.value > 0:  # replaced by a Python float: fine
        pass
    moved = dataclasses.replace(Batch(x, 3), size=4)
    if moved.size > 2:  # fine
        pass
    return state


def body(i, carry):
    state, total = carry
    if state.value > total:  # error: JAX501
        pass
    return carry


def loop(x):
    return lax.fori_loop(0, 3, body, (State(x, 1), 0.0))


@jax.vmap
def batched(batch):
    if batch.inputs > 0:  # error: JAX501
        pass
    return batch


@partial(jax.jit, static_argnames="cfg")
def with_static(batch, cfg):
    if cfg.ratio > 0.5:  # static: fine
        pass
    return batch


@eqx.filter_jit
def filtered(net: Net, x):
    if net.depth > 2:  # filter_jit leaves Python ints static: fine
        pass
    if net.activation is None:
        pass
    if net.weight.sum() > 0:  # error: JAX501
        pass
    return x


def eager(state):
    if state.value > 0:  # not traced: fine
        pass
    return state


@jax.jit
def lists(xs):
    if xs.count(1) > 0:  # a list method, not the field `count`
        pass
    return xs


class HParams(NamedTuple):
    n_steps: int
    lr: float


@partial(jax.jit, static_argnums=(1,))
def fit(w, hp):
    if hp.n_steps > 1:  # a NamedTuple passed for a static parameter keeps its Python fields
        w = w * 2
    for _ in range(hp.n_steps):
        w = w - hp.lr * w
    return w


fitted = fit(jnp.ones(2), HParams(2, 0.25))
