# A list comprehension of JAX arrays holds arrays: an element taken out of it is a JAX array,
# immutable, and handed to equinox's filter_jit each one is traced. A list that received
# anything else since is known no more.
import equinox as eqx
import jax.numpy as jnp
import numpy as np


@eqx.filter_jit
def first_positive(parts):
    for part in parts:
        if part.sum() > 0:  # error: JAX501
            return part
    return parts[0]


def build(n):
    grids = [jnp.zeros((2, 2)) for _ in range(n)]
    grids[1][0, 0] = 1.0  # error: JAX201
    grid = grids[0]
    grid[1, 1] = 2.0  # error: JAX201
    first_positive([jnp.ones(2) * i for i in range(3)])


def near_misses(n):
    hosts = [np.zeros((2, 2)) for _ in range(n)]
    hosts[1][0, 0] = 1.0  # NumPy arrays
    mixed = [jnp.zeros((2, 2)) for _ in range(n)]
    mixed[0] = np.zeros((2, 2))
    mixed[0][0, 0] = 1.0  # the list holds a NumPy array since
    grown = [jnp.zeros(2) for _ in range(n)]
    grown.append(np.zeros(2))
    grown[-1][0] = 1.0


if __name__ == "__main__":
    near_misses(2)
