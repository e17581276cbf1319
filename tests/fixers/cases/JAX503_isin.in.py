# fix: safe
import jax
import jax.numpy as jnp

RARE = {3, 7}


@jax.jit
def odd_one(label):
    return jnp.where(label not in {1, 3, 5}, 1.0, 0.0)


@jax.jit
def rare(label):
    flag = label in RARE
    return jnp.where(flag, 5.0, 1.0)


@jax.jit
def named(label, names):
    return label in {"a", "b"}  # no fix: not numbers
