# fix: unsafe
import functools

import jax
import jax.numpy as jnp
from functools import partial


@jax.jit
def forward(x, training):
    if training:
        x = x * 0.5
    return jnp.tanh(x)


@partial(jax.jit, static_argnames="mode")
def extended(x, mode, flag):
    if flag:
        return x
    return -x


@functools.partial(jax.jit, static_argnums=(1,))
def with_argnums(x, n, flag):
    if flag:
        return x * n
    return x


def later(x, flag):
    if flag:
        return x
    return -x


later_jit = jax.jit(later)


def activate(x, kind):
    return jax.nn.relu(x) if kind == "relu" else jnp.tanh(x)


@jax.jit
def normalise(x, mode):
    if mode in ("l1", "l2"):
        return x / jnp.linalg.norm(x)
    return x


def run(x):
    return jax.jit(activate)(x, "relu") + normalise(x, "l2")
