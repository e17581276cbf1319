# Assigning an attribute of an equinox module, a flax struct or a frozen dataclass raises
# `dataclasses.FrozenInstanceError` wherever it runs: eagerly, in a helper, under `jax.jit`,
# whether or not the object is returned afterwards (measured with JAX 0.10.2, equinox 0.13.8,
# flax 0.12.8). A plain dataclass may be assigned.
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp
from flax import struct


class Ema(eqx.Module):
    value: jax.Array

    def update(self, x):
        self.value = 0.9 * self.value + 0.1 * x  # error: JAX104
        return self.value


@struct.dataclass
class TrainState:
    step: int
    params: jax.Array


@dataclasses.dataclass(frozen=True)
class Schedule:
    lr: float


@dataclasses.dataclass
class Config:
    lr: float


@jax.jit
def train_step(state, grads):
    state.params = state.params - 0.1 * grads  # error: JAX104 (returned, but it raises first)
    return state


def bump(state: TrainState):
    state.step = state.step + 1  # error: JAX104 (an eager helper, its parameter annotated)
    return state


def update_eagerly():
    return Ema(jnp.zeros(3)).update(jnp.ones(3))


def assign_module():
    ema = Ema(jnp.zeros(3))
    ema.value = jnp.ones(3)  # error: JAX104
    return ema


def decay():
    schedule = Schedule(0.1)
    schedule.lr *= 0.5  # error: JAX104
    return schedule


# near misses


def configure():
    config = Config(0.1)
    config.lr = 0.2  # a plain dataclass
    return config


def replaced(state: TrainState):
    return state.replace(step=state.step + 1)


def reassigned(state: TrainState, config: Config):
    config.lr = 0.3  # annotated with a plain dataclass
    state = TrainState(step=1, params=state.params)
    return state, config


if __name__ == "__main__":
    state = TrainState(step=0, params=jnp.ones(2))
    assert configure().lr == 0.2 and replaced(state).step == 1
    for failing in (
        update_eagerly,
        lambda: train_step(state, jnp.ones(2)),
        lambda: bump(state),
        assign_module,
        decay,
    ):
        try:
            failing()
        except dataclasses.FrozenInstanceError:
            print("FrozenInstanceError")
        else:
            raise AssertionError("expected FrozenInstanceError")
