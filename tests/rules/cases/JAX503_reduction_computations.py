# `lax.reduce` and `lax.reduce_window` trace their `computation` on scalar tracers, eagerly
# too: a Python `max` or `if` on them raises (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
from jax import lax


def column_max(m):
    return lax.reduce(m, -jnp.inf, lambda a, b: max(a, b), (0,))  # error: JAX503


def larger(a, b):
    if a > b:  # error: JAX501
        return a
    return b


def pooled(m):
    return lax.reduce_window(m, -jnp.inf, larger, (2, 1), (1, 1), "VALID")


# near misses


def column_max_jnp(m):
    return lax.reduce(m, -jnp.inf, lambda a, b: jnp.maximum(a, b), (0,))


def pooled_lax(m):
    return lax.reduce_window(m, -jnp.inf, lax.max, (2, 1), (1, 1), "VALID")


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    scores = jnp.array([[0.1, 0.9], [0.7, 0.3], [0.5, 0.5]])
    assert raises(lambda: column_max(scores))
    assert raises(lambda: pooled(scores))
    assert bool(jnp.allclose(column_max_jnp(scores), jnp.array([0.7, 0.9])))
    assert pooled_lax(scores).shape == (2, 2)
    print("ok")
