# fix: unsafe
import jax
import jax.numpy as jnp
import numpy as np

GRID = np.linspace(-1.0, 1.0, 8)


@jax.jit
def positive_grid(x):
    return x + jnp.nonzero(GRID > 0)[0].sum()  # no fix: a tuple of arrays


@jax.jit
def local_grid(x):
    dim = np.linspace(-1.0, 1.0, x.shape[0])
    return x + jnp.argwhere(dim > 0).sum()


class Model:
    def __call__(self, x):
        return x + jnp.where(GRID < 0)[0].sum()  # no fix


apply = jax.jit(Model())


LABELS = np.array([0, 2, 2, 1])


@jax.jit
def counted(x, w):
    counts = jnp.bincount(LABELS, weights=w)  # no fix: `w` is traced, NumPy cannot take it
    return x + jnp.asarray(np.bincount(LABELS)).sum() + counts.sum()


@jax.jit
def updated(x, k):
    idx = jnp.flatnonzero(GRID > 0)
    idx = idx.at[0].set(1)  # a JAX array again: `.at` and traced indices work
    return x + idx[k]
