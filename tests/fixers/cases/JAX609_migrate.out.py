# fix: safe
import jax
import jax.numpy as jnp
from jax import jit
from jax.tree import map as tree_map
from jax.sharding import Mesh
from jax import jit as pjit


def scale(params, key: jax.Array):
    x = jnp.zeros(3)
    x = x.at[0].set(1.0)
    x = x.at[1].set(2.0, indices_are_sorted=True)
    y = x + 1
    leaves = jax.tree.leaves(params)
    total = jnp.prod(x) + jnp.all(x)
    step = pjit(lambda v: v, in_shardings=None)
    with jax.enable_x64(False):
        pass
    with jax.enable_x64():
        pass
    return tree_map(lambda p: 0.5 * p, params), leaves, total, y * 2, step, jit, Mesh


is_array = isinstance(jnp.ones(2), jax.Array)
standardized = jax.nn.standardize(jnp.ones(3)) * 2.0
