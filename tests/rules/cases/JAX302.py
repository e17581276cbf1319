import jax
import jax.numpy as jnp
from jax import random


@jax.jit
def noisy_average(key, x):
    total = jnp.zeros_like(x)
    for _ in range(4):
        total = total + x + random.normal(key, x.shape)  # error: JAX302
    return total / 4


def sampling_loop(key, x, steps):
    t = 0
    while t < steps:
        x = x + jax.random.normal(key, x.shape)  # error: JAX302
        t += 1
    return x


def alias_in_loop(key, xs):
    out = []
    for x in xs:
        k = key
        out.append(x + jax.random.uniform(k, ()))  # error: JAX302
    return out


# --- near misses ---


@jax.jit
def split_in_loop(key, x):
    total = jnp.zeros_like(x)
    for _ in range(4):
        key, subkey = random.split(key)
        total = total + x + random.normal(subkey, x.shape)
    return total / 4


def fold_in_loop(key, n):
    return [jax.random.normal(jax.random.fold_in(key, i), ()) for i in range(n)]


def per_item_keys(key, n):
    out = []
    for k in jax.random.split(key, n):
        out.append(jax.random.normal(k, ()))
    return out


def first_success(key, n):
    for _ in range(n):
        return jax.random.normal(key, ())
    return None


def conditional_split(key, items):
    out = []
    for item in items:
        if item:
            key, sub = jax.random.split(key)
            out.append(jax.random.normal(sub, ()))
    return out
