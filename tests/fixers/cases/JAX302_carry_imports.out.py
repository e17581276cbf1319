# fix: unsafe
from dataclasses import dataclass

import jax
from jax import lax
import dataclasses


@jax.tree_util.register_dataclass
@dataclass
class State:
    x: jax.Array
    rng: jax.Array


def body(state, _):
    key, subkey = jax.random.split(state.rng)
    state = dataclasses.replace(state, rng=key)
    noise = jax.random.normal(subkey, ())  # `dataclasses` is imported for `replace`
    state = dataclasses.replace(state, x=state.x.at[()].add(noise))
    return state, noise


@jax.jit
def run(state):
    return lax.scan(body, state, None, length=3)
