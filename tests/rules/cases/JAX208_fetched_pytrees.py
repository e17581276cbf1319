# `jax.device_get` of a pytree of JAX arrays gives the same pytree with a read-only NumPy view
# of each array's buffer as its leaves: writing into a leaf raises `ValueError: assignment
# destination is read-only` (measured with JAX 0.10.2). The containers themselves are plain
# Python ones.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def init_params(key):
    k1, k2 = jax.random.split(key)
    return {"w": jax.random.normal(k1, (3, 3)), "b": jax.random.normal(k2, (3,))}


def zero_first_row(key):
    host = jax.device_get(init_params(key))
    w = host["w"]
    w[0, :] = 0.0  # error: JAX208
    return host


def bump_bias(key):
    host = jax.device_get(init_params(key))
    host["b"][0] += 1.0  # error: JAX208
    return host


# near misses


def copied_row(key):
    host = jax.device_get(init_params(key))
    w = np.array(host["w"])  # a writable copy
    w[0, :] = 0.0
    return w


def replaced_entry(key):
    host = jax.device_get(init_params(key))
    host["b"] = np.zeros(3)  # the dict is a plain Python dict
    host["b"][0] = 1.0  # a NumPy array of its own now
    return host


def raises(thunk):
    try:
        thunk()
    except ValueError as error:
        return "read-only" in str(error)
    return False


if __name__ == "__main__":
    assert raises(lambda: zero_first_row(jax.random.key(0)))
    assert raises(lambda: bump_bias(jax.random.key(1)))
    assert copied_row(jax.random.key(2))[0].sum() == 0.0
    assert replaced_entry(jax.random.key(3))["b"].sum() == 1.0
    print("ok", jnp.zeros(1))
