# fix: unsafe
import jax
import numpy as np
import jax.numpy as jnp


@jax.jit
def step(x, m):
    scale = x.astype(float)
    steps = (x * 3).astype(int)
    positive = x > 0
    flag = x.astype(bool) + 1
    single = m.sum(axis=0).reshape(())
    row = m[jax.numpy.argmax(m.sum(axis=1)).astype(int)]
    y = x * scale * steps * jnp.where(positive, 2.0, 1.0) * single * flag
    return y, row


@jax.jit
def to_numpy(x):
    arr = jnp.asarray(x)
    z = jnp.float32(x)
    return arr.mean() * z


def helper(x):
    return jnp.array(x) + 1


@jax.jit
def calls_helper(x):
    return helper(x) + x.tolist()  # no fix
