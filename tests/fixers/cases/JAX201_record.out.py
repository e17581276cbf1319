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
    state = state._replace(value=state.value.at[1].multiply(2.0))
    state = state._replace(other=state.other.at[0].set(1.0))
    return state.value + state.other


def make(seed):
    return State(jnp.ones(4), jnp.zeros(4))


@jax.jit
def batch_step(batch: Batch):
    batch = dataclasses.replace(batch, value=jnp.where(batch.value < 0, jnp.zeros_like(batch.value), batch.value))
    batch = dataclasses.replace(batch, other=batch.other.at[0].add(1.0))
    return batch.value + batch.other


@jax.jit
def pair_step(pair):
    item = pair[1].at[0].set(0.0)  # a new local name: the function reads only pair[1] after it
    return item


STATE = State(jnp.ones(4), jnp.zeros(4))


@jax.jit
def global_record(x):
    value = STATE.value.at[0].set(x)  # a new local name: rebinding STATE here would make it local
    return value
