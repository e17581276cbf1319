# fix: unsafe
import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


@jax.jit
def item(keys):
    key, key_2 = jax.random.split(keys[0])
    a = jax.random.normal(key, (4,))
    b = jax.random.uniform(key_2, (4,))
    return a + b


def outer(key):
    @jax.jit
    def inner(x):
        a = jax.random.normal(key, (4,))
        return x + a + jax.random.normal(key, (4,))  # no fix: each call would split the same closed-over key

    return inner


@jax.jit
def uses_global(x):
    return x + jax.random.normal(KEY, (4,)) * jax.random.normal(KEY, (4,))  # no fix


@jax.jit
def computed_item(keys, i):
    a = jax.random.normal(keys[i], (4,))
    return a + jax.random.normal(keys[i], (4,))  # no fix
