"""JAX606 on static fields: a field an equinox module or a flax struct keeps in its treedef is
compared with `==` when JAX looks up a compiled program, and `==` on arrays does not give a
bool.

Near misses: a static field holding a tuple or an int, an ordinary field holding an array, a
0-d array (it compares to a bool: equinox only warns), an array whose size is not written out,
a field with a converter (equinox stores what it returns), an annotation alone.
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
        self.table = np.zeros(4)  # error: JAX606
        self.size = n  # ok: an int


def _as_tuple(values):
    return tuple(float(v) for v in values)


class Scalars(eqx.Module):
    eps: Any = eqx.field(static=True)
    sizes: Any = eqx.field(static=True)
    grid: Any = eqx.field(static=True, converter=_as_tuple)

    def __init__(self, eps, n):
        self.eps = jnp.float32(eps)  # ok: 0-d, compares to a bool
        self.sizes = np.zeros(n)  # ok: not claimed, its size is not written out
        self.grid = jnp.linspace(0.0, 1.0, 5)  # ok: the converter makes a tuple


@flax.struct.dataclass
class State:
    step: jax.Array
    mask: jax.Array = flax.struct.field(pytree_node=False)  # ok: not claimed, a 0-d array works
    name: str = flax.struct.field(pytree_node=False)  # ok: a string
    weights: jax.Array = flax.struct.field(pytree_node=True)  # ok: a leaf


@eqx.filter_jit
def total(data, table):
    return jnp.sum(data.values) + table.size


@jax.jit
def advance(state):
    return state.step + 1


@flax.struct.dataclass
class Model:
    c: np.ndarray = flax.struct.field(pytree_node=False)  # error: JAX606 (built with `np.ones(10)` below)
    scale: np.ndarray = flax.struct.field(pytree_node=False)  # ok: built with a 0-d array only


@flax.struct.dataclass
class Holder:
    kept: np.ndarray = flax.struct.field(pytree_node=False)  # ok: built with a tuple

    def __init__(self, kept):  # its own `__init__`: what goes into the field is its business
        object.__setattr__(self, "kept", tuple(kept))


@jax.jit
def apply_model(model):
    return 1.0


def build_models():
    first = apply_model(Model(np.ones(10), scale=np.float32(2.0)))
    second = apply_model(Model(c=np.ones(10), scale=np.float32(2.0)))
    return first, second, Holder((1, 2))


@jax.tree_util.register_pytree_node_class
class Tagged:
    def __init__(self, tags, values, name):
        self.tags = tags
        self.values = values
        self.name = name

    def tree_flatten(self):
        aux = (self.tags, self.name)  # error: JAX606 (`tags` gets a JAX array of several elements)
        return (self.values,), aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(aux[0], children[0], aux[1])


@jax.jit
def total_values(tagged):
    return tagged.values.sum()


def tagged_twice():
    first = total_values(Tagged(jnp.array([1, 2]), jnp.ones(3), "a"))
    second = total_values(Tagged(jnp.array([1, 2]), jnp.ones(3), "a"))  # `name` a string: fine
    return first, second
