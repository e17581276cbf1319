# An equinox layer's sizes must be Python ints: built under `jax.jit` with a traced size
# (`eqx.nn.Linear(3, width, key=k)`), its constructor raises (measured per layer and parameter
# by tools/measure_jax_api.py with JAX 0.10.2 and equinox 0.13.8).
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp


def build_and_apply(x, width, key):
    layer = eqx.nn.Linear(x.shape[-1], width, key=key)  # error: JAX403
    return layer(x)


@jax.jit
def embed(ids, vocab, key):
    table = eqx.nn.Embedding(num_embeddings=vocab, embedding_size=4, key=key)  # error: JAX403
    return jax.vmap(table)(ids)


# near misses


@partial(jax.jit, static_argnames=("width",))
def build_static(x, width, key):
    return eqx.nn.Linear(x.shape[-1], width, key=key)(x)


@eqx.filter_jit
def build_filtered(x, width, key):
    return eqx.nn.Linear(x.shape[-1], width, key=key)(x)  # a Python int: static under filter_jit


def raises(thunk):
    try:
        thunk()
    except (TypeError, jax.errors.ConcretizationTypeError, jax.errors.TracerBoolConversionError):
        return True
    return False


if __name__ == "__main__":
    x = jnp.ones(3)
    assert raises(lambda: jax.jit(build_and_apply)(x, 5, jax.random.key(0)))
    assert raises(lambda: embed(jnp.array([0, 1]), 10, jax.random.key(1)))
    assert build_static(x, 5, jax.random.key(2)).shape == (5,)
    assert build_filtered(x, 5, jax.random.key(3)).shape == (5,)
    print("ok")
