# A method jitted with its `self` static hashes the object on every call: a `@dataclass` with
# `eq` (the default) and neither `frozen` nor `unsafe_hash` has no hash (measured with JAX
# 0.10.2: `ValueError: Non-hashable static arguments are not supported`).
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Scaler:
    factor: float

    @functools.partial(jax.jit, static_argnums=0)  # error: JAX606
    def __call__(self, x):
        return x * self.factor


@dataclasses.dataclass(frozen=True)
class FrozenScaler:
    factor: float

    @functools.partial(jax.jit, static_argnums=0)  # frozen: hashable
    def __call__(self, x):
        return x * self.factor


@dataclasses.dataclass(unsafe_hash=True)
class HashedScaler:
    factor: float

    @functools.partial(jax.jit, static_argnames=("self",))  # hashed by its fields
    def __call__(self, x):
        return x * self.factor


if __name__ == "__main__":
    print(FrozenScaler(2.0)(jnp.ones(2)), HashedScaler(3.0)(jnp.ones(2)))
    try:
        Scaler(3.0)(jnp.ones(2))
    except ValueError as error:
        print("ValueError:", error)
