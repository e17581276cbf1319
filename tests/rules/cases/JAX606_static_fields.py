"""JAX606 on static fields: a field an equinox module or a flax struct keeps in its treedef is
compared with `==` when JAX looks up a compiled program, and `==` on arrays does not give a
bool.

Near misses: a static field holding a tuple or an int, an ordinary field holding an array, a
static field the class fills with a Python value.
"""

from typing import Any

import equinox as eqx
import flax.struct
import jax
import jax.numpy as jnp
import numpy as np


class Data(eqx.Module):
    data: Any = eqx.field(static=True)
    shape: tuple = eqx.field(static=True)
    values: jax.Array

    def __init__(self, seed):
        self.data = jax.random.uniform(jax.random.key(seed), (3,))  # error: JAX606
        self.shape = (3, 3)  # ok: a tuple is hashable
        self.values = jnp.ones(3)  # ok: an ordinary field


class Table(eqx.Module):
    table: Any = eqx.field(static=True)
    size: int = eqx.field(static=True)

    def __init__(self, n):
        self.table = np.zeros(n)  # error: JAX606
        self.size = n  # ok: an int


@flax.struct.dataclass
class State:
    step: jax.Array
    mask: jax.Array = flax.struct.field(pytree_node=False)  # error: JAX606
    name: str = flax.struct.field(pytree_node=False)  # ok: a string
    weights: jax.Array = flax.struct.field(pytree_node=True)  # ok: a leaf


@eqx.filter_jit
def total(data, table):
    return jnp.sum(data.values) + table.size


@jax.jit
def advance(state):
    return state.step + 1
