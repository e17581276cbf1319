# A jitted function's parameter is a pytree of unknown shape until a call says more: eager code
# passing it a JAX (or NumPy) array makes it a traced array there. Then `sorted(x)`, `max(x)`
# and `v in x` compare its elements and ask Python for the truth of a tracer (measured with
# JAX 0.10.2: each marked line raises `TracerBoolConversionError`). Over a dict they are fine.
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def median3(x):
    s = sorted(x)  # error: JAX503
    return s[1]


@jax.jit
def has_pad(tokens):
    if 0 in tokens:  # error: JAX503
        return tokens + 1
    return tokens


@jax.jit
def largest(scores):
    return max(scores)  # error: JAX503


@jax.jit
def first_layer(params):
    names = sorted(params)  # a dict: its keys are sorted
    return params[names[0]]


@jax.jit
def padded(tokens):
    if 0 in tokens.shape:  # a shape: a tuple of Python ints
        return tokens
    return jnp.any(tokens == 0)


def smallest(x):
    s = sorted(x)  # under `grad` alone, or `vmap` with `x` unmapped: concrete elements
    return s[0] + max(x)


if __name__ == "__main__":
    for hazard in (
        lambda: median3(jnp.array([3.0, 1.0, 2.0])),
        lambda: has_pad(jnp.array([3, 0, 2])),
        lambda: largest(np.array([1.0, 5.0])),
    ):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    assert jnp.array_equal(first_layer({"a": jnp.ones(2), "b": jnp.zeros(2)}), jnp.ones(2))
    assert bool(padded(jnp.array([3, 0, 2])))
    assert jnp.array_equal(jax.grad(smallest)(jnp.array([3.0, 1.0])), jnp.ones(2))
    assert jnp.array_equal(jax.vmap(smallest, in_axes=None, axis_size=2)(jnp.array([3.0, 1.0])), jnp.full(2, 4.0))
    print("ok")
