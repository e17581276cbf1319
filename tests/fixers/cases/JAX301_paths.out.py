# fix: unsafe
import dataclasses

import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


@jax.jit
def item(keys):
    key, key_2 = jax.random.split(keys[0])
    a = jax.random.normal(key, (4,))
    b = jax.random.uniform(key_2, (4,))
    return a + b


def outer(key):
    @jax.jit
    def inner(x):
        a = jax.random.normal(key, (4,))
        return x + a + jax.random.normal(key, (4,))  # no fix: each call would split the same closed-over key

    return inner


@jax.jit
def uses_global(x):
    return x + jax.random.normal(KEY, (4,)) * jax.random.normal(KEY, (4,))  # no fix


@jax.jit
def computed_item(keys, i):
    a = jax.random.normal(keys[i], (4,))
    return a + jax.random.normal(keys[i], (4,))  # no fix


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    rng: jax.Array
    x: jax.Array


@jax.jit
def straight(batch: Batch):
    key, key_2 = jax.random.split(batch.rng)
    a = jax.random.normal(key, (4,))
    return a + jax.random.normal(key_2, (4,))


@jax.jit
def in_a_lax_body(batch: Batch):
    def body(state):
        count, batch, total = state
        key, subkey, subkey_2 = jax.random.split(batch.rng, 3)
        batch = dataclasses.replace(batch, rng=key)
        a = jax.random.normal(subkey, (4,))
        b = jax.random.normal(subkey_2, (4,))  # the new key goes back into the carry
        return count + 1, batch, total + jnp.sum(a * b)

    return jax.lax.while_loop(lambda s: s[0] < 3, body, (0, batch, 0.0))[2]


@jax.jit
def per_element(batch: Batch):
    def body(b):
        key, key_2 = jax.random.split(b.rng)
        a = jax.random.normal(key, ())
        return a + jax.random.normal(key_2, ())  # a new element each step: split it

    return jax.lax.map(body, batch)


@jax.jit
def closed_over_by_a_helper_called_once(key):
    def inner():
        key_2, key_3 = jax.random.split(key)
        a = jax.random.normal(key_2, (4,))
        b = jax.random.uniform(key_3, (4,))
        return a + b

    return inner()


@jax.jit
def helper_called_twice(key):
    def inner():
        a = jax.random.normal(key, (4,))
        b = jax.random.uniform(key, (4,))  # no fix: the second call would split the same key
        return a + b

    return inner() + inner()  # no fix: each call consumes the key inner closes over


def helper_handed_to_a_transform(key):
    def inner():
        a = jax.random.normal(key, (4,))
        b = jax.random.uniform(key, (4,))  # no fix: inner is named twice
        return a + b

    return jax.jit(inner)() + inner()  # no fix: both calls consume the key inner closes over


def fori_body_with_a_record_in_its_carry(i, state):
    batch, total = state
    key, key_2 = jax.random.split(jax.random.fold_in(batch.rng, i))
    a = jax.random.normal(key, (4,))
    b = jax.random.uniform(key_2, (4,))  # each step folds its index in
    return batch, total + jnp.sum(a * b)


def run_fori(batch: Batch):
    return jax.lax.fori_loop(0, 3, fori_body_with_a_record_in_its_carry, (batch, 0.0))


@jax.jit
def fori_body_closing_over_an_entry(batch):
    def step(i, acc):
        key, key_2 = jax.random.split(jax.random.fold_in(batch["key"], i))
        a = jax.random.normal(key, (4,))
        b = jax.random.uniform(key_2, (4,))
        return acc + a * b

    return jax.lax.fori_loop(0, 3, step, jnp.zeros(4))


def fori_body_with_an_item_in_its_carry(i, state):
    pair, total = state
    a = jax.random.normal(pair[1], (4,))
    b = jax.random.uniform(pair[1], (4,))  # no fix: the loop starts `pair` from a name (a list or a tuple?)
    return pair, total + jnp.sum(a * b)


def run_fori_items(pair):
    return jax.lax.fori_loop(0, 3, fori_body_with_an_item_in_its_carry, (pair, 0.0))


def per_example(batch):
    key, key_2 = jax.random.split(batch["rng"])
    a = jax.random.normal(key, ())
    return a + jax.random.normal(key_2, ())  # vmap traces it once: split into two keys


batched = jax.vmap(per_example)
