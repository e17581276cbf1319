# A NamedTuple (hashable) given as a static argument stays a Python value, every field of it,
# whether or not the call writes its defaulted fields; given as a traced argument, its numbers
# are traced and `jnp.tile` needs a concrete count (measured with JAX 0.10.2).
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Config(NamedTuple):
    hidden: int
    act: str = "relu"


class Sizes(NamedTuple):
    hidden: int
    depth: int


@partial(jax.jit, static_argnames=("cfg",))
def forward(x, cfg):
    h = jnp.tile(x, cfg.hidden // x.shape[-1])  # a static argument: its fields are Python values
    return jax.nn.relu(h) if cfg.act == "relu" else jnp.tanh(h)


@jax.jit
def traced_forward(x, sizes):
    return jnp.tile(x, sizes.hidden // x.shape[-1])  # error: JAX403


if __name__ == "__main__":
    x = jnp.array([1.0, -2.0])
    assert forward(x, cfg=Config(hidden=4)).tolist() == [1.0, 0.0, 1.0, 0.0]
    assert forward(x, cfg=Config(hidden=2, act="tanh")).shape == (2,)
    try:
        traced_forward(x, Sizes(hidden=4, depth=2))
    except jax.errors.ConcretizationTypeError:
        print("ConcretizationTypeError")
    except TypeError as error:
        print("TypeError", str(error)[:60])
    else:
        raise AssertionError("expected an error")
