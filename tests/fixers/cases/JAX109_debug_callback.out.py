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
    jax.debug.callback(record, y, tag="y")
    _ = jax.debug.callback(record, x)
    return y + 1.0
