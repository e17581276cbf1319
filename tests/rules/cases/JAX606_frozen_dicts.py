# A flax `FrozenDict` hashes its values: holding JAX arrays, it cannot be a static argument
# (measured with JAX 0.10.2, flax 0.12.8: `ValueError: Non-hashable static arguments are not
# supported`). One of Python numbers is hashable and fine; arrays go in as ordinary arguments.
from functools import partial

import jax
import jax.numpy as jnp
from flax.core import FrozenDict


@partial(jax.jit, static_argnames=("norm",))
def normalize(batch, norm):
    return (batch - norm["mean"]) / norm["std"]


@jax.jit
def normalize_traced(batch, norm):
    return (batch - norm["mean"]) / norm["std"]


stats = FrozenDict({"mean": jnp.array([0.5, 1.0]), "std": jnp.array([0.1, 2.0])})
python_stats = FrozenDict({"mean": 0.5, "std": 2.0})
batch = jnp.ones((4, 2))


def failing():
    return normalize(batch, norm=stats)  # error: JAX606


# near misses


def main():
    return normalize(batch, norm=python_stats), normalize_traced(batch, stats)


if __name__ == "__main__":
    import sys

    by_numbers, traced = main()
    assert by_numbers.shape == traced.shape == (4, 2)
    try:
        failing()
    except ValueError:
        pass
    else:
        sys.exit("a FrozenDict of arrays was taken as a static argument")
    print("ok")
