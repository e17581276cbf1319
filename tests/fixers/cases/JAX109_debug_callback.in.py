# fix: unsafe
import jax
import numpy as np

seen = []


def record(x, tag=""):
    seen.append((tag, np.asarray(x)))
    return np.asarray(x)


@jax.jit
def step(x):
    y = x * 2.0
    # the callback is made for what it records
    jax.pure_callback(record, jax.ShapeDtypeStruct(y.shape, y.dtype), y, tag="y")
    _ = jax.pure_callback(record, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="sequential")
    return y + 1.0
