from typing import NamedTuple

import jax
import jax.numpy as jnp


def reset_first(x):
    x.at[0].set(0.0)  # error: JAX203
    return x


class Buffer:
    def __init__(self):
        self.data = jnp.zeros(3)

    def bump(self, i):
        self.data.at[i].add(1.0)  # error: JAX203


# --- near misses ---


def assigned(x):
    x = x.at[0].set(0.0)
    y = x.at[1].get()
    return x, y


def returned(x):
    return x.at[0].multiply(2.0)


def pandas_like(frame):
    frame.at[0, "a"] = 1
    return frame


TABLE = jnp.zeros(4)


def reads_global_table(x):
    TABLE.at[0].set(1.0)  # error: JAX203 (fixed into a new local name: `TABLE = ...` would make TABLE local here)
    return x + TABLE


class Pair(NamedTuple):
    value: jax.Array
    other: jax.Array


def updates_a_field(pair: Pair):
    pair.value.at[0].set(1.0)  # error: JAX203 (fixed into a new local name: a NamedTuple's fields cannot be set)
    return pair.value


@jax.jit
def bump(state):
    state.count.at[0].add(1)  # error: JAX203 (no fix: a field of a traced pytree, maybe a NamedTuple)
    return state


@jax.jit
def inplace_func_jax(a):
    for i in range(a.size):
        a = a.at[i].set(2 * (2 * (a[i] + 1) + 1))  # error: JAX203 (jax#7116: the update is lost)


def zero_first(a):
    a = a.at[0].set(0.0)  # error: JAX203 (eagerly too: nothing returns it)


def zero_and_return(a):
    a = a.at[0].set(0.0)  # ok: returned
    return a


def zero_and_use(a, log):
    a = a.at[0].set(0.0)  # ok: read after the update
    log.append(a)


def zero_local(n):
    b = jnp.ones(n)
    b = b.at[0].set(0.0)  # ok: not a parameter (a dead local is a plain lint's business)


if __name__ == "__main__":
    import collections
    import types

    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.ones(4)
    assert named["reset_first"](x).tolist() == [1.0] * 4  # the update was discarded
    buffer = Buffer()
    buffer.bump(0)
    assert buffer.data.tolist() == [0.0, 0.0, 0.0]
    assert named["reads_global_table"](x).tolist() == [1.0] * 4 and float(TABLE[0]) == 0.0
    assert named["updates_a_field"](Pair(jnp.zeros(2), jnp.zeros(2))).tolist() == [0.0, 0.0]
    State = collections.namedtuple("State", "count")
    assert named["bump"](State(jnp.zeros(1, dtype=jnp.int32))).count.tolist() == [0]
    assert named["inplace_func_jax"](jnp.ones(2)) is None  # the loop's updates are lost
    assert named["zero_first"](jnp.ones(2)) is None
    new, y = named["assigned"](jnp.ones(2))
    assert new.tolist() == [0.0, 1.0] and float(y) == 1.0
    assert named["returned"](jnp.ones(2)).tolist() == [2.0, 1.0]
    frame = named["pandas_like"](types.SimpleNamespace(at={}))
    assert frame.at == {(0, "a"): 1}
    assert named["zero_and_return"](jnp.ones(2)).tolist() == [0.0, 1.0]
    log = []
    named["zero_and_use"](jnp.ones(2), log)
    assert log[0].tolist() == [0.0, 1.0]
    named["zero_local"](2)
    print("ok")
