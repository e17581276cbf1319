# fix: unsafe
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    rng: jax.Array
    x: jax.Array


class State(NamedTuple):
    key: jax.Array
    total: jax.Array


def python_loop_in_scan(state, _):
    y = jnp.zeros(2)
    key, subkey = jax.random.split(state.key)
    state = state._replace(key=key)
    for i in range(3):
        y = y + jax.random.normal(jax.random.fold_in(subkey, i), (2,))
    return state, y


def python_loop_in_while(carry):
    count, batch, total = carry
    y = jnp.zeros(2)
    key, subkey = jax.random.split(batch.rng)
    batch = dataclasses.replace(batch, rng=key)
    for i, scale in enumerate((1.0, 2.0)):
        y = y + scale * jax.random.normal(jax.random.fold_in(subkey, i), (2,))
    return count + 1, batch, total + jnp.sum(y)


def carried_unsplit(batch, _):
    key, subkey = jax.random.split(batch.rng)
    batch = dataclasses.replace(batch, rng=key)
    noise = jax.random.normal(subkey, (2,))
    return batch, noise


def carried_dict_unsplit(i, carry):
    total = carry["total"] + jax.random.uniform(carry["key"], ())  # no fix: the body builds the dict it hands back
    return {**carry, "total": total}


def carried_item_unsplit(carry, _):
    pair, total = carry
    key, subkey = jax.random.split(pair[0])
    pair = (key,) + pair[1:]
    total = total + jax.random.uniform(subkey, ())
    return (pair, total), total


def folded_in_a_loop(state, _):
    y = jnp.zeros(2)
    key, subkey = jax.random.split(state.key)
    state = state._replace(key=key)
    for i in range(3):
        y = y + jax.random.normal(jax.random.fold_in(subkey, i), (2,))
    return state, y


def nested_loops(state, _):
    y = jnp.zeros(2)
    for i in range(2):
        for j in range(2):
            y = y + jax.random.normal(state.key, (2,))  # no fix: the inner index repeats across the outer loop
    return state, y


def split_in_a_loop_without_index(state, _):
    y = jnp.zeros(2)
    for scale in (1.0, 2.0):
        y = y + scale * jax.random.normal(state.key, (2,))  # no fix: no loop index to fold in
    return state, y


def handed_back_elsewhere(state, _):
    noise = jax.random.normal(state.key, (2,))  # no fix: the carry returned is built anew
    return State(state.key, state.total), noise


@jax.jit
def run(state, batch, keys):  # keys: six keys
    _, a = lax.scan(python_loop_in_scan, state, None, length=3)
    _, _, b = lax.while_loop(lambda c: c[0] < 3, python_loop_in_while, (0, batch, jnp.float32(0.0)))
    _, c = lax.scan(carried_unsplit, Batch(keys[0], jnp.zeros(2)), None, length=3)
    d = lax.fori_loop(0, 3, carried_dict_unsplit, {"key": keys[1], "total": jnp.float32(0.0)})
    _, e = lax.scan(carried_item_unsplit, ((keys[2], keys[3]), jnp.float32(0.0)), None, length=3)
    _, f = lax.scan(folded_in_a_loop, State(keys[4], jnp.zeros(2)), None, length=3)
    return a, b, c, d, e, f


@jax.jit
def near_misses(first, second, third):
    _, a = lax.scan(nested_loops, first, None, length=3)
    _, b = lax.scan(split_in_a_loop_without_index, second, None, length=3)
    _, c = lax.scan(handed_back_elsewhere, third, None, length=3)
    return a, b, c


def list_carry(carry, x):
    key, subkey = jax.random.split(carry[0])
    carry = [key] + carry[1:]
    return carry, x + jax.random.normal(subkey, ())


def tuple_started_from_a_name(carry, x):
    return carry, x + jax.random.normal(carry[0], ())  # no fix: a list or a tuple?


@jax.jit
def sequences(xs, init):
    a = lax.scan(list_carry, [jax.random.key(0), jnp.float32(1)], xs)
    return a, lax.scan(tuple_started_from_a_name, init, xs)
