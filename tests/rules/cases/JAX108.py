"""Traced values formatted into strings that the code uses as data."""

import logging
import re
import warnings

import jax
import jax.numpy as jnp
from jax import lax

SITES = {}


def record(name, value):
    return value


def body(carry, x):
    i, total = carry
    total = record("x_{}".format(i), total + x)  # error: JAX108
    total = record(f"y_{i}", total)  # error: JAX108
    total = record("z_%s" % i, total)  # error: JAX108
    total = record(str(total), total)  # error: JAX108
    cache = {f"step_{i}": total}  # error: JAX108
    return (i + 1, total), cache[next(iter(cache))]


# --- near misses ---


def numeric_conversion(carry, x):
    i, total = carry
    return (i + 1, record("w_%d" % i, total + x)), total  # error: JAX108 (%d raises TypeError on a tracer)


def scan_numeric(xs):
    return lax.scan(numeric_conversion, (0, 0.0), xs)


def scan_all(xs):
    return lax.scan(body, (0, 0.0), xs)


@jax.jit
def messages(x, n):
    # a message, not data: print is JAX101, logging JAX102; an exception or warning text
    logging.getLogger(__name__).info(f"x is {x}")
    warnings.warn(f"x is {x}")
    if x.shape[0] > 4:
        raise ValueError(f"too long: {x}")
    label = f"shape_{x.shape}"  # static: a shape
    record(label, x)
    record(f"rows_{x.shape[0]}", x)  # static
    return record(f"n={jnp.ndim(x)}", x)  # static: ndim of a tracer is an int


def eager(i, total):
    return record(f"x_{i}", total)  # not traced: the value is formatted


def under_grad(x):
    return record(f"x_{x}", x) * 2.0  # a bare grad formats the primal value


slope = jax.grad(under_grad)


@jax.jit
def decayed(params):
    # a key path is static: its string names the leaf
    return jax.tree_util.tree_map_with_path(lambda path, p: p * (0.0 if re.search("bias", str(path)) else 0.9), params)


@jax.jit
def debug_printed(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print(f"loss = {loss}")  # error: JAX108
    jax.debug.print(f"loss = {loss:.3f}")  # error: JAX108
    jax.debug.print("loss = {}".format(loss))  # error: JAX108
    jax.debug.print("loss = {}", loss)
    jax.debug.print(f"shape = {x.shape}, {x.dtype}")
    return loss


checkpoints = {}


def save(tag, params):
    checkpoints[tag] = params  # error: JAX104 (stores a tracer while tracing)


@jax.jit
def concatenated(step, w):
    save("ckpt-" + str(step), w)  # error: JAX108
    print("step " + str(step))  # a message (JAX101 speaks of it)
    return step + 1, w


@jax.jit
def debug_printed_more(s):
    jax.debug.print("sum {:.1f}".format(s))  # error: JAX108
    jax.debug.print(fmt=f"sum {s}")  # error: JAX108
    jax.debug.print("sum {:.1f}", s)
    return s
