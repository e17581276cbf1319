from dataclasses import dataclass, field
from functools import partial

import jax
import jax.numpy as jnp


class LossConfig:
    def __init__(self, name, weight):
        self.name = name
        self.weight = weight

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        return self.name == other.name


@partial(jax.jit, static_argnames=("cfg",))
def weighted_l2(x, cfg):
    return cfg.weight * jnp.sum(x**2)  # error: JAX665


@dataclass(frozen=True)
class Schedule:
    kind: str
    scale: float = field(compare=False)


@partial(jax.jit, static_argnums=1)
def scheduled(x, schedule):
    if schedule.kind == "linear":
        return x * schedule.scale  # error: JAX665
    return x


class Layer:
    def __init__(self, width, gain):
        self.width = width
        self.gain = gain

    def __hash__(self):
        return hash((self.width, self.gain))

    def __eq__(self, other):
        return isinstance(other, Layer) and self.width == other.width

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return self.gain * x[: self.width]  # error: JAX665


# near misses

class FullConfig:
    def __init__(self, name, weight):
        self.name = name
        self.weight = weight

    def __hash__(self):
        return hash(self.name)  # a partial hash is fine: `==` decides

    def __eq__(self, other):
        return (self.name, self.weight) == (other.name, other.weight)


@partial(jax.jit, static_argnames=("cfg",))
def full_l2(x, cfg):
    return cfg.weight * jnp.sum(x**2)


class KeyedConfig:
    def __init__(self, name, weight):
        self.name = name
        self.weight = weight

    def _key(self):
        return (self.name, self.weight)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return self._key() == other._key()  # compares through a method: not followed


@partial(jax.jit, static_argnames=("cfg",))
def keyed_l2(x, cfg):
    return cfg.weight * jnp.sum(x**2)


class PropertyConfig:
    def __init__(self, name, weight):
        self.name = name
        self.weight = weight

    @property
    def key(self):
        return (self.name, self.weight)

    def __hash__(self):
        return hash(self.key)

    def __eq__(self, other):
        return self.key == other.key


@partial(jax.jit, static_argnames=("cfg",))
def property_l2(x, cfg):
    return cfg.weight * jnp.sum(x**2)


class ConstantTag:
    def __init__(self, name):
        self.name = name
        self.tag = "loss"  # the same on every instance

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        return self.name == other.name


@partial(jax.jit, static_argnames=("cfg",))
def tagged(x, cfg):
    return x if cfg.tag == "loss" else -x


@dataclass(frozen=True)
class Compared:
    kind: str
    scale: float = 1.0


@partial(jax.jit, static_argnums=1)
def compared(x, schedule):
    return x * schedule.scale


@partial(jax.jit, static_argnums=1)
def traced_config(x, n):
    return x * n


def not_static(x, cfg):
    return cfg.weight * x


if __name__ == "__main__":
    x = jnp.array([1.0, 2.0])
    assert float(weighted_l2(x, cfg=LossConfig("l2", 1.0))) == 5.0
    assert float(weighted_l2(x, cfg=LossConfig("l2", 3.0))) == 5.0  # stale: the hazard
    assert float(scheduled(1.0, Schedule("linear", 1.0))) == 1.0
    assert float(scheduled(1.0, Schedule("linear", 2.0))) == 1.0  # stale
    assert float(Layer(2, 1.0)(x).sum()) == 3.0
    assert float(Layer(2, 5.0)(x).sum()) == 3.0  # stale
    assert float(full_l2(x, cfg=FullConfig("l2", 1.0))) == 5.0
    assert float(full_l2(x, cfg=FullConfig("l2", 3.0))) == 15.0
    assert float(keyed_l2(x, cfg=KeyedConfig("l2", 1.0))) == 5.0
    assert float(keyed_l2(x, cfg=KeyedConfig("l2", 3.0))) == 15.0
    assert float(property_l2(x, cfg=PropertyConfig("l2", 1.0))) == 5.0
    assert float(property_l2(x, cfg=PropertyConfig("l2", 3.0))) == 15.0
    assert float(tagged(1.0, cfg=ConstantTag("a"))) == 1.0
    assert float(compared(1.0, Compared("a", 1.0))) == 1.0
    assert float(compared(1.0, Compared("a", 2.0))) == 2.0
    assert float(traced_config(1.0, 3)) == 3.0
    assert float(not_static(1.0, LossConfig("l2", 2.0))) == 2.0
    print("ok")
