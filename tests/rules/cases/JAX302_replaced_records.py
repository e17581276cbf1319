import dataclasses
from typing import NamedTuple

import jax
from flax import struct
from jax import lax


@struct.dataclass
class S:
    x: jax.Array
    rng: jax.Array
    lr: float = struct.field(pytree_node=False, default=0.1)


class T(NamedTuple):
    x: jax.Array
    rng: jax.Array


def unsplit(i, s):
    x = s.x - s.lr * jax.random.normal(s.rng, ())  # error: JAX302
    return s.replace(x=x)


def split_back(i, s):
    rng, sub = jax.random.split(s.rng)
    x = s.x - s.lr * jax.random.normal(sub, ())  # ok: the new key goes back
    return s.replace(x=x, rng=rng)


def tuple_unsplit(i, t):
    return t._replace(x=t.x + jax.random.normal(t.rng, ()))  # error: JAX302


def tuple_split_back(i, t):
    rng, sub = jax.random.split(t.rng)
    return t._replace(x=t.x + jax.random.normal(sub, ()), rng=rng)  # ok: the new key goes back


def replace_function(i, s):
    x = s.x + jax.random.normal(s.rng, ())  # error: JAX302
    return dataclasses.replace(s, x=x)


def dict_split_back(i, d):
    rng, sub = jax.random.split(d["rng"])
    return {**d, "x": d["x"] + jax.random.normal(sub, ()), "rng": rng}  # ok: the new key goes back


def dict_other_key_back(i, d):
    rng, sub = jax.random.split(d["noise"])  # error: JAX302 (the new key replaces "rng", not "noise")
    return {**d, "x": d["x"] + jax.random.normal(sub, ()), "rng": rng}


@jax.jit
def run_dicts(d):
    return lax.fori_loop(0, 3, dict_split_back, d), lax.fori_loop(0, 3, dict_other_key_back, d)  # error: JAX301


@jax.jit
def run(s, t):
    a = lax.fori_loop(0, 3, unsplit, s)
    b = lax.fori_loop(0, 3, split_back, s)  # error: JAX301
    c = lax.fori_loop(0, 3, tuple_unsplit, t)
    d = lax.fori_loop(0, 3, tuple_split_back, t)  # error: JAX301
    return a, b, c, d, lax.fori_loop(0, 3, replace_function, s)  # error: JAX301
