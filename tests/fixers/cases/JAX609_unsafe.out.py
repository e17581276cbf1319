# fix: unsafe
import jax
from jax.experimental import pjit as pjit_lib
from jax.experimental.shard_map import shard_map  # no fix


def update(x, i, y, log):
    x = x.at[i].max(y)
    z = y * 2
    f = pjit_lib.pjit(lambda v: v, None, None)  # no fix
    g = shard_map(lambda v: v, None, None, None)
    return x, z, f, g
