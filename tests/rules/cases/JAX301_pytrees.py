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


if __name__ == "__main__":
    import jax.numpy as jnp

    assert float(constructed(jax.random.key(0))) == 2 * float(jax.random.normal(jax.random.key(0)))
    _, noise = lax.scan(scan_body, Carry(jax.random.key(1), 0.0), None, length=3)
    assert jnp.array_equal(noise[0], noise[1]) and jnp.array_equal(noise[1], noise[2])  # the same draw each step
    _, split_noise = lax.scan(scan_split, Carry(jax.random.key(1), 0.0), None, length=3)
    assert not jnp.array_equal(split_noise[0], split_noise[1])
    field_split(Batch(jax.random.key(2), jnp.ones(2)))
    jax.config.update("jax_debug_key_reuse", True)
    for hazard in (
        lambda: field_twice(Batch(jax.random.key(3), jnp.ones(2))),
        lambda: constructed(jax.random.key(4)),
        lambda: lax.scan(scan_body, Carry(jax.random.key(5), 0.0), None, length=3),
        lambda: run(jax.random.key(6)),
    ):
        try:
            hazard()
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise KeyReuseError")
    # `run` stops at its first scan; with a body that splits there, the second scan's reuse shows
    globals()["scan_body"] = scan_split
    try:
        run(jax.random.key(7))
    except jax.errors.KeyReuseError:
        pass
    else:
        raise AssertionError("the second scan of `run` did not raise KeyReuseError")
    field_split(Batch(jax.random.key(8), jnp.ones(2)))
    print("ok")
