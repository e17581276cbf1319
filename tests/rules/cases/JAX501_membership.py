# `mode in (0, 1)` compares `mode` with each item (`==`) and asks the truth of each result: on
# a traced `mode` that raises (measured with JAX 0.10.2). A static operand is fine.
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def loss(pred, target, mode):
    if mode in (0, 1):  # error: JAX501
        return jnp.mean((pred - target) ** 2)
    return jnp.mean(jnp.abs(pred - target))


@partial(jax.jit, static_argnames=("mode",))
def static_loss(pred, target, mode):
    if mode in (0, 1):  # static: a Python int
        return jnp.mean((pred - target) ** 2)
    return jnp.mean(jnp.abs(pred - target))


@jax.jit
def flatten(x):
    if x.ndim in (1, 2):  # static: the rank
        return x.reshape(-1)
    return x


if __name__ == "__main__":
    print(static_loss(jnp.ones(2), jnp.zeros(2), 0), flatten(jnp.ones((2, 2))))
    try:
        loss(jnp.ones(2), jnp.zeros(2), 0)
    except jax.errors.TracerBoolConversionError:
        print("loss raised")
