# An equinox layer is a frozen dataclass: assigning one of its fields raises
# `dataclasses.FrozenInstanceError`, traced or not (measured with equinox 0.13.8).
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp


def reset(key):
    linear = eqx.nn.Linear(2, 2, key=key)
    linear.weight = jnp.zeros((2, 2))  # error: JAX104
    return linear


# near misses


def rebuilt(key):
    linear = eqx.nn.Linear(2, 2, key=key)
    return eqx.tree_at(lambda m: m.weight, linear, jnp.zeros((2, 2)))


if __name__ == "__main__":
    try:
        reset(jax.random.key(0))
        raise AssertionError("assigned")
    except dataclasses.FrozenInstanceError:
        pass
    assert float(jnp.abs(rebuilt(jax.random.key(1)).weight).sum()) == 0.0
    print("ok")
