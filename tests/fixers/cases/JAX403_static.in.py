# fix: unsafe
import dataclasses
import functools

import jax
import jax.numpy as jnp


@jax.jit
def pad_to(x, n):
    return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])


def add_positions(tokens, seq_len):
    return tokens + jnp.arange(seq_len)


add_positions_jit = jax.jit(add_positions)


@jax.jit
def take_prefix(x, n):
    return x[:n]


@jax.jit
def window(x, start):
    width = 4
    return x[start : start + width]


@jax.jit
def from_data(x):
    n = x.sum().astype(int)
    return jnp.ones((n, 2))  # no fix


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    n_items: jax.Array
    other: jax.Array


@jax.jit
def sized_by_field(batch):
    return jnp.ones((batch.n_items,))  # no fix: `batch` holds arrays, which cannot be static


@jax.jit
def sliced_by_field(x, batch):
    return x[: batch.n_items]  # no fix


shared_jit = functools.partial(jax.jit, static_argnames=("n",))


@shared_jit
def through_an_alias(x, m, n=2):
    return jnp.zeros(m) + x * n  # no fix: the alias is shared, and a second partial would drop `n`


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Padded:
    tokens: jax.Array
    n_pad: int


@jax.jit
def pad(batch):
    return jnp.concatenate([batch.tokens, jnp.zeros(batch.n_pad)])  # no fix: `batch` holds an array
