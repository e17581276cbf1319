# fix: safe
import functools

import jax
import numpy as np
import jax.numpy as jnp


@jax.jit
def softplus(x):
    return jnp.log1p(jnp.exp(x))


@functools.partial(jax.jit, static_argnames=("axis",))
def normalized(x, axis):
    return x / jnp.linalg.norm(x, axis=axis, keepdims=True)


@jax.jit
def nested(x):
    def inner(v):
        return jnp.tanh(v) * 2.0

    return inner(x)


@jax.jit
def with_out(x, buffer):
    return np.exp(x, out=buffer)  # no fix


def helper(x):
    return jnp.maximum(x, 0.0)  # fixed: only jitted code calls it


@jax.jit
def calls_helper(x):
    return helper(x) + 1.0


def also_eager(x):
    return np.minimum(x, 0.0)  # no fix: it also runs eagerly, where NumPy worked


@jax.jit
def calls_also_eager(x):
    return also_eager(x) + 1.0


print(also_eager(np.ones(2)))


def scan_body(carry, x):
    return carry + jnp.sin(x), None  # fixed: a `lax.scan` body


def run_scan(xs):
    return jax.lax.scan(scan_body, 0.0, xs)


class Model:
    def apply(self, x):
        return jnp.cos(x)  # fixed: jitted as a bound method


model = Model()
apply_jitted = jax.jit(model.apply)


def loss(w):
    return jax.numpy.sum(jnp.exp(w))  # fixed: only `jax.grad` runs it, where NumPy met a tracer


grad_of_loss = jax.grad(loss)


def energy(x):
    return jnp.square(x) * 0.5  # fixed: run only under `vmap` of `grad`


per_example = jax.vmap(jax.grad(energy))


def logged(x):
    return np.cosh(x) * 1.0  # no fix: it also runs eagerly, where NumPy worked


slope = jax.grad(logged)(1.0)
print(logged(np.ones(2)))


@jax.custom_jvp
def smooth(x):
    return jnp.maximum(x, 0.0)  # fixed: only jitted, its rule runs where it is traced


@smooth.defjvp
def smooth_jvp(primals, tangents):
    return smooth(primals[0]), tangents[0]


smooth_step = jax.jit(smooth)


@jax.custom_jvp
def rough(x):
    return np.minimum(x, 0.0)  # no fix: a bare `grad` runs its rule, which calls it on concrete values


@rough.defjvp
def rough_jvp(primals, tangents):
    return rough(primals[0]), tangents[0]


rough_slope = jax.grad(rough)(1.0)
