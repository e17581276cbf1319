# A NamedTuple's fields cannot be assigned: `state.step = ...` raises `AttributeError`, in a
# jitted function as anywhere (measured with JAX 0.10.2). `_replace` builds an updated one.
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    params: jax.Array
    step: jax.Array


@jax.jit
def train_step(state, grad):
    state.step = state.step + 1  # error: JAX104
    return State(state.params - 0.1 * grad, state.step)


# near misses


@jax.jit
def replaced_step(state, grad):
    state = state._replace(step=state.step + 1)
    return state._replace(params=state.params - 0.1 * grad)


if __name__ == "__main__":
    s = State(jnp.ones(2), jnp.array(0))
    print(replaced_step(s, jnp.ones(2)))
    try:
        train_step(s, jnp.ones(2))
    except AttributeError as error:
        print("AttributeError:", error)
    else:
        raise AssertionError("expected AttributeError")
