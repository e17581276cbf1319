# fix: unsafe
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    value: jax.Array
    other: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    value: jax.Array
    other: jax.Array


@jax.jit
def loss_step(state: State):
    state.value[1] *= 2.0
    state.other[0] = 1.0
    return state.value + state.other


def make(seed):
    return State(jnp.ones(4), jnp.zeros(4))


@jax.jit
def batch_step(batch: Batch):
    batch.value[batch.value < 0] = 0.0
    batch.other[0] += 1.0
    return batch.value + batch.other


@jax.jit
def pair_step(pair):
    pair[1][0] = 0.0  # a new local name: the function reads only pair[1] after it
    return pair[1]


STATE = State(jnp.ones(4), jnp.zeros(4))


@jax.jit
def global_record(x):
    STATE.value[0] = x  # a new local name: rebinding STATE here would make it local
    return STATE.value
