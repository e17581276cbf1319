# An equinox module checks after its `__init__` that every field was set: one its `__init__`
# never assigns raises `TypeError` ("Field 'scale' was not initialized") on construction
# (measured with equinox 0.13.8).
from typing import ClassVar

import equinox as eqx
import jax
import jax.numpy as jnp


class Encoder(eqx.Module):
    linear: eqx.nn.Linear
    scale: jax.Array  # error: JAX636

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 2, key=key)

    def __call__(self, x):
        return self.scale * self.linear(x)


# near misses


class Scaled(eqx.Module):
    linear: eqx.nn.Linear
    scale: jax.Array
    bias: float = 0.0
    registry: ClassVar[dict] = {}

    def __init__(self, key):
        self.linear, self.scale = eqx.nn.Linear(3, 2, key=key), jnp.ones(2)


class Delegating(eqx.Module):
    scale: jax.Array

    def __init__(self):
        self._set_scale()

    def _set_scale(self):
        object.__setattr__(self, "scale", jnp.ones(2))


class Generated(eqx.Module):
    scale: jax.Array


if __name__ == "__main__":
    print(Scaled(jax.random.key(0)).scale.shape, Delegating().scale.shape, Generated(jnp.ones(2)).scale.shape)
    try:
        Encoder(jax.random.key(0))
    except TypeError as error:
        assert "was not initialized" in str(error)
    else:
        raise AssertionError("expected TypeError")
    print("ok")
