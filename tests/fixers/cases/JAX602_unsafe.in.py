# fix: unsafe
import jax
import jax.numpy as jnp
import numpy as np


def helper(x):
    return np.maximum(x, 0.0) + np.dot(x, x)


@jax.jit
def calls_helper(x):
    return helper(x) + jnp.ones(3)
