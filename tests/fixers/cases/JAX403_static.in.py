# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def pad_to(x, n):
    return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])


def add_positions(tokens, seq_len):
    return tokens + jnp.arange(seq_len)


add_positions_jit = jax.jit(add_positions)


@jax.jit
def take_prefix(x, n):
    return x[:n]


@jax.jit
def window(x, start):
    width = 4
    return x[start : start + width]


@jax.jit
def from_data(x):
    n = x.sum().astype(int)
    return jnp.ones((n, 2))  # no fix
