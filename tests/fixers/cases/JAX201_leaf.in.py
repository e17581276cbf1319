# fix: unsafe
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    value: jax.Array
    other: jax.Array


def loss_step(state):
    state.value[1] *= 2.0
    y = state.value + state.value
    return y


step = jax.jit(loss_step)


@jax.jit
def pair_step(pair):
    pair[1][0] = 0.0
    y = pair[1] * 2.0 + pair[1]
    return y


STATE = jnp.linspace(-1.0, 1.0, 4)


def per_example(x):
    STATE[0] += 1.0  # no fix: reads_state would still see the old STATE
    y = x + STATE
    return y


def main(x):
    return jax.vmap(per_example)(x)


@jax.jit
def run(batch):
    def body(it, state):
        batch, total = state
        batch.value.at[1:].add(1.0)  # the carry hands the batch back whole: a new record
        y = batch.value + batch.value
        return batch, total + jnp.sum(y)

    _, total = lax.fori_loop(0, 3, body, (batch, jnp.float32(0.0)))
    return total


@jax.jit
def returned_whole(pair):
    pair[1][0] = 0.0  # no fix: the pair is returned
    return pair


@jax.jit
def in_a_loop(pair):
    for _ in range(2):
        pair[1][0] = 0.0  # no fix: not a top-level statement
    return pair[1]


@jax.jit
def read_by_a_closure(pair):
    def show():
        return pair[1]

    pair[1][0] = 0.0  # no fix: show reads the pair
    return show()


TABLE = jnp.zeros(4)


@jax.jit
def global_update_then_read(x):
    TABLE.at[0].set(x[0])
    return TABLE * 2.0


def reads_state(x):
    return x + STATE  # STATE is read here too: per_example's update gets no new name


@jax.jit
def rebound_later(pair):
    pair[1][0] = 0.0  # no fix: pair is rebound
    pair = (pair[0], pair[1] + 1.0)
    return pair[1]


@jax.jit
def aliased_before(pair):
    p = pair
    pair[1][0] = 0.0  # no fix: p keeps the old pair
    return p[1] + pair[1]


@jax.jit
def updated_twice(pair):
    pair[1][0] = 0.0
    pair[1][1] = pair[1][0] + 5.0
    return pair[1]
