# fix: unsafe
import jax
import jax.numpy as jnp


def expensive(v):
    return jnp.fft.fft(v).real


@jax.jit
def branchy(x, y):
    def true_branch(x, y):  # positive mass
        z = expensive(x)
        w = z * 2
        return z, w
    def false_branch(x, y):  # fall back to y
        z = y
        w = y
        return z, w
    z, w = jax.lax.cond(x.sum() > 0, true_branch, false_branch, x, y)
    return z + w


@jax.jit
def doubling_steps(x):
    steps = 0
    def cond_fun(carry):
        x, steps = carry
        return x < 100.0
    def body_fun(carry):  # until large
        x, steps = carry
        x = x * 2.0  # double
        steps += 1
        return x, steps
    x, steps = jax.lax.while_loop(cond_fun, body_fun, (x, steps))
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
    def cond_fun(carry):
        y, x = carry
        return x < 10
    def body_fun(carry):
        y, x = carry
        y = jnp.where(x > 5, y * 2, y)
        x = x + 1
        return y, x
    y, x = jax.lax.while_loop(cond_fun, body_fun, (y, x))
    return x, y


@jax.jit
def bounded_doubling(x, y):
    def cond_fun(x):
        return jnp.logical_or(x < 100.0, jnp.logical_not(y))
    def body_fun(x):
        x = x * 2.0
        return x
    x = jax.lax.while_loop(cond_fun, body_fun, x)
    return x
