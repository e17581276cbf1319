"""Code that never runs is not reported: `if TYPE_CHECKING:`, a module flag bound once."""

import time
import typing
from typing import TYPE_CHECKING

import jax

DEBUG = False
VERBOSE = True
REBOUND = False


def enable():
    global REBOUND
    REBOUND = True


@jax.jit
def step(x):
    if DEBUG:
        print(x)  # ok: DEBUG is False
        time.time()  # ok
    if not DEBUG:
        y = x
    else:
        print("debug", y)  # ok
    if typing.TYPE_CHECKING:
        print(x)  # ok
    if VERBOSE:
        print(x)  # error: JAX101
    if REBOUND:  # error: JAX103
        print(x)  # error: JAX101 (enable() rebinds it at run time)
    return x


@jax.jit
def shadowed(x, DEBUG=True):
    if DEBUG:
        print(x)  # error: JAX101 (the parameter, not the module flag)
    return x


if TYPE_CHECKING:

    @jax.jit
    def never_defined(x):
        print(x)  # ok
        return x


@jax.jit
def sized(x, n):
    size = 3
    if DEBUG:
        size = n  # never runs: `size` stays a Python int
    return x + jax.numpy.zeros(size)  # ok


if __name__ == "__main__":
    import contextlib
    import io

    import jax.numpy as jnp

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        step(jnp.ones(2))
        step(jnp.ones(2))
    printed = out.getvalue().splitlines()
    assert len(printed) == 1 and "Tracer" in printed[0], printed  # once, at tracing, a tracer
    enable()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        step(jnp.ones(2))
    assert out.getvalue() == ""  # the compiled `step` still holds REBOUND = False
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        step(jnp.ones(3))  # a new shape: traced again, it reads REBOUND = True
    assert len(out.getvalue().splitlines()) == 2
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        shadowed(jnp.ones(2))
        shadowed(jnp.ones(2))
    printed = out.getvalue().splitlines()
    assert len(printed) == 1 and "Tracer" in printed[0], printed
    assert sized(jnp.ones(3), 5).tolist() == [1.0, 1.0, 1.0]
    print("ok")
