# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def active_indices(x):
    return jnp.nonzero(x > 0.5)[0]  # no fix: the padding would be returned


@jax.jit
def index_total(x):
    return jnp.nonzero(x > 0.5, size=(x > 0.5).size)[0].sum()  # padded with index 0: the sum is the same


@jax.jit
def last_active(x):
    idx = jnp.flatnonzero(x > 0.5, size=(x > 0.5).size)
    return jnp.max(idx)


@jax.jit
def selected_energy(energies, active):
    idx = jnp.nonzero(active)[0]  # no fix: `energies[0]` would be added once per padding slot
    return energies[idx].sum()


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


@jax.jit
def unpacked_total(x):
    (idx,) = jnp.where(x > 0, size=(x > 0).size)
    return x + idx.sum()
