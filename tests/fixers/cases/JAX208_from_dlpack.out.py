# fix: safe
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def normalize(frames):
    return (frames - frames.mean()) / (frames.std() + 1e-6)


host = np.array(normalize(jnp.arange(12.0).reshape(3, 4)))  # on the host
host[:, 0] = 0.0
assert (host[:, 0] == 0.0).all()
