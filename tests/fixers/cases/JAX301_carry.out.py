# fix: unsafe
import dataclasses
from typing import NamedTuple

import equinox as eqx
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


USE_NOISE = True


class Noisy(eqx.Module):
    seed: jax.Array


def scan_dataclass(batch, _):
    key, subkey, subkey_2 = jax.random.split(batch.rng, 3)
    batch = dataclasses.replace(batch, rng=key)
    a = jax.random.normal(subkey, (2,))
    b = jax.random.uniform(subkey_2, (2,))
    return batch, a + b


def scan_named_tuple(state, _):
    key, subkey, subkey_2 = jax.random.split(state.key, 3)
    state = state._replace(key=key)
    a = jax.random.normal(subkey, (2,))
    b = jax.random.uniform(subkey_2, (2,))
    return state, a * b


def scan_dict(carry, _):
    key, subkey, subkey_2 = jax.random.split(carry["key"], 3)
    carry = {**carry, "key": key}
    a = jax.random.normal(subkey, (2,))
    b = jax.random.uniform(subkey_2, (2,))
    return carry, a - b


def fori_tuple_item(i, state):
    pair, total = state
    key, subkey, subkey_2 = jax.random.split(pair[1], 3)
    pair = pair[:1] + (key,) + pair[2:]
    y = jax.random.normal(subkey, (2,))
    if USE_NOISE:  # a branch around the reuse
        y = y + jax.random.uniform(subkey_2, (2,))
    return pair, total + jnp.sum(y)


def while_unpacked(state):
    count, batch, total = state
    key, subkey, subkey_2 = jax.random.split(batch.rng, 3)
    batch = dataclasses.replace(batch, rng=key)
    a = jax.random.normal(subkey, (2,))
    b = jax.random.normal(subkey_2, (2,))
    return count + 1, batch, total + jnp.sum(a * b)


def equinox_module(carry, _):
    a = jax.random.normal(carry.seed, (2,))
    b = jax.random.normal(carry.seed, (2,))  # no fix: an equinox Module's __init__ may not take its fields
    return carry, a + b


def not_handed_back(batch, _):
    a = jax.random.normal(batch.rng, (2,))
    b = jax.random.normal(batch.rng, (2,))  # no fix: the body returns another record
    return Batch(batch.rng, batch.x), a + b


def read_again(batch, _):
    a = jax.random.normal(batch.rng, (2,))
    b = jax.random.normal(batch.rng, (2,))  # no fix: the key is read a third time
    keep = batch.rng
    return batch, a + b + jnp.zeros_like(jax.random.key_data(keep), jnp.float32).sum()


def drawn_in_a_loop(batch, _):
    y = jnp.zeros(2)
    a = jax.random.normal(batch.rng, (2,))
    for i in range(2):
        y = y + jax.random.normal(batch.rng, (2,))  # no fix: one split would serve every iteration
    return batch, a + y


def field_of_no_known_class(carry, _):
    a = jax.random.normal(carry.seed_of_unknown_class, (2,))
    b = jax.random.normal(carry.seed_of_unknown_class, (2,))  # no fix: no class says how to rebuild
    return carry, a + b


@jax.jit
def run(batch, state, keys, pair, more):
    _, ys = lax.scan(scan_dataclass, batch, None, length=3)
    _, zs = lax.scan(scan_named_tuple, state, None, length=3)
    _, ws = lax.scan(scan_dict, {"key": keys[0], "x": jnp.zeros(2)}, None, length=3)
    _, total = lax.fori_loop(0, 3, fori_tuple_item, ((pair[0], pair[1]), jnp.float32(0.0)))
    _, _, other = lax.while_loop(lambda s: s[0] < 3, while_unpacked, (0, more, jnp.float32(0.0)))
    _, us = lax.scan(equinox_module, Noisy(keys[1]), None, length=3)
    return ys, zs, ws, total, other, us


@jax.jit
def near_misses(first, second, third, fourth):
    _, vs = lax.scan(not_handed_back, first, None, length=3)
    _, rs = lax.scan(read_again, second, None, length=3)
    _, ls = lax.scan(drawn_in_a_loop, third, None, length=3)
    _, os = lax.scan(field_of_no_known_class, fourth, None, length=3)
    return vs, rs, ls, os
