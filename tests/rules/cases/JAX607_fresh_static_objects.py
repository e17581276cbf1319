# A static argument built anew on every iteration from a class whose objects hash by identity
# (a plain class, a `@dataclass(eq=False)`) is a new static value each time, so the jitted
# function is compiled again on every iteration (measured with JAX 0.10.2: 4 traces in 4
# steps). An object made once, or a frozen dataclass with value equality, compiles once.
import dataclasses
import functools

import jax
import jax.numpy as jnp

traces = []


@dataclasses.dataclass(frozen=True, eq=False)
class Cfg:
    scale: float


class Plain:
    def __init__(self, scale):
        self.scale = scale


@dataclasses.dataclass(frozen=True)
class Frozen:
    scale: float


@functools.partial(jax.jit, static_argnames=("cfg",))
def step(x, cfg):
    traces.append(1)
    return x * cfg.scale


def rebuilt(x):
    for _ in range(4):
        x = step(x, cfg=Cfg(scale=2.0))  # error: JAX607
    return len(traces)


def rebuilt_plain(x):
    for _ in range(4):
        x = step(x, cfg=Plain(2.0))  # error: JAX607
    return len(traces)


# near misses


def made_once(x):
    cfg = Cfg(scale=2.0)
    for _ in range(4):
        x = step(x, cfg=cfg)
    return len(traces)


def by_value(x):
    for _ in range(4):
        x = step(x, cfg=Frozen(2.0))
    return len(traces)


if __name__ == "__main__":
    print(rebuilt(jnp.ones(3)))
    traces.clear()
    print(rebuilt_plain(jnp.ones(3)))
    traces.clear()
    print(made_once(jnp.ones(3)))
    traces.clear()
    print(by_value(jnp.ones(3)))
