# `functools.partial` made inside traced code binds the values it is given: a tracer bound there
# reaches the function as a tracer when the partial is called, or run as a `lax` body (measured
# with JAX 0.10.2: each marked line raises `ConcretizationTypeError`). A Python value bound
# there stays one.
import functools

import jax
import jax.numpy as jnp


def take_first(x, n):
    k = int(n)  # error: JAX503
    return x[:k]


def scale_by(factor, x):
    return x * float(factor)  # error: JAX503


def repeat(x, times):
    return jnp.tile(x, int(times))


def step(scale, carry, x):
    return carry + x * float(scale), None  # error: JAX503


@jax.jit
def by_keyword(x, n):
    first = functools.partial(take_first, n=n)
    return first(x)


@jax.jit
def by_position(x, factor):
    scaled = functools.partial(scale_by, factor)
    return scaled(x)


@jax.jit
def static_bound(x):
    repeated = functools.partial(repeat, times=x.shape[0])  # a shape: a Python int
    return repeated(x)


@jax.jit
def scanned(xs, scale):
    total, _ = jax.lax.scan(functools.partial(step, scale), 0.0, xs)
    return total


if __name__ == "__main__":
    x = jnp.arange(4.0)
    for hazard in (lambda: by_keyword(x, 3), lambda: by_position(x, 2.0), lambda: scanned(x, 2.0)):
        try:
            hazard()
        except jax.errors.ConcretizationTypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise ConcretizationTypeError")
    assert jnp.array_equal(static_bound(x), jnp.tile(x, 4))
    print("ok")
