# An attribute every store of which is a JAX array (made by JAX in `__init__`, updated with
# `.at[]` elsewhere, in methods or on an object at module level) holds a JAX array on every
# object (measured with JAX 0.10.2: item assignment raises TypeError).
import jax.numpy as jnp
import numpy as np


class ReplayBuffer:
    def __init__(self, size):
        self.data = jnp.zeros((size, 2))
        self.ptr = 0

    def add(self, row):
        self.data = self.data.at[self.ptr].set(row)
        self.ptr += 1

    def overwrite(self, i, row):
        self.data[i] = row  # error: JAX201


class Scores:
    def __init__(self, n):
        self.values = jnp.zeros(n)

    def clear(self):
        self.values[:] = 0.0  # error: JAX201


scores = Scores(3)
scores.values = scores.values.at[0].set(1.0)


# near misses


class Resettable:
    def __init__(self, size):
        self.data = jnp.zeros(size)

    def release(self):
        self.data = None

    def overwrite(self, i, value):
        self.data[i] = value  # `self.data` may be None here: not claimed


class NumpyBuffer:
    def __init__(self, size):
        self.data = np.zeros(size)

    def overwrite(self, i, value):
        self.data[i] = value


if __name__ == "__main__":
    buffer = ReplayBuffer(4)
    buffer.add(jnp.ones(2))
    for call in (lambda: buffer.overwrite(0, jnp.ones(2)), scores.clear):
        try:
            call()
        except TypeError:
            pass
        else:
            raise AssertionError("expected TypeError")
    NumpyBuffer(2).overwrite(0, 1.0)
    print("ok")
