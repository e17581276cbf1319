import jax
import jax.numpy as jnp
from jax import numpy as jnp2


@jax.jit
def bump(counts, i):
    counts[i] += 1  # error: JAX202
    return counts


@jax.jit
def scale_first_column(m):
    m[:, 0] *= 2.0  # error: JAX202
    return m


def decrement_last(x):
    x[-1] -= 1  # error: JAX202
    return x


def power(n):
    y = jnp2.arange(n)
    y[0] **= 2  # error: JAX202
    y[1] //= 2  # error: JAX202
    return y


# --- near misses ---


@jax.jit
def affine(x, b):
    x += 1.0
    x *= 2.0
    b -= x.mean()
    return x, b


def counters(totals, key):
    totals[key] += 1
    totals.setdefault("n", 0)
    return totals


@jax.jit
def python_list(xs):
    acc = [0.0, 0.0]
    acc[0] += 1.0
    return xs, acc


OFFSETS = jnp.zeros(3)


@jax.jit
def shift_global(x):
    OFFSETS[0] += x  # error: JAX202 (fixed into a new local name: `OFFSETS = ...` would make the global local)
    return OFFSETS


@jax.jit
def bump_bias(params):
    params["b"][0] += 1.0  # error: JAX202 (unsafe fix: params["b"] = params["b"].at[0].add(1.0))
    return params
