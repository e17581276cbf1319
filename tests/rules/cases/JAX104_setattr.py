# `setattr(obj, "name", v)` and `object.__setattr__(obj, "name", v)` store an attribute as
# `obj.name = v` does; `object.__setattr__` gets past a frozen class's guard, but in a compiled
# method it still runs only at trace time, on the object the trace was given (measured with JAX
# 0.10.2 and equinox 0.13.8: four calls leave the counter at 0).
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp


class Counter(eqx.Module):
    w: jax.Array
    calls: int = 0

    def __call__(self, x):
        object.__setattr__(self, "calls", self.calls + 1)  # error: JAX104
        return self.w * x


@eqx.filter_jit
def run(model, x):
    return model(x)


class Stats:
    def __init__(self):
        self.steps = 0


STATS = Stats()


@jax.jit
def step(x):
    setattr(STATS, "steps", STATS.steps + 1)  # error: JAX104
    return x * 2


@dataclass(frozen=True)
class Frozen:
    scale: float

    def bump(self):
        setattr(self, "scale", self.scale * 2)  # error: JAX104 (FrozenInstanceError, anywhere)


# near misses


@dataclass(frozen=True)
class Built:
    scale: float

    def __post_init__(self):
        object.__setattr__(self, "scale", float(self.scale))


@jax.jit
def make(x):
    return x * Built(2).scale


def eager_count():
    setattr(STATS, "steps", STATS.steps + 1)


class Tally(eqx.Module):
    count: int = 0

    def bump(self):
        object.__setattr__(self, "count", self.count + 1)  # eager: it counts each call


@jax.jit
def local_object(x):
    box = Stats()
    setattr(box, "steps", 1)
    return x + box.steps


if __name__ == "__main__":
    model = Counter(jnp.ones(2))
    for t in range(4):
        run(model, jnp.full(2, float(t)))
    assert model.calls == 0
    for _ in range(3):
        step(1.0)
    assert STATS.steps == 1
    try:
        Frozen(1.0).bump()
    except Exception as error:
        assert type(error).__name__ == "FrozenInstanceError"
    else:
        raise AssertionError("expected FrozenInstanceError")
    assert float(make(1.0)) == 2.0
    eager_count()
    assert STATS.steps == 2
    assert float(local_object(1.0)) == 2.0
    tally = Tally()
    tally.bump()
    tally.bump()
    assert tally.count == 2
    print("ok")
