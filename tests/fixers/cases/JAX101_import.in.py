# fix: safe
"""A module that imports only pieces of jax: `jax` itself must be imported."""
from jax import jit


@jit
def f(x):
    print(x)
    return x
