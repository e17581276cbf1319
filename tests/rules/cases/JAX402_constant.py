"""Under `jit` (and `lax` bodies, `pmap`, `eval_shape`), `jax.numpy` stages every call, constants
included: these functions raise on a NumPy array or a `jnp` constant too. Under a bare `vmap` or
eagerly they run."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

GRID = np.linspace(-1.0, 1.0, 8)
TABLE = jnp.arange(6)


@jax.jit
def positive_grid(x):
    return x + jnp.nonzero(GRID > 0)[0].sum()  # error: JAX402


@jax.jit
def local_grid(x):
    dim = np.linspace(-1.0, 1.0, x.shape[0])
    return x + jnp.argwhere(dim > 0).sum()  # error: JAX402


def helper(x):
    return x + jnp.unique(TABLE % 3).sum()  # error: JAX402


@jax.jit
def calls_helper(x):
    return helper(x)


def loop(x):
    def body(i, acc):
        return acc + jnp.flatnonzero(GRID).sum()  # error: JAX402

    return lax.fori_loop(0, 3, body, x)


class Model:
    def __call__(self, x):
        return x + jnp.where(GRID < 0)[0].sum()  # error: JAX402


apply = jax.jit(Model())


# --- near misses ---


def per_row(x):
    return x + jnp.nonzero(GRID > 0)[0].sum()  # a bare vmap runs constants eagerly


batched = jax.vmap(per_row)


def eager(x):
    return x + jnp.nonzero(GRID > 0)[0].sum()  # never traced


@jax.jit
def sized(x):
    return x + jnp.nonzero(GRID > 0, size=8)[0].sum()


@jax.jit
def with_numpy(x):
    return x + np.nonzero(GRID > 0)[0].sum()


@jax.jit
def three_argument_where(x):
    return jnp.where(GRID > 0, x, 0.0)


@jax.jit
def literal(x):
    return jnp.repeat(x, 2)


@jax.jit
def at_compile_time(x):
    with jax.ensure_compile_time_eval():
        idx = jnp.nonzero(GRID > 0)[0]  # computed eagerly, while tracing
    return x[idx]
