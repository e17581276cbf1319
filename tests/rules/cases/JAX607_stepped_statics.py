# A static argument that the loop changes by a constant step on every iteration (a decaying
# learning rate, an annealed temperature) has a new value each time, so the jitted function is
# traced and compiled again on every iteration (measured with JAX 0.10.2: one trace per step).
# Passed traced, changed only sometimes, or in a short literal loop, it is left alone.
from functools import partial

import jax
import jax.numpy as jnp

traces = []


@partial(jax.jit, static_argnames=("lr",))
def sgd(w, g, lr):
    traces.append(lr)
    return w - lr * g


@jax.jit
def sgd_traced(w, g, lr):
    return w - lr * g


def train(w, num_steps):
    lr = 0.1
    for _ in range(num_steps):
        w = sgd(w, jnp.ones(2), lr=lr)  # error: JAX607
        lr = lr * 0.9
    return w


def anneal(w, num_steps):
    lr = 1.0
    step = 0
    while step < num_steps:
        w = sgd(w, jnp.ones(2), lr=lr)  # error: JAX607
        lr -= 0.01
        step += 1
    return w


# near misses


def train_traced(w, num_steps):
    lr = 0.1
    for _ in range(num_steps):
        w = sgd_traced(w, jnp.ones(2), lr)
        lr = lr * 0.9
    return w


def decay_sometimes(w, num_steps):
    lr = 0.1
    for step in range(num_steps):
        w = sgd(w, jnp.ones(2), lr=lr)
        if step % 100 == 99:
            lr = lr * 0.5  # a handful of values: a handful of compilations
    return w


def short(w):
    lr = 0.1
    for _ in range(3):
        w = sgd(w, jnp.ones(2), lr=lr)
        lr = lr * 0.5
    return w


if __name__ == "__main__":
    w = jnp.ones(2)
    print(train(w, 20), len(traces))
    traces.clear()
    print(anneal(w, 20), len(traces))
    traces.clear()
    print(train_traced(w, 20))
    print(decay_sometimes(w, 200), len(traces))
    traces.clear()
    print(short(w), len(traces))
