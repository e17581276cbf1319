import jax.numpy as jnp
import numpy as np


def numpy_buffer(n):
    buf = np.zeros(n)
    buf[0] = 1.0
    return jnp.asarray(buf)


def either_library(x):
    x[0] = 1.0
    return x


def jax_array():
    y = jnp.ones(3)
    y[0] = 2.0  # error: JAX201
    return y


if __name__ == "__main__":
    assert numpy_buffer(3).tolist() == [1.0, 0.0, 0.0]
    assert either_library(np.zeros(2)).tolist() == [1.0, 0.0]
    try:
        jax_array()
    except TypeError:
        pass
    else:
        raise AssertionError("jax_array() did not raise TypeError")
    print("ok")
