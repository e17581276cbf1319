# A method jitted with `self` static on a frozen dataclass whose fields are arrays: the generated
# `__hash__` hashes every field, and an array has no hash, so every call raises `ValueError:
# Non-hashable static arguments are not supported` (measured with JAX 0.10.2). Hashable fields, or a registered
# pytree that stays traced, are fine.
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Standardizer:
    mean: jax.Array
    std: jax.Array

    @partial(jax.jit, static_argnums=0)  # error: JAX606
    def transform(self, x):
        return (x - self.mean) / self.std


# near misses


@dataclasses.dataclass(frozen=True)
class Scaler:
    factor: float

    @partial(jax.jit, static_argnums=0)
    def transform(self, x):
        return x * self.factor


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Shifter:
    offset: jax.Array

    @jax.jit
    def transform(self, x):
        return x + self.offset


if __name__ == "__main__":
    x = jnp.array([[2.0, 3.0]])
    print(Scaler(2.0).transform(x), Shifter(jnp.ones(2)).transform(x))
    try:
        Standardizer(jnp.array([1.0, 2.0]), jnp.array([0.5, 0.5])).transform(x)
    except ValueError as error:
        print("ValueError", str(error)[:40])
    else:
        raise AssertionError("expected ValueError")
