# Some parameters are checked to be Python numbers: `axes` of `jnp.tensordot` ("must be an int,
# a pair of ints"), `series_order` of `jax.scipy.special.log_ndtr`. A tracer there raises
# `TypeError` (measured with JAX 0.10.2 by tools/measure_jax_api.py).
from functools import partial

import jax
import jax.numpy as jnp
from jax.scipy.special import log_ndtr


@jax.jit
def contract(a, b, n_axes):
    return jnp.tensordot(a, b, axes=n_axes)  # error: JAX403


@jax.jit
def tail_log_prob(x, order):
    return log_ndtr(x, series_order=order)  # error: JAX403


# near misses


@partial(jax.jit, static_argnames=("n_axes",))
def contract_static(a, b, n_axes):
    return jnp.tensordot(a, b, axes=n_axes)


@jax.jit
def contract_last(a, b):
    return jnp.tensordot(a, b, axes=1)


if __name__ == "__main__":
    a, b = jnp.ones((2, 3)), jnp.ones((3, 4))
    for hazard in (lambda: contract(a, b, 1), lambda: tail_log_prob(jnp.ones(2), 3)):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError("expected TypeError")
    assert contract_static(a, b, n_axes=1).shape == (2, 4)
    assert contract_last(a, b).shape == (2, 4)
    print("ok")
