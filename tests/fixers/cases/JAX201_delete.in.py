# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def drop_first(x):
    del x[0]
    return x


@jax.jit
def drop_head(x):
    del x[:2]  # a slice: jnp.s_
    return x


def fresh(n):
    buf = jnp.arange(n)
    del buf[1]
    return buf


weights = jnp.ones(4)


def trim():
    del weights[-1]  # no fix: a global
