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


if __name__ == "__main__":
    import inspect

    import jax.numpy as jnp

    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    pair = Pair(jnp.zeros(4), jnp.ones(4))
    for hazard in (
        lambda: named["decorated"](jnp.ones(3), pair, {"w": jnp.ones(2)}),
        lambda: named["calls_helper"](jnp.ones(3)),
        lambda: named["fields"](pair),
        lambda: named["loops"](2, jnp.zeros(2)),
    ):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    # `decorated` stops at its first line: run each of its marked lines on its own, under jit
    lines = [line.strip() for line in inspect.getsource(decorated).splitlines() if "# error:" in line]

    def traced_line(statement):
        def body(x, pair, params):
            exec(statement, {}, {"x": x, "pair": pair, "params": params})
            return params

        return body

    assert lines[1].startswith("pair[1][1:3]")
    try:
        named["jax"].jit(traced_line(lines[1]))(jnp.ones(3), pair, {"w": jnp.ones(2)})
    except TypeError:
        pass
    else:
        raise AssertionError(f"{lines[1]!r} did not raise TypeError")
    params = {"w": jnp.ones(2)}
    returned = named["jax"].jit(traced_line(lines[2]))(jnp.ones(3), pair, params)
    assert float(returned["w"]) == 1.0  # jit's copy changed
    assert params["w"].tolist() == [1.0, 1.0]  # the caller's dict did not
    assert float(named["as_container"]({"a": jnp.ones(2)})["a"]) == 0.0
    carry = lax.fori_loop(0, 2, named["list_body"], [1.0, 2.0])
    assert float(carry[0]) == 3.0
    assert named["eager"](np.ones(2)).tolist() == [0.0, 1.0]
    print("ok")
