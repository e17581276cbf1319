# fix: unsafe
import jax
from jax import numpy as np_jax


@jax.jit
def hinge(margin, loss, grad):
    a = max(1.0 - margin, 0.0, loss)
    b = loss < 1.0 or grad < 0.5
    c = not (loss > 2.0)
    return a, b, c


@jax.jit
def clipped(x):
    return x * min(x.sum(), 1.0) if x.ndim else x
