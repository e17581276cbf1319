# fix: unsafe
from functools import partial

import jax
import jax.numpy as jnp


def mse(pred, y):
    return jnp.mean((pred - y) ** 2)


@jax.jit
def step(w, x, y, loss_fn):
    return jax.grad(lambda w: loss_fn(x @ w, y))(w)


@partial(jax.jit, static_argnames=("axis",))
def reduce(x, axis, op):
    return op(x, axis=axis)


@jax.jit
def transform(x, f):
    return f(x)


def run(w, x, y):
    step(w, x, y, mse)
    reduce(x, 0, jnp.sum)
    transform(x, lambda v: v * 2)  # no fix: a new lambda each call would compile each call
