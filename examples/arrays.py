"""NumPy habits that fail on immutable JAX arrays, and data-dependent shapes."""

import jax
import jax.numpy as jnp


def relu_inplace(x):
    x = jnp.asarray(x)
    x[x < 0] = 0.0  # TypeError: JAX arrays are immutable
    return x


@jax.jit
def bump(counts, i):
    counts[i] += 1
    return counts


def reset_first(x):
    x.at[0].set(0.0)  # result discarded: x is unchanged
    return x


@jax.jit
def nansum(x):
    mask = ~jnp.isnan(x)
    return x[mask].sum()  # NonConcreteBooleanIndexError


@jax.jit
def active_indices(x):
    return jnp.nonzero(x > 0.5)[0]  # needs size=


@jax.jit
def pad_to(x, n):
    return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])  # n must be static


@jax.jit
def nansum_fixed(x):
    return jnp.where(jnp.isnan(x), 0.0, x).sum()


@jax.jit
def bump_fixed(counts, i):
    return counts.at[i].add(1)
