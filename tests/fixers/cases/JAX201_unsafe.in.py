# fix: unsafe
import jax.numpy as jnp


def set_first(x):
    x[0] = 10.0
    return x


def relu_inplace(x):
    x[x < 0] = 0.0
    return x


def by_outer_mask(x, mask):
    x[mask] = 0.0
    return x


@jax.jit
def float_fill_of_a_mask(x):
    x[x > 10] = 10.5  # the fill is cast to x's dtype first, as NumPy casts 10.5
    return x
