# Eager code gets JAX arrays from `jax.device_put` of a NumPy array or number, and from a
# function of the module that returns what `jax` makes: item assignment on them raises.
# A container device_put leaves a container; a helper returning NumPy arrays gives NumPy.
import jax
import jax.numpy as jnp
import numpy as np


def init():
    return {"w": jnp.zeros((2, 2)), "b": jnp.zeros(2)}


def init_numpy():
    return {"w": np.zeros((2, 2)), "b": np.zeros(2)}


def pair():
    return jnp.ones(3), np.ones(3)


def main():
    params = init()
    params["w"][0, 0] = 1.0  # error: JAX201
    on_device = jax.device_put(np.zeros(3))
    on_device[1] = 2.0  # error: JAX201
    scalar = jax.device_put(1.5)
    scalar[()] = 2.0  # error: JAX201
    a, b = pair()
    a[0] = 1.0  # error: JAX201


def near_misses():
    # near misses: NumPy arrays, a list of arrays, a rebound name
    b = pair()[1]
    b[0] = 1.0
    host = init_numpy()
    host["w"][0, 0] = 1.0
    listed = jax.device_put([1.0, 2.0])
    listed[0] = 3.0
    params = init()
    params = {"w": np.zeros((2, 2))}
    params["w"][0, 0] = 1.0


if __name__ == "__main__":
    near_misses()
