import jax
import jax.numpy as jnp
from jax import tree_map  # error: JAX609
from jax.experimental.maps import Mesh  # error: JAX609
from jax.experimental.pjit import pjit  # error: JAX609
from jax.experimental.shard_map import shard_map  # error: JAX609
from jax.ops import index_add  # error: JAX609
from jax.tree_util import tree_flatten, tree_map as tm


def scale(params, key: jax.random.KeyArray):  # error: JAX609
    x = jnp.zeros(3)
    x = jax.ops.index_update(x, jax.ops.index[0], 1.0)  # error: JAX609
    x = index_add(x, 1, 2.0)  # error: JAX609
    y = jax.lax.tie_in(x, x + 1)  # error: JAX609
    leaves = jax.tree_leaves(params)  # error: JAX609
    total = jnp.product(x) + jnp.alltrue(x)  # error: JAX609, JAX609
    step = pjit(lambda v: v, in_shardings=None)
    sharded = shard_map(lambda v: v, Mesh, None, None)
    with jax.experimental.enable_x64():  # error: JAX609
        pass
    return tree_map(lambda p: 0.5 * p, params), leaves, total, y, step, sharded


is_array = isinstance(jnp.ones(2), jnp.DeviceArray)  # error: JAX609


# --- near misses ---


def numpy_clean_up(x, y):
    found = jnp.in1d(x, y)  # error: JAX609
    low = jnp.NINF  # error: JAX609
    lower = jax.scipy.linalg.tril(x)  # error: JAX609
    return found, low, lower, jnp.isin(x, y).ravel(), -jnp.inf, jnp.tril(x)


def pmap_era(x):
    replicated = jax.device_put_replicated(x, jax.devices())  # error: JAX609
    return replicated, jax.device_put(x)


def current(params):
    leaves, treedef = tree_flatten(params)
    return tm(lambda p: p, params), jax.tree.map(lambda p: p, params), jax.tree_util.tree_leaves(params), leaves, treedef


def local_names(tree_map, jnp):
    return tree_map(lambda p: p, {}), jnp.DeviceArray


def monkeypatch_for_old_code():
    jax.tree_map = jax.tree.map  # a store, not a use


def spelled_in_strings():
    return getattr(jax, "tree_map", None), hasattr(jax.random, "KeyArray")
