# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def drop_first(x):
    x = jnp.delete(x, 0)
    return x


@jax.jit
def drop_head(x):
    x = jnp.delete(x, jnp.s_[:2])  # a slice: jnp.s_
    return x


def fresh(n):
    buf = jnp.arange(n)
    buf = jnp.delete(buf, 1)
    return buf


weights = jnp.ones(4)


def trim():
    del weights[-1]  # no fix: a global
