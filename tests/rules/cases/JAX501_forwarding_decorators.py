# `jax.jit` over a decorator of the project that forwards every call (`return fn(*args,
# **kwargs)` in a `functools.wraps` wrapper) traces the wrapper, which calls the decorated
# function with the same, traced, arguments. A wrapper that changes the arguments is not
# transparent: what it passes may be a Python value (measured with JAX 0.10.2).
import functools
import time
from functools import wraps

import jax
import jax.numpy as jnp


def logged(fn):
    """Log each call."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def timed(func):
    @wraps(func)
    def inner(*args):
        start = time.perf_counter()
        out = func(*args)
        del start
        return out

    return inner


def evaluating(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args, training=False)

    return wrapper


def unwrapped(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def with_eval_mode(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, training=False, **kwargs)

    return wrapper


@jax.jit
@logged
def clipped(x):
    if x.sum() > 0:  # error: JAX501
        return x
    return -x


@jax.jit
@timed
def scaled(x, n):
    if n > 1:  # error: JAX501
        return x * n
    return x


def shifted(x):
    if x[0] > 0:  # error: JAX501
        return x - 1
    return x


shifted_fast = jax.jit(logged(shifted))


@jax.jit
@with_eval_mode
def dropout(x, training):
    if training:  # a Python False from the wrapper
        return x * 0.5
    return x


@jax.jit
@unwrapped
def hidden(x):
    if x.sum() > 0:  # raises, but without `functools.wraps` the signature JAX reads is hidden
        return x
    return -x


@jax.jit
@evaluating
def noisy(x, training):
    if training:  # a Python False from the wrapper
        return x + 1
    return x


@logged
def eager(x):
    if x.sum() > 0:  # not traced: called as it is
        return x
    return -x


def main():
    x = jnp.arange(3.0)
    return clipped(x), scaled(x, 2), shifted_fast(x), dropout(x), noisy(x), eager(x)


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.arange(3.0)
    for hazard in (
        lambda: fns["clipped"](x),
        lambda: fns["scaled"](x, 2),
        lambda: fns["shifted_fast"](x),
    ):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    assert jnp.array_equal(fns["dropout"](x), x)
    assert jnp.array_equal(fns["noisy"](x), x)
    assert jnp.array_equal(fns["eager"](x), x)
    print("ok")
