"""In-place updates of traced values: a traced leaf is a tracer, a JAX array, even in a module
that also uses NumPy; a traced container (a list carry, a dict of parameters) is not."""

import dataclasses
from typing import NamedTuple

import jax
import numpy as np
from jax import lax


class Pair(NamedTuple):
    first: jax.Array
    second: jax.Array


@jax.jit
def decorated(x, pair, params):
    x[0] = 0.0  # error: JAX201
    pair[1][1:3] = 0.0  # error: JAX201
    params["w"] = 1.0  # error: JAX104 (a string key: a dict, changed only in jit's copy)
    return x


def helper(x):
    x[0] *= 2.0  # error: JAX202
    return x


@jax.jit
def calls_helper(x):
    return helper(x)


@jax.jit
def fields(p: Pair):
    p.first[0] = 1.0  # error: JAX201
    return p


def list_body(i, carry):
    carry[0] += 1.0  # the carry is a list: fine
    return carry


def tuple_body(i, carry):
    values, total = carry
    values[0] = total  # `values` is a list: fine
    total[0] = 1.0  # error: JAX201
    return carry


def loops(n, x):
    start = [1.0, 2.0]
    lax.fori_loop(0, n, list_body, start)
    return lax.fori_loop(0, n, tuple_body, ([1.0], x))


@jax.jit
def as_container(table):
    for key in table.keys():
        table[key] = 0.0
    return table


def eager(x):
    x[0] = 0.0  # eager, and NumPy arrays are mutable: fine
    return np.asarray(x)
