# fix: unsafe
import jax
import numpy as np


@jax.jit
def step(x, m):
    scale = float(x)
    steps = int(x * 3)
    positive = bool(x > 0)
    flag = bool(x) + 1  # no fix: `flag` is summed with Python numbers only
    single = m.sum(axis=0).item()
    row = m[int(jax.numpy.argmax(m.sum(axis=1)))]
    y = x * scale * steps * (2.0 if positive else 1.0) * single * flag
    return y, row


@jax.jit
def to_numpy(x):
    arr = np.asarray(x)
    z = np.float32(x)
    return arr.mean() * z


def helper(x):
    return np.array(x) + 1


@jax.jit
def calls_helper(x):
    return helper(x) + x.tolist()  # no fix


TABLE = [1.0, 2.0, 3.0]


@jax.jit
def wanted_as_python_values(i, n, x):
    counts = jax.numpy.zeros(int(n))  # no fix: a shape
    return TABLE[int(i)] + counts.sum() + np.float64(x)  # no fix
