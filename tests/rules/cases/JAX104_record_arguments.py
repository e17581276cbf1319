# A compiled function gets a copy of each pytree argument, rebuilt from its leaves: assigning a
# field of it changes only that copy, and the caller's object keeps its old field; a frozen
# class raises `FrozenInstanceError` instead (measured with JAX 0.10.2). A function that returns
# the object hands the change back; a NamedTuple is JAX201's and Python's business.
import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax import struct


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Buffer:
    data: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Frozen:
    data: jax.Array


@struct.dataclass
class State:
    step: jax.Array


class Pair(NamedTuple):
    first: jax.Array


@jax.jit
def fill(buffer):
    buffer.data = buffer.data + 1.0  # error: JAX104
    return buffer.data.sum()


@jax.jit
def fill_frozen(frozen):
    frozen.data = frozen.data + 1.0  # error: JAX104
    return frozen.data.sum()


@jax.jit
def advance(state):
    state.step = state.step + 1  # error: JAX104
    return state.step


@jax.jit
def fill_returned(buffer):
    buffer.data = buffer.data + 1.0  # handed back: the caller rebinds it
    return buffer


if __name__ == "__main__":
    buffer = Buffer(jnp.zeros(3))
    assert float(fill(buffer)) == 3.0
    assert jnp.array_equal(buffer.data, jnp.zeros(3)), "the caller's field changed"
    for hazard, error in [
        (lambda: fill_frozen(Frozen(jnp.zeros(3))), dataclasses.FrozenInstanceError),
        (lambda: advance(State(jnp.array(0))), dataclasses.FrozenInstanceError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    assert jnp.array_equal(fill_returned(Buffer(jnp.zeros(3))).data, jnp.ones(3))
    print("ok")
