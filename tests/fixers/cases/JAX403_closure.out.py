# fix: unsafe
import jax
import jax.numpy as jnp
import functools


@functools.partial(jax.jit, static_argnames=("n",))
def grid(n):
    def inner():
        buf = jnp.linspace(0.0, 1.0, n)
        return n + jnp.sum(buf).astype(jnp.int32)

    return inner()


@functools.partial(jax.jit, static_argnames=("flag",))
def scaled(x, flag):
    def inner(y):
        if flag:
            return y * 2
        return y

    return inner(x)


@functools.partial(jax.jit, static_argnames=("n",))
def deeper(x, n):
    def outer():
        def innermost():
            return jnp.zeros(n) + x

        return innermost()

    return outer()


@jax.jit
def rebound(x, n):
    n = n + 1

    def inner():
        return jnp.zeros(n) + x  # no fix: `n` is rebound, a static `n` would not reach here unchanged

    return inner()


@jax.jit
def as_array(x, n):
    def inner():
        return jnp.zeros(n) + x  # no fix: `n` is read as an array below, which cannot be static

    return inner() + n.shape[0]


def eager(x, n):
    def inner():
        return jnp.zeros(n) + x  # no fix: nothing jits `eager`

    return jax.vmap(lambda _: inner())(x)
