import jax
import jax.numpy as jnp


@jax.jit
def safe_log(x):
    assert jnp.all(x > 0), "log of non-positive value"  # error: JAX504
    return jnp.log(x)


@jax.jit
def checked(x, y):
    assert x.shape == y.shape
    assert x.sum() < y.sum()  # error: JAX504
    return x + y


# --- near misses ---


@jax.jit
def shapes_only(x):
    assert x.ndim == 2, "expected a matrix"
    assert x.shape[0] > 0
    return x


def eager(x):
    assert jnp.all(x > 0)
    return jnp.log(x)
