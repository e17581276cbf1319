# `jax.checkpoint` reads `static_argnums` against each call's positional arguments only: a
# static argument given by keyword, or left to its default, raises `ValueError` (measured
# with JAX 0.10.2).
from functools import partial

import jax
import jax.numpy as jnp

x = jnp.ones(3)


@partial(jax.checkpoint, static_argnums=(1,))
def block(x, residual=False):
    y = jnp.tanh(x)
    return y + x if residual else y


def scaled(x, power):
    return x**power


remat_scaled = jax.checkpoint(scaled, static_argnums=1)


@partial(jax.remat, static_argnums=1)
def remat_block(x, residual=False):
    return jnp.tanh(x) + (x if residual else 0.0)


def remat_by_keyword():
    return remat_block(x, residual=True)  # error: JAX631


def by_keyword():
    return jax.grad(lambda x: block(x, residual=True).sum())(x)  # error: JAX631


def by_default():
    return block(x)  # error: JAX631


def assigned():
    return remat_scaled(x, power=2)  # error: JAX631


# near misses


def positional():
    return jax.grad(lambda x: block(x, True).sum())(x), remat_scaled(x, 2)


def negative(x):
    return jax.checkpoint(scaled, static_argnums=(-1,))(x, 2)


@jax.checkpoint
def plain(x, residual=False):
    return jnp.tanh(x) + (x if residual else 0.0)


def no_static():
    return plain(x)


if __name__ == "__main__":
    positional(), negative(x), no_static()
    for failing in (by_keyword, by_default, assigned, remat_by_keyword):
        try:
            failing()
        except ValueError as error:
            assert "static_argnums" in str(error), error
        else:
            raise AssertionError(f"{failing.__name__}: expected ValueError")
    print("as labelled")
