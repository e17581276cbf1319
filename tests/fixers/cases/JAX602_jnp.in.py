# fix: safe
import functools

import jax
import numpy as np


@jax.jit
def softplus(x):
    return np.log1p(np.exp(x))


@functools.partial(jax.jit, static_argnames=("axis",))
def normalized(x, axis):
    return x / np.linalg.norm(x, axis=axis, keepdims=True)


@jax.jit
def nested(x):
    def inner(v):
        return np.tanh(v) * 2.0

    return inner(x)


@jax.jit
def with_out(x, buffer):
    return np.exp(x, out=buffer)  # no fix


def helper(x):
    return np.maximum(x, 0.0)  # no fix


@jax.jit
def calls_helper(x):
    return helper(x) + 1.0
