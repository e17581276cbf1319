# fix: unsafe
import jax
import jax.numpy as jnp
import equinox as eqx
from flax import struct


class Model:
    def __init__(self):
        self.value = jnp.linspace(-1.0, 1.0, 4)

    def apply(self, x):
        self.value.at[0].set(0.0)
        return x * 2.0 + self.value


model = Model()
step = jax.jit(model.apply)


class Stats:
    def __init__(self):
        self.totals = jnp.zeros(4)


STATS = Stats()


@jax.jit
def record(x):
    STATS.totals.at[0].add(x[0])
    return x + STATS.totals


class Local:
    def __init__(self, x):
        self.data = x

    def bumped(self):
        self.data.at[0].add(1.0)  # assigned back: the object is made inside the trace
        return self.data


@jax.jit
def made_inside(x):
    return Local(x).bumped()


class Accumulator:
    def __init__(self):
        self.buf = jnp.ones(3)

    def reset(self):
        self.buf.at[:].set(0.0)
        return self.buf


ACCUMULATOR = Accumulator()


@jax.jit
def reset_step(x):
    return ACCUMULATOR.reset() + x


class Scaler:
    def __init__(self):
        self.w = jnp.ones(4)

    def __call__(self, x):
        self.w.at[0].multiply(3.0)
        return x * self.w


SCALER = Scaler()


@jax.jit
def scaled(x):
    return SCALER(x)


class Table(eqx.Module):
    table: jax.Array

    def bump(self, x):
        self.table.at[0].add(1.0)
        return x + self.table


@eqx.filter_jit
def bumped(model, x):
    return model.bump(x)


@struct.dataclass
class Buffer:
    buf: jax.Array

    def clear(self):
        self.buf.at[0].set(0.0)
        return self.buf.sum()
