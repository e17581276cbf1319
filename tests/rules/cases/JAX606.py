from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("sizes",))
def split_sum(x, sizes):
    return [jnp.sum(part) for part in jnp.split(x, sizes)]


def mlp(x, layers, activation):
    for width in layers:
        x = activation(x[:width])
    return x


mlp_jit = jax.jit(mlp, static_argnums=(1, 2))
CONFIG = {"depth": 2}


class Net:
    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, options):
        return x * len(options)


def run(x, net):
    a = split_sum(x, sizes=[2, 5])  # error: JAX606
    b = split_sum(x, [2, 5])  # error: JAX606
    c = mlp_jit(x, [4, 2], jnp.tanh)  # error: JAX606
    d = mlp_jit(x, (4, [2]), jnp.tanh)  # error: JAX606
    e = split_sum(x, jnp.array([2, 5]))  # error: JAX606
    f = split_sum(x, np.array([2, 5]))  # error: JAX606
    g = jax.jit(mlp, static_argnames="layers")(x, layers={4, 2}, activation=jnp.tanh)  # error: JAX606
    h = net.apply(x, CONFIG)
    return a, b, c, d, e, f, g, h


class Runner:
    @partial(jax.jit, static_argnums=(0, 2))
    def apply(self, x, options):
        return x * len(options)

    def go(self, x):
        return self.apply(x, {"a": 1})  # error: JAX606


# --- near misses ---


def hashable(x):
    return split_sum(x, (2, 5)), split_sum(x, sizes=(2, 5)), mlp_jit(x, (4, 2), jnp.tanh)


def traced_positions(x):
    return mlp_jit([x, x], (4,), jnp.tanh)  # pytrees are fine where arguments are traced


def plain_call(x):
    return mlp(x, [4, 2], jnp.tanh)  # not through jit


def unknown_static(x, sizes, **kwargs):
    return split_sum(x, sizes), split_sum(x, *kwargs.values())
