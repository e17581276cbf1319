# fix: unsafe
import jax
import jax.numpy as jnp


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
