# A helper's parameter is a JAX array when every call in sight passes one: storing into it raises
# `TypeError` (JAX arrays are immutable), eagerly as under `jit` (measured with JAX 0.10.2). The
# module imports NumPy too, so only the calls tell what the parameter holds.
import jax
import jax.numpy as jnp
import numpy as np


def boost_band(spectrum, lo, hi, gain):
    spectrum[lo:hi] *= gain  # error: JAX202
    return spectrum


def clip_first(values, limit):
    values[0] = limit  # error: JAX201
    return values


def scaled(weights, factor):
    weights[:] *= factor  # error: JAX202 (through `jax.jit`, bound to a name)
    return weights


fast_scaled = jax.jit(scaled)


def boosted():
    return boost_band(jnp.ones(8), 2, 5, 3.0), clip_first(jnp.arange(3.0), 0.5), fast_scaled(jnp.ones(2), 2.0)


# near misses


def fill(buffer, value):
    buffer[0] = value  # one call passes a NumPy array
    return buffer


def both():
    return fill(np.zeros(3), 1.0), fill(np.ones(2), 2.0)


def handed_on(buffer, value):
    buffer[0] = value  # handed on: its calls are out of sight
    return buffer


def hand_on():
    return handed_on


if __name__ == "__main__":
    both()
    hand_on()(np.zeros(2), 1.0)
    for failing in (
        lambda: boost_band(jnp.ones(8), 2, 5, 3.0),
        lambda: clip_first(jnp.arange(3.0), 0.5),
        lambda: fast_scaled(jnp.ones(2), 2.0),
    ):
        try:
            failing()
        except TypeError as error:
            assert "immutable" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print("ok")
