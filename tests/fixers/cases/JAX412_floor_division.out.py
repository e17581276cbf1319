# fix: unsafe
import jax
import jax.numpy as jnp


def half_buffer(x):
    return jnp.zeros(x.shape[0] // 2)


def noise(key, x):
    return jax.random.normal(key, ((len(x) + 1) //  2, 3))


def classes(labels, k):
    return jax.nn.one_hot(labels, float(k))  # no fix
