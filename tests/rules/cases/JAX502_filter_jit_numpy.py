# `eqx.filter_jit` traces every array it is given, NumPy's too (`eqx.is_array`): a NumPy scalar
# such as `np.sum(mask)` arrives as a tracer, and `range()` of it raises (measured with
# JAX 0.10.2 and equinox 0.13.8). A Python `int` stays static.
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


@eqx.filter_jit
def poly_features(x, degree):
    return jnp.stack([x**d for d in range(degree + 1)], axis=-1)  # error: JAX502


def features(x):
    active = np.array([1, 1, 0, 1])
    return poly_features(x, np.sum(active))


# near misses


def int_features(x):
    active = np.array([1, 1, 0, 1])
    return poly_features(x, int(np.sum(active)))


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 4)
    try:
        features(x)
    except jax.errors.TracerIntegerConversionError:
        pass
    else:
        raise AssertionError("no error")
    assert int_features(x).shape == (4, 4)
    print("ok")
