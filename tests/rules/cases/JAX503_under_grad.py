"""Under a bare `jax.grad` the differentiated argument is a JVP tracer carrying a concrete value
(measured with JAX 0.10.2): `if`, `bool()`, `int()`, `.item()` and `max` read the value; `float()`,
`complex()`, `math.*`, `.tolist()` and NumPy conversions raise; stores leak the tracer."""

import math

import jax
import jax.numpy as jnp
import numpy as np

history = []


def loss(x, scale):
    if x > 0:  # ok: Python control flow works on JVP tracers
        x = x * 2.0
    steps = int(x)  # ok
    positive = bool(x > 0)  # ok
    first = x.item()  # ok
    bound = max(x, 0.0)  # ok
    a = float(x)  # error: JAX503
    b = math.sqrt(x)  # error: JAX503
    c = x.tolist()  # error: JAX503
    d = np.asarray(x)  # error: JAX503
    e = np.maximum(x, 0.0)  # error: JAX602
    history.append(x)  # error: JAX104
    f = float(scale)  # ok: not differentiated (argnums=0), a plain value
    return jnp.sum(x) * steps * positive * first * bound * a * b * f + c + d + e


def loss_in_place(w):
    w[0] = 1.0  # error: JAX201
    return jnp.sum(w)


def train(x, w):
    return jax.grad(loss)(x, 2.0), jax.value_and_grad(loss_in_place)(w)


@jax.jit
def compiled(x):
    return jax.grad(loss_in_place)(x)


class Parameter:
    """A stand-in for an external object whose setter takes plain floats (jax#9085)."""

    def __init__(self, name):
        self.name = name
        self.value = 0.0

    def set_value(self, v):
        self.value = float(v)  # error: JAX503

    def set_label(self, label):
        self.name = str(label)  # ok: a static string


class Workspace:
    def parameter(self, name):
        return Parameter(name)


workspace = Workspace()


def likelihood(mu):
    alpha = workspace.parameter("alpha")
    alpha.set_value(mu[1])
    alpha.set_label("alpha")
    return mu[0] + alpha.value


def fit(mu):
    return jax.grad(likelihood)(mu)
