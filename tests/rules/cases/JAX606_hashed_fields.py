# A `NamedTuple` (or a frozen dataclass, an equinox module) hashes every field it holds: built with a list, its
# hash raises, so as a static argument JAX raises `ValueError: Non-hashable static arguments
# are not supported` (measured with JAX 0.10.2).
import dataclasses
from functools import partial
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp


class PoolConfig(NamedTuple):
    window: int
    axes: list


@dataclasses.dataclass(frozen=True)
class Frozen:
    window: int
    axes: list


@dataclasses.dataclass(frozen=True)
class Tagged:
    window: int
    axes: list = dataclasses.field(hash=False, compare=False)


class Scaler(eqx.Module):
    mean: jax.Array
    std: float


@partial(jax.jit, static_argnames=("cfg",))
def avg_pool(x, cfg):
    return jnp.mean(x.reshape(-1, cfg.window), axis=1)


def pooled_list(x):
    return avg_pool(x, cfg=PoolConfig(window=2, axes=[0]))  # error: JAX606


def pooled_frozen(x):
    return avg_pool(x, cfg=Frozen(2, [0]))  # error: JAX606


def normalised(x):
    return avg_pool(x, cfg=Scaler(jnp.array([1.0, 2.0]), 0.5))  # error: JAX606


# near misses


def scaled(x):
    return avg_pool(x, cfg=Scaler(2, 0.5))  # Python values: hashable


def tupled(x):
    return avg_pool(x, cfg=PoolConfig(window=2, axes=(0,)))


def tagged(x):
    return avg_pool(x, cfg=Tagged(2, [0]))  # the list is left out of the hash (and `cfg` stays static)


def raises(thunk):
    try:
        thunk()
    except ValueError as error:
        return "Non-hashable" in str(error)
    return False


if __name__ == "__main__":
    x = jnp.arange(8.0)
    assert raises(lambda: pooled_list(x))
    assert raises(lambda: pooled_frozen(x))
    assert raises(lambda: normalised(x))
    try:
        scaled(x)
    except AttributeError:
        pass  # (a Scaler has no `window`: hashed fine, then read)
    tupled(x)
    tagged(x)
    print("ok")
