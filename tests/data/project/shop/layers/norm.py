import jax.numpy as jnp


def rms(x):
    scale = jnp.sqrt(jnp.mean(x**2))
    return x / float(scale)
