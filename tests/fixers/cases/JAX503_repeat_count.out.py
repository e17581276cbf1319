# fix: unsafe
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def padded(x):
    c = np.arange(4).sum() // 2
    pad = [0.0] * c  # `c` made by jnp from constants: computed with NumPy instead
    return x + len(pad)


@jax.jit
def padded_by(x, n):
    pad = [0.0] * n  # no fix: `n` is an argument, traced
    return x + len(pad)
