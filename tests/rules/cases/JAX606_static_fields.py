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


if __name__ == "__main__":
    import warnings

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    warnings.filterwarnings("ignore", message="A JAX array is being set as static")

    def twice(function, make):
        """Call a jitted function twice with equal arguments: the second call compares the static fields."""
        return function(make()), function(make())

    values_sum = eqx.filter_jit(lambda d: d.values.sum())
    table_size = eqx.filter_jit(lambda t: t.size)
    scalars_grid = eqx.filter_jit(lambda s: s.grid[1])
    for hazard in (
        lambda: twice(values_sum, lambda: Data(0)),  # line 25
        lambda: twice(table_size, lambda: Table(3)),  # line 35
        lambda: fns["build_models"](),  # line 74
        lambda: fns["tagged_twice"](),  # line 105
    ):
        try:
            hazard()
        except ValueError:  # "static arguments should be comparable using __eq__" / "... metadata fields ..."
            pass
        else:
            raise AssertionError(f"{hazard} did not raise ValueError")
    assert twice(scalars_grid, lambda: Scalars(0.1, 1)) == (0.25, 0.25)
    state = lambda: State(jnp.int32(0), jnp.float32(1.0), "a", jnp.ones(2))  # noqa: E731
    assert [int(step) for step in twice(fns["advance"], state)] == [1, 1]
    assert fns["Holder"]([1, 2]).kept == (1, 2)
    print("ok")
