# fix: unsafe
import jax
import jax.numpy as jnp
import numpy as np

GRID = np.linspace(-1.0, 1.0, 8)


@jax.jit
def positive_grid(x):
    return x + jnp.nonzero(GRID > 0)[0].sum()


@jax.jit
def local_grid(x):
    dim = np.linspace(-1.0, 1.0, x.shape[0])
    return x + jnp.argwhere(dim > 0).sum()


class Model:
    def __call__(self, x):
        return x + jnp.where(GRID < 0)[0].sum()


apply = jax.jit(Model())
