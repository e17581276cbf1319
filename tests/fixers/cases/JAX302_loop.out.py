# fix: unsafe
import jax
import jax.numpy as jnp
import jax.random as jr
from jax import random


@jax.jit
def noisy_average(key, x):
    total = jnp.zeros_like(x)
    for _ in range(4):
        key, subkey = random.split(key)
        total = total + x + random.normal(subkey, x.shape)
    return total / 4


def alias_in_loop(key, xs):
    out = []
    for x in xs:
        k = key
        out.append(x + jax.random.uniform(k, ()))  # no fix
    return out
