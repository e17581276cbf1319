"""Keys held in pytrees: a field, an element or an entry read twice is the same key."""

import dataclasses
from typing import NamedTuple

import jax
from jax import lax


class Carry(NamedTuple):
    key: jax.Array
    total: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    rng: jax.Array
    data: jax.Array


@jax.jit
def field_twice(batch):
    a = jax.random.normal(batch.rng, (3,))
    b = jax.random.uniform(batch.rng, (3,))  # error: JAX301
    return a + b


@jax.jit
def field_split(batch):
    first, second = jax.random.split(batch.rng)
    return jax.random.normal(first) + jax.random.normal(second)


def constructed(key):
    carry = Carry(key, 0.0)
    a = jax.random.normal(carry.key)
    b = jax.random.normal(key)  # error: JAX301
    return a + b


def scan_body(carry, _):
    noise = jax.random.normal(carry.key, (3,))  # error: JAX302
    return carry._replace(total=carry.total + noise.sum()), noise


def scan_split(carry, _):
    key, sub = jax.random.split(carry.key)
    noise = jax.random.normal(sub, (3,))
    return Carry(key, carry.total + noise.sum()), noise


def run(key):
    lax.scan(scan_body, Carry(key, 0.0), None, length=3)
    return lax.scan(scan_split, Carry(key, 0.0), None, length=3)  # error: JAX301 (the first scan consumed `key`)
