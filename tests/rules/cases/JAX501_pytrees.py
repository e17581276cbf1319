"""Fields of pytrees: a NamedTuple, a registered dataclass, a flax struct or an equinox module
traced by a transformation holds tracers in its data fields, Python values in its static ones."""

import dataclasses
from functools import partial
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import struct
from jax import lax


class State(NamedTuple):
    value: jax.Array
    steps: int


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Batch:
    inputs: jax.Array
    size: int = dataclasses.field(metadata=dict(static=True))


@struct.dataclass
class Train:
    step: int
    apply_fn: object = struct.field(pytree_node=False)


class Net(eqx.Module):
    weight: jax.Array
    depth: int
    activation: object = eqx.field(static=True)


@dataclasses.dataclass
class Config:  # not a pytree: never traced
    ratio: float


@jax.jit
def decorated(state, batch, train):
    if state.value > 0:  # error: JAX501
        pass
    if batch.inputs.sum() > 0:  # error: JAX501
        pass
    if train.step > 100:  # error: JAX501
        pass
    if batch.size > 2:  # a static field: fine
        pass
    if train.apply_fn is None:
        pass
    return state


def applied(state):
    if state.steps > 0:  # error: JAX501
        pass
    return state


applied_jit = jax.jit(applied)


def helper(state):
    if state.value > 0:  # error: JAX501
        return state.value
    return -state.value


@jax.jit
def calls_helper(state):
    return helper(state)


@jax.jit
def annotated(s: State, cfg):
    first, second = s
    if second > 1:  # error: JAX501
        pass
    return first


@jax.jit
def constructed(x):
    state = State(x, 0)
    if state.value > 0:  # error: JAX501
        pass
    if state.steps > 0:  # a Python int stored in the record: fine
        pass
    updated = state._replace(value=1.0)
    if updated.value > 0:  # replaced by a Python float: fine
        pass
    moved = dataclasses.replace(Batch(x, 3), size=4)
    if moved.size > 2:  # fine
        pass
    return state


def body(i, carry):
    state, total = carry
    if state.value > total:  # error: JAX501
        pass
    return carry


def loop(x):
    return lax.fori_loop(0, 3, body, (State(x, 1), 0.0))


@jax.vmap
def batched(batch):
    if batch.inputs > 0:  # error: JAX501
        pass
    return batch


@partial(jax.jit, static_argnames="cfg")
def with_static(batch, cfg):
    if cfg.ratio > 0.5:  # static: fine
        pass
    return batch


@eqx.filter_jit
def filtered(net: Net, x):
    if net.depth > 2:  # filter_jit leaves Python ints static: fine
        pass
    if net.activation is None:
        pass
    if net.weight.sum() > 0:  # error: JAX501
        pass
    return x


def eager(state):
    if state.value > 0:  # not traced: fine
        pass
    return state


@jax.jit
def lists(xs):
    if xs.count(1) > 0:  # a list method, not the field `count`
        pass
    return xs


class HParams(NamedTuple):
    n_steps: int
    lr: float


@partial(jax.jit, static_argnums=(1,))
def fit(w, hp):
    if hp.n_steps > 1:  # a NamedTuple passed for a static parameter keeps its Python fields
        w = w * 2
    for _ in range(hp.n_steps):
        w = w - hp.lr * w
    return w


fitted = fit(jnp.ones(2), HParams(2, 0.25))


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    hidden_jit = fns["jax"].jit
    x = jnp.float32(1.0)
    state, batch, train = State(x, 1), Batch(jnp.ones(3), 3), Train(1, None)

    def condition(line):
        """The condition of the `if` at `line` of this file, run under jit with the arguments above."""
        test = open(__file__).read().splitlines()[line - 1].strip()[len("if "):].split(":  #")[0]

        def run(state, batch, train):
            return bool(eval(test, {"state": state, "batch": batch, "train": train}))

        return lambda: hidden_jit(run)(state, batch, train)

    hazards = [condition(46), condition(48), condition(50)]  # `decorated` stops at its first `if`
    hazards += [
        lambda: fns["decorated"](state, batch, train),
        lambda: fns["applied_jit"](state),
        lambda: fns["calls_helper"](state),
        lambda: fns["annotated"](State(x, 2), None),
        lambda: fns["constructed"](x),
        lambda: fns["loop"](x),
        lambda: fns["batched"](Batch(jnp.ones(3), 3)),
        lambda: fns["filtered"](Net(jnp.ones(2), 3, None), x),
    ]
    for hazard in hazards:
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    # near misses: the static fields of `decorated`, under jit
    static_test = open(__file__).read().splitlines()[51].strip()
    assert static_test.startswith("if batch.size > 2:")
    assert hidden_jit(lambda batch: batch.inputs * (batch.size > 2))(batch).tolist() == [1.0] * 3

    @dataclasses.dataclass(frozen=True)
    class HashableConfig:  # `Config` itself has no hash: as a static argument it raises ValueError
        ratio: float

    assert fns["with_static"](batch, HashableConfig(0.6)).size == 3
    assert fns["eager"](state) is state
    assert fns["lists"]([]) == []
    assert fitted.tolist() == [1.125, 1.125]
    print("ok")
