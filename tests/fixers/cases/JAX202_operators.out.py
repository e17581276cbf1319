# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def bump(counts, i):
    counts = counts.at[i].add(1)
    return counts


@jax.jit
def scale_first_column(m):
    m = m.at[:, 0].multiply(2.0)
    m = m.at[0, :].subtract(1.0)
    m = m.at[1].divide(3.0)
    m = m.at[2].power(2)
    m = m.at[3].set(m[3] // 2)
    m = m.at[4].set(m[4] % 5)
    return m


def decrement_last(x):
    x = x.at[-1].subtract(1)
    return x
