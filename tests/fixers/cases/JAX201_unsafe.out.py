# fix: unsafe
import jax.numpy as jnp


def set_first(x):
    x = x.at[0].set(10.0)
    return x


def relu_inplace(x):
    x = jnp.where(x < 0, jnp.zeros_like(x), x)
    return x


def by_outer_mask(x, mask):
    x = x.at[mask].set(0.0)
    return x


@jax.jit
def float_fill_of_a_mask(x):
    x = jnp.where(x > 10, jnp.full_like(x, 10.5), x)  # the fill is cast to x's dtype first, as NumPy casts 10.5
    return x
