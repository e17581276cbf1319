# fix: unsafe
import jax
import numpy as np
import jax.numpy as jnp


@jax.jit
def step(x, m):
    scale = x.astype(float)
    steps = (x * 3).astype(int)
    positive = x > 0
    flag = bool(x) + 1  # no fix: `flag` is summed with Python numbers only
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


TABLE = [1.0, 2.0, 3.0]


@jax.jit
def wanted_as_python_values(i, n, x):
    counts = jax.numpy.zeros(int(n))  # no fix: a shape
    return TABLE[int(i)] + counts.sum() + np.float64(x)  # no fix
