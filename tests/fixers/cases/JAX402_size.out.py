# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def active_indices(x):
    return jnp.nonzero(x > 0.5, size=(x > 0.5).size)[0]


@jax.jit
def classes(labels):
    return jnp.unique(labels)  # no fix: the padding would be returned


@jax.jit
def union(a, b):
    return jnp.union1d(a, b)  # no fix


@jax.jit
def counts(labels):
    return jnp.bincount(labels)  # no fix


@jax.jit
def union_total(a, b):
    return jnp.union1d(a, b, size=a.size + b.size, fill_value=0).sum()


@jax.jit
def count_active(x):
    return len(jnp.nonzero(x)[0])  # no fix: padded, the count would be the size


@jax.jit
def count_rows(x):
    return jnp.argwhere(x > 0).shape[0]  # no fix


@jax.jit
def count_named(x):
    idx = jnp.flatnonzero(x)  # no fix
    return len(idx)
