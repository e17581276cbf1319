import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def accumulator(n):
    return jnp.zeros(n, dtype=jnp.float64)  # error: JAX605


def from_numpy_dtype(x):
    return jnp.asarray(x, np.float64)  # error: JAX605


def as_string(n):
    return jnp.ones((n, n), "complex128")  # error: JAX605


def scalar(x):
    return jnp.float64(x)  # error: JAX605


def cast(n):
    x = jnp.arange(n)
    return x.astype(jnp.float64)  # error: JAX605


def sampled(key):
    return jax.random.normal(key, (3,), dtype=jnp.float64)  # error: JAX605


def converted(x):
    return lax.convert_element_type(x, jnp.float64)  # error: JAX605


@jax.jit
def precise_sum(x):
    return jnp.sum(x.astype(jnp.float64))  # error: JAX605 (a tracer with `.astype` is an array)


@jax.vmap
def widened(x):
    return x.astype("float64")  # error: JAX605


# --- near misses ---


def numpy_arrays(x):
    host = np.zeros(3, dtype=np.float64)  # NumPy has float64
    return host.astype(jnp.float64), np.asarray(x).astype(np.float64)


def queries(x):
    return jnp.finfo(jnp.float64).eps, x.dtype == jnp.float64, jnp.issubdtype(x.dtype, jnp.float64)


def thirty_two(n):
    return jnp.zeros(n, dtype=jnp.float32) + jnp.ones(n, dtype=float)


def unknown_receiver(x):
    return x.astype(jnp.float64)  # eager: NumPy's astype, perhaps


@jax.jit
def narrowed(x):
    return x.astype(jnp.float32)
