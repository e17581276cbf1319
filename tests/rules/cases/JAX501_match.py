# `match` on a traced value: a value pattern (`case 0:`) compares with `==` and takes the truth
# of the result, which raises on a tracer. A class, sequence, mapping or `None` pattern only asks
# what the value is (measured with JAX 0.10.2).
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def activate(x, kind):
    match kind:  # error: JAX501
        case 0:
            return jax.nn.relu(x)
        case 1:
            return jnp.tanh(x)
        case _:
            return x


def helper(x, level):
    match level:  # error: JAX501
        case 1 | 2:
            return x * 2.0
    return x


@jax.jit
def calls_helper(x, level):
    return helper(x, level)


# near misses


@partial(jax.jit, static_argnames=("kind",))
def activate_static(x, kind):
    match kind:
        case 0:
            return jax.nn.relu(x)
        case _:
            return x


@jax.jit
def by_rank(x):
    match x.ndim:
        case 1:
            return x * 2.0
        case _:
            return x


@jax.jit
def by_type(x, scale):
    match scale:
        case None:
            return x
        case float():
            return x * scale
        case [a, b]:
            return x * a * b
        case _:
            return x + scale


if __name__ == "__main__":
    x = jnp.array([-1.0, 2.0])
    print(activate_static(x, 0), by_rank(x), by_type(x, jnp.float32(2.0)))
    for failing in (lambda: activate(x, 1), lambda: calls_helper(x, 1)):
        try:
            failing()
        except jax.errors.TracerBoolConversionError:
            print("TracerBoolConversionError")
        else:
            raise AssertionError("expected TracerBoolConversionError")
