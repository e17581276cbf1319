# Standard-library objects that are not hashable, passed as static arguments: a
# `types.SimpleNamespace` or an `argparse.Namespace` (they define `__eq__`, so Python sets their
# `__hash__` to None), an `OrderedDict`, a `deque`, a dict's `keys()` or `items()` view (its
# `values()` view hashes, by identity). JAX raises `ValueError: Non-hashable static
# arguments are not supported` (measured with JAX 0.10.2).
import argparse
import collections
import types
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("cfg",))
def scaled(x, cfg):
    return x / cfg.temperature


@partial(jax.jit, static_argnums=1)
def padded(x, widths):
    return jnp.pad(x, widths[0])


config = types.SimpleNamespace(temperature=0.7)
options = argparse.Namespace(temperature=2.0)


def run(x):
    a = scaled(x, cfg=config)  # error: JAX606
    b = scaled(x, cfg=options)  # error: JAX606
    c = padded(x, collections.deque([1]))  # error: JAX606
    return a, b, c


@partial(jax.jit, static_argnames=("fields",))
def total(losses, fields):
    return sum(jnp.mean(losses[f]) for f in fields)


WEIGHTS = {"ce": 1.0, "aux": 0.3}


def weighted(losses):
    return total(losses, fields=WEIGHTS.keys())  # error: JAX606


# near misses


def weighted_by_tuple(losses):
    return total(losses, fields=tuple(WEIGHTS))


class Config:
    temperature = 0.5  # a plain class: hashed by identity


def run_hashable(x):
    frozen = collections.namedtuple("Frozen", "temperature")(0.5)
    return scaled(x, cfg=Config()), scaled(x, cfg=frozen), padded(x, (1,))


if __name__ == "__main__":
    x = jnp.ones(3)
    for bad in (config, options):
        try:
            scaled(x, cfg=bad)
            raise AssertionError("hashed")
        except ValueError as error:
            assert "Non-hashable static arguments" in str(error)
    try:
        padded(x, collections.deque([1]))  # error: JAX606
        raise AssertionError("hashed")
    except ValueError as error:
        assert "Non-hashable static arguments" in str(error)
    run_hashable(x)
    losses = {"ce": jnp.ones(4), "aux": jnp.zeros(4)}
    try:
        weighted(losses)
        raise AssertionError("hashed")
    except ValueError as error:
        assert "Non-hashable static arguments" in str(error)
    assert float(weighted_by_tuple(losses)) == 1.0
    print("ok")
