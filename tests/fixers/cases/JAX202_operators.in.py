# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def bump(counts, i):
    counts[i] += 1
    return counts


@jax.jit
def scale_first_column(m):
    m[:, 0] *= 2.0
    m[0, :] -= 1.0
    m[1] /= 3.0
    m[2] **= 2
    m[3] //= 2
    m[4] %= 5
    return m


def decrement_last(x):
    x[-1] -= 1
    return x
