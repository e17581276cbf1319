# fix: unsafe
import jax
import jax.numpy as jnp

CLASS_IDS = [3, 7, 11, 19]


@jax.jit
def flip_known(label):
    if label not in (3, 7):
        return label
    return -label


@jax.jit
def scale_known(label, x):
    return x if label in [1, 2] else -x


@jax.jit
def flip_listed(label):
    if label in CLASS_IDS:  # no fix: `jnp.isin` needs the items written out here
        return label
    return -label


print(flip_known(jnp.int32(7)), scale_known(jnp.int32(1), jnp.ones(2)), flip_listed(jnp.int32(7)))
