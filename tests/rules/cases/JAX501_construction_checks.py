# A dataclass's generated `__init__` calls `__post_init__` on the object it made, and an equinox
# module's calls `__check_init__`: built in traced code from traced values, a Python `if` on a
# field there raises (measured with JAX 0.10.2 and equinox 0.13.8).
import dataclasses

import equinox as eqx
import jax
import jax.numpy as jnp


class DiagGaussian(eqx.Module):
    mean: jax.Array
    log_scale: jax.Array

    def __check_init__(self):
        if jnp.any(jnp.exp(self.log_scale) > 1e3):  # error: JAX501
            raise ValueError("scale too large")


def make_member(key):
    k_mean, k_scale = jax.random.split(key)
    return DiagGaussian(jax.random.normal(k_mean, (3,)), 0.1 * jax.random.normal(k_scale, (3,)))


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Interval:
    low: jax.Array
    high: jax.Array

    def __post_init__(self):
        if self.low > self.high:  # error: JAX501
            raise ValueError("empty interval")


@jax.jit
def around(x):
    return Interval(x - 1.0, x + 1.0).high


# near misses


class Checked(eqx.Module):
    weight: jax.Array

    def __check_init__(self):
        if self.weight.ndim != 2:
            raise ValueError("weight must be a matrix")


def make_checked(key):
    return Checked(jax.random.normal(key, (2, 2)))


if __name__ == "__main__":
    keys = jax.random.split(jax.random.key(0), 4)
    for hazard in (lambda: eqx.filter_vmap(make_member)(keys), lambda: around(1.0)):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError("expected TracerBoolConversionError")
    checked_keys = jax.random.split(jax.random.key(1), 4)
    assert eqx.filter_vmap(make_checked)(checked_keys).weight.shape == (4, 2, 2)
    print("ok")
