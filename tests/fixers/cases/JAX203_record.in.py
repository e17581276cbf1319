# fix: unsafe
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    value: jax.Array
    other: jax.Array


class State(NamedTuple):
    count: jax.Array
    weights: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Holder:
    shared: jax.Array


class Pair(NamedTuple):
    shared: jax.Array


@jax.jit
def fori_carry(batch):
    def body(i, carry):
        batch, total = carry
        batch.value.at[1:].add(1.0)  # the carry is a Batch of this module: rebuilt around it
        return batch, total + jnp.sum(batch.value)

    return lax.fori_loop(0, 3, body, (batch, jnp.float32(0.0)))


def scan_body(state, x):
    state.weights.at[0].set(x)
    state.weights[1] = x
    return state, state.weights.sum()


@jax.jit
def run(state, xs):
    return lax.scan(scan_body, state, xs)


@jax.jit
def declared_by_two_kinds(carry):
    def body(i, c):
        c.shared.at[0].set(1.0)  # no fix: a dataclass and a NamedTuple both have `shared`
        return c

    return lax.fori_loop(0, 3, body, carry)
