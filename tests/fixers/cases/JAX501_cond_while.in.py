# fix: unsafe
import jax
import jax.numpy as jnp


def expensive(v):
    return jnp.fft.fft(v).real


@jax.jit
def branchy(x, y):
    if x.sum() > 0:  # positive mass
        z = expensive(x)
        w = z * 2
    else:  # fall back to y
        z = y
        w = y
    return z + w


@jax.jit
def doubling_steps(x):
    steps = 0
    while x < 100.0:  # until large
        x = x * 2.0  # double
        steps += 1
    return x, steps


@jax.jit
def early_exit(x):
    while x < 10:  # no fix
        if x > 5:  # no fix
            break
        x = x + 1
    return x


@jax.jit
def clipped_steps(x, y):
    while x < 10:
        if x > 5:
            y = y * 2
        x = x + 1
    return x, y


@jax.jit
def bounded_doubling(x, y):
    while x < 100.0 or not y:
        x = x * 2.0
    return x
