# `jax.jit` checks `static_argnames`/`static_argnums` against the signature when it wraps the
# function and raises `ValueError` for a name or a position it lacks (measured with JAX 0.10.2,
# flax's nnx.jit alike).
from functools import partial

import jax
import jax.numpy as jnp
from flax import nnx


def scale(x, factor):
    return x * factor


@partial(jax.jit, static_argnames=("num_heads",))  # error: JAX612
def split_heads(x, n_heads):
    b, d = x.shape
    return x.reshape(b, n_heads, d // n_heads)  # error: JAX403


by_position = jax.jit(scale, static_argnums=(2,))  # error: JAX612
by_nnx = nnx.jit(scale, static_argnames="factr")  # error: JAX612
# --- near misses ---
counted_back = jax.jit(scale, static_argnums=(-1,))  # the last parameter
named = jax.jit(scale, static_argnames=("factor",))


@partial(jax.jit, static_argnames=("mode",))
def configurable(x, **options):  # any keyword: `mode` may come through `**options`
    return x * 2.0 if options["mode"] == "double" else x


if __name__ == "__main__":
    print(counted_back(jnp.ones(2), 2.0), named(jnp.ones(2), 3.0), configurable(jnp.ones(2), mode="double"))
