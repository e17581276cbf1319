# A NumPy random generator's `shuffle` writes into its argument: given a JAX array it raises
# `TypeError` (measured with JAX 0.10.2, NumPy 2). Shuffling a NumPy array, or drawing a
# permutation and indexing with it, is fine.
import jax
import jax.numpy as jnp
import numpy as np


class Loader:
    def __init__(self, data, batch_size, seed):
        self.data = data
        self.batch_size = batch_size
        self.order = jnp.arange(data.shape[0])
        self.rng = np.random.default_rng(seed)

    def epoch(self):
        self.rng.shuffle(self.order)  # error: JAX211
        for i in range(0, self.data.shape[0], self.batch_size):
            yield self.data[self.order[i : i + self.batch_size]]


def shuffled_once(n, seed):
    rng = np.random.default_rng(seed)
    order = jnp.arange(n)
    rng.shuffle(order)  # error: JAX211
    return order


# near misses


class HostLoader:
    def __init__(self, data, batch_size, seed):
        self.data = data
        self.batch_size = batch_size
        self.order = np.arange(data.shape[0])
        self.rng = np.random.default_rng(seed)

    def epoch(self):
        self.rng.shuffle(self.order)
        for i in range(0, self.data.shape[0], self.batch_size):
            yield self.data[self.order[i : i + self.batch_size]]


def permuted(n, seed):
    rng = np.random.default_rng(seed)
    order = jnp.arange(n)
    return order[rng.permutation(n)]


def main():
    data = jnp.arange(20.0).reshape(10, 2)
    return [b.shape for b in HostLoader(data, 4, 0).epoch()], permuted(5, 0)


if __name__ == "__main__":
    import sys

    shapes, order = main()
    assert shapes == [(4, 2), (4, 2), (2, 2)] and sorted(order.tolist()) == [0, 1, 2, 3, 4]
    for call in (lambda: list(Loader(jnp.arange(20.0).reshape(10, 2), 4, 0).epoch()), lambda: shuffled_once(5, 0)):
        try:
            call()
        except TypeError:
            pass
        else:
            sys.exit("shuffling a JAX array in place did not raise")
    print("ok")
