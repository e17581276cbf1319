# fix: safe
import jax
import jax.numpy as jnp


@jax.jit
def place_agent(grid, row, col):
    grid = grid.at[row, col].set(1.0)
    return grid


def fresh(n):
    buf = jnp.zeros(n)
    buf = buf.at[1:3].set((
        1.0  # a comment inside the value
    ))
    return buf


def relu(x):
    x = jnp.asarray(x)
    x = jnp.where(x < 0, jnp.zeros_like(x), x)  # an int literal keeps the dtype: safe
    return x


def eager_param(x):
    x[0] = 10.0  # no fix
    return x


def aliased():
    a = jnp.zeros(3)
    b = a
    a[0] = 1.0  # no fix
    return a, b


def chained():
    a = jnp.zeros(3)
    c = a[0] = 1.0  # no fix
    return a, c
