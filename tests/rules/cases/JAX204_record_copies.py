# A NamedTuple's `_replace`, `dataclasses.replace` and `equinox.tree_at` return an updated copy
# and change nothing: called as a statement, the code goes on with the old value (measured with
# JAX 0.10.2: each marked program keeps the old value). Assigned results, and calls whose input
# is never read again, stay silent.
import dataclasses
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp


class State(NamedTuple):
    step: jax.Array
    w: jax.Array


@dataclasses.dataclass(frozen=True)
class Config:
    lr: float


class Linear(eqx.Module):
    w: jax.Array


@jax.jit
def update(s):
    s._replace(step=s.step + 1)  # error: JAX204
    return s


@jax.jit
def update_kept(s):
    s = s._replace(step=s.step + 1)
    return s


def decay(config):
    dataclasses.replace(config, lr=config.lr * 0.5)  # error: JAX204
    return config.lr


def reset(model):
    eqx.tree_at(lambda m: m.w, model, jnp.ones(2))  # error: JAX204
    return model.w.sum()


def reset_kept(model):
    model = eqx.tree_at(lambda m: m.w, model, jnp.ones(2))
    return model.w.sum()


def label(name):
    name.replace("_", "-")  # a string method on a string: not a record update
    return name


if __name__ == "__main__":
    state = State(jnp.array(0), jnp.ones(2))
    print(int(update(state).step))
    print(int(update_kept(state).step))
    print(decay(Config(1.0)))
    print(reset(Linear(jnp.zeros(2))))
    print(reset_kept(Linear(jnp.zeros(2))))
    print(label("a_b"))
