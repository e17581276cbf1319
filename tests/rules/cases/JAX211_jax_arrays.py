# `jax.numpy` writes into nothing: `out=` other than None raises (measured with JAX 0.10.2:
# NotImplementedError, or TypeError where the function has no `out`). NumPy's in-place methods
# that JAX arrays lack (`fill`, `resize`, `put`: measured by tools/measure_jax_api.py) raise
# AttributeError, eagerly and traced.
import random

import jax
import jax.numpy as jnp
import numpy as np


def accumulate(acc, grads):
    for k in acc:
        jnp.add(acc[k], grads[k], out=acc[k])  # error: JAX211
    return acc


class ReplayBuffer:
    def __init__(self, size):
        self.data = jnp.zeros((size, 2))

    def reset(self):
        self.data.fill(0.0)  # error: JAX211


class Loader:
    def __init__(self, n):
        self.order = jnp.arange(n)

    def reshuffle(self):
        random.shuffle(self.order)  # error: JAX211 (Python's shuffle swaps items in place)


@jax.jit
def cleared(x):
    x.fill(0.0)  # error: JAX211
    return x


# near misses


def numpy_accumulate(acc, grads):
    np.add(acc, grads, out=acc)
    return acc


def explicit_none(a, b):
    return jnp.add(a, b, out=None)


class NumpyBuffer:
    def __init__(self, size):
        self.data = np.zeros((size, 2))

    def reset(self):
        self.data.fill(0.0)


def shuffled(n):
    order = list(range(n))
    random.shuffle(order)
    return order


def jax_reset(x):
    return jnp.zeros_like(x)


if __name__ == "__main__":
    for call, error in (
        (lambda: accumulate({"w": jnp.zeros(3)}, {"w": jnp.ones(3)}), NotImplementedError),
        (lambda: ReplayBuffer(4).reset(), AttributeError),
        (lambda: cleared(jnp.ones(2)), AttributeError),
        (lambda: Loader(4).reshuffle(), TypeError),
    ):
        try:
            call()
        except error:
            pass
        else:
            raise AssertionError(f"expected {error.__name__}")
    assert numpy_accumulate(np.zeros(2), np.ones(2)).tolist() == [1.0, 1.0]
    assert explicit_none(jnp.ones(1), jnp.ones(1)).tolist() == [2.0]
    NumpyBuffer(2).reset()
    assert jax_reset(jnp.ones(2)).tolist() == [0.0, 0.0]
    assert sorted(shuffled(3)) == [0, 1, 2]
    print("ok")
