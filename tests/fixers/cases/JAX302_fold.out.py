# fix: unsafe
import jax
import jax.numpy as jnp
from jax import lax

KEY = jax.random.key(0)


@jax.jit
def global_key_in_loop(x):
    for i in range(3):
        x = x + jax.random.normal(KEY, x.shape)  # no fix: every call would fold the same i into KEY
    return x


def closed_over(key):
    @jax.jit
    def inner(xs):
        out = []
        for i, x in enumerate(xs):
            out.append(x + jax.random.uniform(key, ()))  # no fix: the closure's key, every call
        return out

    return inner


@jax.jit
def item_of_a_batch(keys, x):
    for step in range(4):
        x = x * jax.random.normal(keys[0], x.shape)  # no fix: each keys[0] is a new slice for JAX
    return x


@jax.jit
def no_index(keys, xs):
    total = 0.0
    for x in xs:
        total = total + x * jax.random.normal(keys[0], ())  # no fix
    return total


def folded_with_constants(i, state):
    key, total = state
    y = 0.0
    key, subkey = jax.random.split(key)
    for j in range(3):
        y = y + jax.random.normal(jax.random.fold_in(subkey, j), (3,)).sum()
    return key, total + y


def run_folds(key):
    return lax.fori_loop(0, 3, folded_with_constants, (key, 0.0))
