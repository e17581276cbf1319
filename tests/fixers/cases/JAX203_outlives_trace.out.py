# fix: unsafe
import jax
import jax.numpy as jnp
import equinox as eqx
from flax import struct


class Model:
    def __init__(self):
        self.value = jnp.linspace(-1.0, 1.0, 4)

    def apply(self, x):
        value = self.value.at[0].set(0.0)
        return x * 2.0 + value


model = Model()
step = jax.jit(model.apply)


class Stats:
    def __init__(self):
        self.totals = jnp.zeros(4)


STATS = Stats()


@jax.jit
def record(x):
    totals = STATS.totals.at[0].add(x[0])
    return x + totals


class Local:
    def __init__(self, x):
        self.data = x

    def bumped(self):
        self.data = self.data.at[0].add(1.0)  # assigned back: the object is made inside the trace
        return self.data


@jax.jit
def made_inside(x):
    return Local(x).bumped()


class Accumulator:
    def __init__(self):
        self.buf = jnp.ones(3)

    def reset(self):
        buf = self.buf.at[:].set(0.0)
        return buf


ACCUMULATOR = Accumulator()


@jax.jit
def reset_step(x):
    return ACCUMULATOR.reset() + x


class Scaler:
    def __init__(self):
        self.w = jnp.ones(4)

    def __call__(self, x):
        w = self.w.at[0].multiply(3.0)
        return x * w


SCALER = Scaler()


@jax.jit
def scaled(x):
    return SCALER(x)


class Table(eqx.Module):
    table: jax.Array

    def bump(self, x):
        table = self.table.at[0].add(1.0)
        return x + table


@eqx.filter_jit
def bumped(model, x):
    return model.bump(x)


@struct.dataclass
class Buffer:
    buf: jax.Array

    def clear(self):
        buf = self.buf.at[0].set(0.0)
        return buf.sum()
