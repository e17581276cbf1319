# fix: unsafe
import jax
from jax import numpy as np_jax


@jax.jit
def hinge(margin, loss, grad):
    a = np_jax.maximum(np_jax.maximum(1.0 - margin, 0.0), loss)
    b = np_jax.logical_or(loss < 1.0, grad < 0.5)
    c = np_jax.logical_not(loss > 2.0)
    return a, b, c


@jax.jit
def clipped(x):
    return x * np_jax.minimum(x.sum(), 1.0) if x.ndim else x
