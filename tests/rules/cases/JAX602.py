import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@jax.jit
def softplus(x):
    return np.log1p(np.exp(x))  # error: JAX602, JAX602


@functools.partial(jax.jit, static_argnames=("axis",))
def normalized(x, axis):
    return x / np.linalg.norm(x, axis=axis, keepdims=True)  # error: JAX602


@jax.vmap
def gate(x, y):
    return np.where(x > 0, x, y)  # error: JAX602


@jax.jit
def stacked(x):
    return np.concatenate([x, 2 * x])  # error: JAX602


def helper(x):
    return np.maximum(x, 0.0)  # error: JAX602


@jax.jit
def calls_helper(x):
    return helper(x) + 1.0


def scan_body(carry, x):
    return carry + np.dot(x, x), None  # error: JAX602


def total(xs):
    return lax.scan(scan_body, 0.0, xs)


@jax.jit
def stacked(x):
    return np.stack([x, x])  # error: JAX602


# --- near misses ---


@jax.jit
def sums_with_numpy(x):
    return np.sum(x)  # np.sum calls the array's own method: it works on a tracer


@jax.jit
def methods_work_on_tracers(x):
    # NumPy calls the array's own method: these work under jit.
    return np.sum(x) + np.mean(x, axis=0) + np.max(x) + np.reshape(x, (-1,)).sum()


@jax.jit
def static_shapes(x):
    return x.reshape(np.prod(x.shape), -1) * np.sqrt(x.shape[0])


@jax.jit
def jnp_everywhere(x):
    return jnp.log1p(jnp.exp(x))


def eager(x):
    return np.exp(np.asarray(x))


@jax.jit
def conversion(x):
    return jnp.asarray(x) * np.float32(2.0)


@jax.jit
def on_the_host(x):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(lambda v: np.exp(v), shape, x)  # the callback runs on NumPy arrays


import jax.numpy as np2


@jax.jit
def numpy_alias_is_jax(x):
    return np2.exp(x)


@jax.jit
def same_as_reference(x, reference):
    # measured: np.array_equal catches the conversion error and answers False on tracers
    if np.array_equal(x, reference):  # error: JAX602
        return x
    return reference


@jax.jit
def same_shape(x):
    return np.array_equal(x.shape, (3,))  # shapes are Python values: a true answer


def logistic_loss(w, x):
    logits = x @ w
    return np.log(jnp.exp(-logits) + 1.0).mean()  # error: JAX602 (a JVP tracer under grad)


def stable_loss(w, x):
    scale = np.log(x.shape[0])  # a shape: a Python number
    return jnp.mean(jnp.logaddexp(0.0, -(x @ w))) * scale


loss_grad = jax.grad(logistic_loss)
stable_grad = jax.grad(stable_loss)
