# fix: safe
import jax
import jax.numpy as jnp
from jax import jit, tree_map
from jax.experimental.maps import Mesh
from jax.experimental.pjit import pjit
from jax.ops import index_update
from jax import tree_leaves as tl, tree_structure
from jax.ops import index_add, index_max


def scale(params, key: jax.random.KeyArray):
    x = jnp.zeros(3)
    x = jax.ops.index_update(x, jax.ops.index[0], 1.0)
    x = index_update(x, 1, 2.0, True)
    y = jax.lax.tie_in(params, x + 1)
    leaves = jax.tree_leaves(params)
    leaves_too = tl(params), tree_structure(params)
    x = index_max(index_add(x, 0, 1.0), 1, 0.0)
    total = jnp.product(x) + jnp.alltrue(x)
    step = pjit(lambda v: v, in_shardings=None)
    with jax.experimental.disable_x64():
        pass
    with jax.experimental.enable_x64():
        pass
    return tree_map(lambda p: 0.5 * p, params), leaves, leaves_too, total, y * 2, step, jit, Mesh


is_array = isinstance(jnp.ones(2), jnp.DeviceArray)
standardized = jax.nn.normalize(jnp.ones(3)) * jax.lax.tie_in(is_array, 2.0)
