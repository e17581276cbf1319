# fix: safe
"""A module that imports only pieces of jax: `jax` itself must be imported."""
from jax import jit
import jax


@jit
def f(x):
    jax.debug.print("{}", x)
    return x
