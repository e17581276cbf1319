"""`equinox.filter_jit` traces arrays and keeps every other value static: a parameter is known to
be traced only from its annotation or from being read as an array (`x.shape`, `x.at[...]`)."""

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(x, flag):
    if flag:  # ok: an unannotated flag may be a Python bool, which filter_jit keeps static
        x = x * 2
    if x.sum() > 0:  # error: JAX501 (x is read as an array below: traced)
        return x
    return jnp.zeros(x.shape)


@eqx.filter_jit
def plain(x, n):
    if n > 0:  # ok: n may be an array (traced) or a Python number (static)
        return x
    return -x
