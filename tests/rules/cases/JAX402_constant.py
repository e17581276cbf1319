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


if __name__ == "__main__":
    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.ones(8)
    for hazard in (
        lambda: named["positive_grid"](x),
        lambda: named["local_grid"](x),
        lambda: named["calls_helper"](x),
        lambda: named["loop"](jnp.float32(0.0)),
        lambda: named["apply"](x),
    ):
        try:
            hazard()
        except jax.errors.ConcretizationTypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise ConcretizationTypeError")
    expected = 1.0 + 4 + 5 + 6 + 7  # the indices of the positive grid points
    assert jnp.allclose(named["batched"](jnp.ones((2, 8))), expected)
    assert jnp.allclose(named["eager"](x), expected)
    assert jnp.allclose(named["sized"](x), expected)
    assert jnp.allclose(named["with_numpy"](x), expected)
    assert named["three_argument_where"](x).tolist() == [0.0] * 4 + [1.0] * 4
    assert named["literal"](x).shape == (16,)
    assert named["at_compile_time"](x).tolist() == [1.0] * 4
    print("ok")
