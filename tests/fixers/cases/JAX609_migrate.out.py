# fix: safe
import jax
import jax.numpy as jnp
from jax.tree import map as tree_map
from jax import jit
from jax.sharding import Mesh
from jax import jit as pjit
from jax.tree import leaves as tl
from jax.tree import structure as tree_structure


def scale(params, key: jax.Array):
    x = jnp.zeros(3)
    x = x.at[0].set(1.0)
    x = x.at[1].set(2.0, indices_are_sorted=True)
    y = x + 1
    leaves = jax.tree.leaves(params)
    leaves_too = tl(params), tree_structure(params)
    x = x.at[0].add(1.0).at[1].max(0.0)
    total = jnp.prod(x) + jnp.all(x)
    step = pjit(lambda v: v, in_shardings=None)
    with jax.enable_x64(False):
        pass
    with jax.enable_x64():
        pass
    return tree_map(lambda p: 0.5 * p, params), leaves, leaves_too, total, y * 2, step, jit, Mesh


is_array = isinstance(jnp.ones(2), jax.Array)
standardized = jax.nn.standardize(jnp.ones(3)) * 2.0
