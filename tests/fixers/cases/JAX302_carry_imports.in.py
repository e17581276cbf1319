# fix: unsafe
from dataclasses import dataclass

import jax
from jax import lax


@jax.tree_util.register_dataclass
@dataclass
class State:
    x: jax.Array
    rng: jax.Array


def body(state, _):
    noise = jax.random.normal(state.rng, ())  # `dataclasses` is imported for `replace`
    state.x.at[()].add(noise)
    return state, noise


@jax.jit
def run(state):
    return lax.scan(body, state, None, length=3)
