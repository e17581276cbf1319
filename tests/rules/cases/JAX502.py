import functools

import jax
import jax.numpy as jnp


@jax.jit
def power_iterate(m, v, num_iters):
    for _ in range(num_iters):  # error: JAX502
        v = m @ v
        v = v / jnp.linalg.norm(v)
    return v


@jax.jit
def from_data(x):
    for i in range(0, x.argmax()):  # error: JAX502
        x = x + i
    return x


# --- near misses ---


@jax.jit
def sum_each_axis(x):
    totals = []
    for axis in range(x.ndim):
        totals.append(x.sum(axis=axis).sum())
    return jnp.stack(totals)


@functools.partial(jax.jit, static_argnames=("num_iters",))
def power_static(m, v, num_iters):
    for _ in range(num_iters):
        v = m @ v
    return v


@jax.jit
def over_rows(x):
    total = 0.0
    for i in range(len(x)):
        total = total + x[i]
    return total
