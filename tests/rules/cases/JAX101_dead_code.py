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
