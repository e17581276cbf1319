# A tuple (or list) `in_axes` gives one entry per positional argument: another count raises
# `ValueError` under `vmap` and `pmap`; keyword arguments are not counted (measured with
# JAX 0.10.2).
from functools import partial

import jax
import jax.numpy as jnp

a = jnp.ones((1, 2))


def render(origins, directions, near=1.0):
    return origins + near * directions


batched = jax.vmap(render, in_axes=(0, 0))


@partial(jax.vmap, in_axes=(0, None, None))
def decorated(origins, directions, near):
    return origins + near * directions


def too_many():
    return batched(a, a, 0.5)  # error: JAX410


def too_few():
    return decorated(a, a)  # error: JAX410


def on_the_spot():
    return jax.vmap(render, (0, 0, None))(a, a)  # error: JAX410


def as_a_list():
    return jax.vmap(render, in_axes=[0, None])(a, a, 2.0)  # error: JAX410


def parallel():
    return jax.pmap(render, in_axes=(0, 0))(a, a, a)  # error: JAX410


def compiled_too():
    return jax.jit(batched)(a, a, 0.5)  # error: JAX410


# near misses


def matching():
    return batched(a, a), decorated(a, a, 2.0), jax.vmap(render, in_axes=[0, 0])(a, a)


def keyword_not_counted():
    return jax.vmap(render, in_axes=(0, None))(a, a[0], near=jnp.ones(1))


def unpacked(arguments):
    return batched(*arguments)


def one_int():
    return jax.vmap(render, in_axes=0)(a, a, a)


def bound():
    return partial(batched, a)(a)


if __name__ == "__main__":
    matching(), keyword_not_counted(), unpacked((a, a)), one_int(), bound()
    for failing in (too_many, too_few, on_the_spot, as_a_list, parallel, compiled_too):
        try:
            failing()
        except ValueError:
            pass
        else:
            raise AssertionError(f"{failing.__name__}: expected ValueError")
    print("as labelled")
