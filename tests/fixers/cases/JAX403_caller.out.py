# fix: unsafe
import jax
import jax.numpy as jnp
import functools


def zeros_like_n(x, n):
    return jnp.zeros(n) + x.sum()


@functools.partial(jax.jit, static_argnames=("n",))
def pads(x, n):
    return zeros_like_n(x, n)


def branchy(x, training):
    if training:
        return x * 2
    return x


@functools.partial(jax.jit, static_argnames=("training",))
def trains(x, training):
    return branchy(x, training=training)


def repeat(x, times):
    def body_fun(_, x):
        x = x * 2
        return x
    x = jax.lax.fori_loop(0, times, body_fun, x)
    return x


@jax.jit
def repeats(x, times):
    return repeat(x, times)


def shared(x, n):
    return jnp.ones(n) * x  # no fix: two jitted callers


@jax.jit
def first(x, n):
    return shared(x, n)


@jax.jit
def second(x, m):
    return shared(x, m)


def with_an_array(x, n):
    return jnp.ones(n) * x  # no fix: the caller reads n as an array


@jax.jit
def array_caller(x, n):
    return with_an_array(x, n) + n.shape[0]


def also_eager(x, n):
    return jnp.ones(n) * x  # no fix: named outside the jitted caller too


@jax.jit
def traced_caller(x, n):
    return also_eager(x, n)


handle = also_eager


def slice_of(n):
    return jax.lax.dynamic_slice(jnp.arange(8.0), (0,), (n,))


def through(n):
    return slice_of(n)


@functools.partial(jax.jit, static_argnames=("n",))
def two_helpers_down(n):
    return through(n)


def slice_again(n):
    return jax.lax.dynamic_slice(jnp.arange(8.0), (0,), (n,))  # no fix: the helper above rebinds `n`


def shifted(n):
    n = n + 1
    return slice_again(n)


@jax.jit
def rebinds_on_the_way(n):
    return shifted(n)


def zeros_of(x, n):
    return jnp.zeros(n) + x  # no fix: `inner_jit` is called from jitted `outer_jit`, which passes a tracer


@jax.jit
def inner_jit(x, n):
    return zeros_of(x, n)


@jax.jit
def outer_jit(x, n):
    return inner_jit(x, n) * 2
