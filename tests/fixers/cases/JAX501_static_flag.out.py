# fix: unsafe
import functools

import jax
import jax.numpy as jnp
from functools import partial


@partial(jax.jit, static_argnames=("training",))
def forward(x, training):
    if training:
        x = x * 0.5
    return jnp.tanh(x)


@partial(jax.jit, static_argnames=("mode", "flag"))
def extended(x, mode, flag):
    if flag:
        return x
    return -x


@functools.partial(jax.jit, static_argnums=(1, 2))
def with_argnums(x, n, flag):
    if flag:
        return x * n
    return x


def later(x, flag):
    if flag:
        return x
    return -x


later_jit = jax.jit(later, static_argnames=("flag",))
