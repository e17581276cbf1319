# `jax.vmap` maps every positional argument whose `in_axes` entry is an integer (0 by default)
# and every keyword argument along axis 0: a Python number has no axis, so JAX raises
# `ValueError` ("its rank should be at least 1, but is only 0"), measured with JAX 0.10.2, also
# under `jax.jit`. `None` in `in_axes` leaves a position unmapped.
from functools import partial

import jax
import jax.numpy as jnp

SCALE = 2.0


def scaled_norm(v, scale):
    return scale * jnp.linalg.norm(v)


@jax.vmap
def shifted(v, shift):
    return v + shift


@partial(jax.vmap, in_axes=(0, None))
def unmapped_shift(v, shift):
    return v + shift


batch = jnp.ones((5, 3))
compiled_norm = jax.jit(jax.vmap(scaled_norm, in_axes=0))


def positional():
    return jax.vmap(scaled_norm)(batch, 2.0)  # error: JAX406


def keyword():
    return jax.vmap(scaled_norm, in_axes=(0,))(batch, scale=2.0)  # error: JAX406


def decorated():
    return shifted(batch, SCALE)  # error: JAX406


def compiled():
    return compiled_norm(batch, True)  # error: JAX406


def zero_d_array():
    temperature = jnp.asarray(0.5)
    return jax.vmap(scaled_norm)(batch, temperature)  # error: JAX406


def typed_scalar():
    return jax.vmap(scaled_norm)(batch, jnp.float32(2.0))  # error: JAX406


# near misses


def one_d_array():
    return jax.vmap(scaled_norm)(batch, jnp.asarray([1.0, 2.0, 3.0, 4.0, 5.0]))


def unmapped():
    return jax.vmap(scaled_norm, in_axes=(0, None))(batch, 2.0)


def unmapped_decorated():
    return unmapped_shift(batch, SCALE)


def closed_over():
    return jax.vmap(lambda v: scaled_norm(v, 2.0))(batch)


def array_argument():
    return jax.vmap(scaled_norm)(batch, jnp.full(5, 2.0))


if __name__ == "__main__":
    print(unmapped(), unmapped_decorated(), closed_over(), array_argument(), one_d_array())
    for failing in (positional, keyword, decorated, compiled, zero_d_array, typed_scalar):
        try:
            failing()
        except ValueError as error:
            print("ValueError:", str(error)[:60])
        else:
            raise AssertionError("expected ValueError")
