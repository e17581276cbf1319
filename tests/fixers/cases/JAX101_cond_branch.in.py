# fix: safe
import jax
import jax.numpy as jnp
from jax import lax


def warmup(lr):
    print("warmup branch taken")  # a comment stays
    print("rate", lr.shape, "{{raw}}")  # no fix
    rows = lr.shape[0] / 2.0
    print(f"half the rows: {rows}")  # a Python number prints alike
    shape = lr.shape
    print(f"shape {shape}")  # no fix: a tuple prints as a tuple of arrays
    return lr * 0.1


def keep(lr):
    return lr


@jax.jit
def schedule(flag, lr):
    return lax.cond(flag, warmup, keep, lr)
