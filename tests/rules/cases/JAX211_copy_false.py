# `np.nan_to_num(x, copy=False)` writes into `x`: given a JAX array, NumPy writes through the
# array's read-only view and raises `ValueError` (assignment destination is read-only), whether
# or not there is anything to replace (measured with JAX 0.10.2 and NumPy 2).
import jax
import jax.numpy as jnp
import numpy as np


def loss(w):
    return jnp.sum(jnp.sqrt(w))


def scrubbed_step():
    w = jnp.array([0.0, 1.0, 4.0])
    g = jax.grad(loss)(w)
    np.nan_to_num(g, copy=False, posinf=0.0)  # error: JAX211
    return w - 0.1 * g


def scrubbed_constant():
    bias = jnp.array([1.0, 2.0])
    np.nan_to_num(bias, copy=False)  # error: JAX211
    return bias


# near misses


def functional_step(w):
    g = jnp.nan_to_num(jax.grad(loss)(w), posinf=0.0)
    return w - 0.1 * g


def host_copy(w):
    g = np.array(jax.grad(loss)(w))  # a writable NumPy copy
    np.nan_to_num(g, copy=False, posinf=0.0)
    return g


def raises(thunk):
    try:
        thunk()
    except ValueError as error:
        return "read-only" in str(error)
    return False


if __name__ == "__main__":
    w = jnp.array([0.0, 1.0, 4.0])
    assert raises(scrubbed_step) and raises(scrubbed_constant)
    functional_step(w)
    assert np.isfinite(host_copy(w)).all()
    print("ok")
