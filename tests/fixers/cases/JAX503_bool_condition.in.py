# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def safe_mean(x):
    if bool(jnp.isnan(x).any()):  # any NaN: the if on a tracer is JAX501's to rewrite
        return jnp.zeros_like(x)
    return x / 2


@jax.jit
def halve_until_small(x):
    while bool((x > 1.0).all()):
        x = x / 2
    return x
