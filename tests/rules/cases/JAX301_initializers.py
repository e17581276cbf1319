# An initializer made by `jax.nn.initializers.glorot_normal()` (and the other random
# initializers, flax's names for them included) draws from the key it is given: two calls with
# one key give identical weights (measured with JAX 0.10.2: `KeyReuseError` under
# `jax.debug_key_reuse`).
import flax.linen as nn
import jax
import jax.numpy as jnp

init = jax.nn.initializers.glorot_normal()


def init_mlp(key, width):
    w1 = init(key, (width, width))
    w2 = init(key, (width, width))  # error: JAX301
    return w1, w2


def init_pair(key):
    uniform = nn.initializers.uniform(0.1)
    a = uniform(key, (3,))
    b = uniform(key, (3,))  # error: JAX301
    return a, b


def init_inline(key):
    a = jax.nn.initializers.he_normal()(key, (2, 2))
    b = jax.nn.initializers.he_normal()(key, (2, 2))  # error: JAX301
    return a, b


# near misses


def init_split(key, width):
    k1, k2 = jax.random.split(key)
    return init(k1, (width, width)), init(k2, (width, width))


def init_constants(key):
    zeros = jax.nn.initializers.zeros
    return zeros(key, (3,)), zeros(key, (3,))  # no draw


if __name__ == "__main__":
    w1, w2 = init_mlp(jax.random.key(0), 4)
    assert bool(jnp.array_equal(w1, w2))
    a, b = init_pair(jax.random.key(1))
    assert bool(jnp.array_equal(a, b))
    a, b = init_inline(jax.random.key(2))
    assert bool(jnp.array_equal(a, b))
    w1, w2 = init_split(jax.random.key(3), 4)
    assert not bool(jnp.array_equal(w1, w2))
    init_constants(jax.random.key(4))
    print("ok")
