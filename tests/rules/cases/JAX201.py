import jax
import jax.numpy as jnp


def set_first(x):
    x[0] = 10.0  # error: JAX201
    return x


def relu_inplace(x):
    x[x < 0] = 0.0  # error: JAX201
    return x


def fresh_array(n):
    buf = jnp.zeros(n)
    buf[1:3] = 1.0  # error: JAX201
    return buf


@jax.jit
def place_agent(grid, row, col):
    grid[row, col] = 1.0  # error: JAX201
    return grid


def annotated(x: jax.Array, y):
    x[0] = y  # error: JAX201
    return x


# --- near misses ---


def fill_list(values):
    values[0] = 1.0
    values.append(2.0)
    return values


def fill_dict(params):
    params["w"] = 1.0
    return params


@jax.jit
def decay_weights(params, rate):
    new_params = dict(params)
    new_params["w"] = params["w"] * (1.0 - rate)
    return new_params


def with_default(x=None, table=()):
    table[0] = 1
    return x


@jax.jit
def at_set(x):
    x = x.at[0].set(10.0)
    return x


def local_list():
    items = [0.0, 0.0]
    items[0] = 1.0
    return items


BUFFER = jnp.zeros(3)


@jax.jit
def write_global(x):
    BUFFER[0] = x  # error: JAX201 (fixed into a new local name: `BUFFER = ...` would make the global local)
    return BUFFER


@jax.jit
def zero_bias(params, x):
    params["b"][0] = 0.0  # error: JAX201 (unsafe fix: params["b"] = params["b"].at[0].set(0.0))
    return x @ params["w"] + params["b"]

