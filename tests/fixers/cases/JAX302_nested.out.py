# fix: unsafe
import dataclasses

import jax
import jax.numpy as jnp
from jax import lax


def fori_in_fori(it, state):
    key, total = state
    key, subkey = jax.random.split(key)
    y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(jax.random.fold_in(subkey, i), (2,)), jnp.zeros(2))
    return key, total + jnp.sum(y)


def folded_fori_in_scan(key, _):
    key, subkey = jax.random.split(key)
    y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(jax.random.fold_in(subkey, i), (2,)), jnp.zeros(2))
    return key, y


def python_loop_in_helper(carry):
    count, key, total = carry

    key, subkey = jax.random.split(key)
    def inner():
        y = jnp.zeros(2)
        for i in range(3):
            y = y + jax.random.uniform(jax.random.fold_in(subkey, i), (2,))
        return y

    y = inner()
    return count + 1, key, total + jnp.sum(y)


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    rng: jax.Array
    x: jax.Array


def fori_in_fori_field(it, state):
    batch, total = state
    key, subkey = jax.random.split(batch.rng)
    batch = dataclasses.replace(batch, rng=key)
    y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(jax.random.fold_in(subkey, i), (2,)), jnp.zeros(2))
    return batch, total + jnp.sum(y)


def folded_item_in_scan(carry, _):
    key, subkey = jax.random.split(carry["key"])
    carry = {**carry, "key": key}
    y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(jax.random.fold_in(subkey, i), (2,)), jnp.zeros(2))
    return carry, y


def inner_loop_twice(it, state):
    key, total = state
    y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(key, (2,)), jnp.zeros(2))  # no fix
    z = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(key, (2,)), jnp.zeros(2))  # no fix
    return key, total + jnp.sum(y + z)


def folded_constant(key, _):
    y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(jax.random.fold_in(key, 1), (2,)), jnp.zeros(2))  # no fix
    return key, y


def run(key):
    _, a = lax.fori_loop(0, 3, fori_in_fori, (key, jnp.float32(0.0)))
    _, b = lax.scan(folded_fori_in_scan, key, None, length=3)
    _, _, c = lax.while_loop(lambda s: s[0] < 3, python_loop_in_helper, (0, key, jnp.float32(0.0)))
    _, d = lax.fori_loop(0, 3, inner_loop_twice, (key, jnp.float32(0.0)))
    _, e = lax.scan(folded_constant, key, None, length=3)
    _, f = lax.fori_loop(0, 3, fori_in_fori_field, (Batch(key, jnp.zeros(2)), jnp.float32(0.0)))
    _, g = lax.scan(folded_item_in_scan, {"key": key}, None, length=3)
    return a, b, c, d, e, f, g
