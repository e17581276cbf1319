# fix: safe
import functools

import jax
import numpy as np
import jax.numpy as jnp


@jax.jit
def softplus(x):
    return jnp.log1p(jnp.exp(x))


@functools.partial(jax.jit, static_argnames=("axis",))
def normalized(x, axis):
    return x / jnp.linalg.norm(x, axis=axis, keepdims=True)


@jax.jit
def nested(x):
    def inner(v):
        return jnp.tanh(v) * 2.0

    return inner(x)


@jax.jit
def with_out(x, buffer):
    return np.exp(x, out=buffer)  # no fix


def helper(x):
    return np.maximum(x, 0.0)  # no fix


@jax.jit
def calls_helper(x):
    return helper(x) + 1.0
