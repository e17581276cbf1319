"""Code that runs, but slowly or not as intended: recompilation, unrolling, NumPy on tracers,
timings of asynchronous work, and APIs JAX has removed."""

import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def softplus(x):
    return np.log1p(np.exp(x))  # TracerArrayConversionError: use jnp


@jax.jit
def softplus_fixed(x):
    return jnp.log1p(jnp.exp(x))


def total(a, b):
    return jnp.sum([a, b])  # TypeError: jax.numpy wants an array


def total_fixed(a, b):
    return jnp.sum(jnp.array([a, b]))


@jax.jit
def decay(x):
    for _ in range(1000):  # traced 1000 times: a huge program, a slow compile
        x = x * 0.999
    return x


@jax.jit
def decay_fixed(x):
    return jax.lax.fori_loop(0, 1000, lambda _, v: v * 0.999, x)


def train(w, batches):
    for x in batches:
        step = jax.jit(lambda p: p - 0.01 * jnp.sum(p * x))  # compiled again every iteration
        w = step(w)
    return w


def benchmark(x):
    start = time.perf_counter()
    y = softplus_fixed(x)
    return time.perf_counter() - start, y  # measures dispatch, not compute


def benchmark_fixed(x):
    start = time.perf_counter()
    y = softplus_fixed(x).block_until_ready()
    return time.perf_counter() - start, y


def halve(params):
    return jax.tree_map(lambda p: p / 2, params)  # removed in JAX 0.6.0


def halve_fixed(params):
    return jax.tree.map(lambda p: p / 2, params)
