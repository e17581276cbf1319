# A key reshaped, squeezed, copied or given a new axis is the same key: drawing from both draws
# the same bits (JAX's key-reuse checker follows it too). Views of distinct keys stay distinct.
import jax
import jax.numpy as jnp


def reshaped(key):
    column = key.reshape((1,))
    return jax.random.bits(key) + jax.random.bits(column.squeeze())  # error: JAX301


def new_axis(key):
    return jax.random.bits(key) + jax.random.bits(key[None][0])  # error: JAX301


def through_jnp(key):
    row = jnp.reshape(key, (1,))
    return jax.random.normal(key) + jax.random.normal(row[0])  # error: JAX301


def views_of_two_keys(key):
    k1, k2 = jax.random.split(key)
    column = k1.reshape((1,))
    return jax.random.normal(column[0]) + jax.random.normal(k2)


def rows_of_a_key_grid(key):
    grid = jax.random.split(key, 4).reshape((2, 2))
    return jax.random.normal(grid[0, 0]) + jax.random.normal(grid[1, 1])


@jax.jit
def copied_params(params, key):
    noisy = params.copy()  # a dict: its copy takes new entries
    noisy["w"] = params["w"] + jax.random.normal(key, params["w"].shape)
    return noisy


def reshaped_reference(out_ref, key):
    view = out_ref.reshape((2, 2))  # a mutable reference (a Pallas ref): it takes item stores
    view[0] = jax.random.normal(key, (2,))
