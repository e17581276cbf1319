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


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    hidden_jit = fns["jax"].jit
    x = jnp.ones(3)
    source = open(__file__).read().splitlines()
    first_stacked = source[25].strip()  # `stacked` at line 25, shadowed by line 47
    assert first_stacked.startswith("return np.concatenate([x, 2 * x])")
    for hazard in (
        lambda: fns["softplus"](x),  # line 11: np.exp raises first
        lambda: hidden_jit(lambda v: np.log1p(v))(x),  # line 11's outer call, on a tracer
        lambda: fns["normalized"](jnp.ones((2, 2)), axis=0),
        lambda: fns["gate"](x, x),
        lambda: hidden_jit(lambda x: eval(first_stacked[len("return "):].split("  #")[0]))(x),
        lambda: fns["calls_helper"](x),
        lambda: fns["total"](jnp.ones((2, 2))),
        lambda: fns["stacked"](x),
        lambda: fns["loss_grad"](jnp.ones(2), jnp.ones((3, 2))),
    ):
        try:
            hazard()
        except jax.errors.TracerArrayConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerArrayConversionError")
    # line 101: np.array_equal answers False on tracers, so equal values take the other branch
    picked = fns["same_as_reference"](jnp.ones(3, dtype=jnp.int32), jnp.ones(3, dtype=jnp.float32))
    assert picked.dtype == jnp.float32  # `reference`, though the values are equal
    assert np.array_equal(jnp.ones(3, dtype=jnp.int32), jnp.ones(3, dtype=jnp.float32))  # eagerly: True
    # near misses
    assert float(fns["sums_with_numpy"](x)) == 3.0
    assert fns["methods_work_on_tracers"](jnp.ones((2, 2))).tolist() == [10.0, 10.0]
    assert fns["static_shapes"](jnp.ones((2, 2))).shape == (4, 1)
    assert jnp.allclose(fns["jnp_everywhere"](x), np.log1p(np.e))
    assert np.allclose(fns["eager"](x), np.e)
    assert fns["conversion"](x).tolist() == [2.0, 2.0, 2.0]
    assert jnp.allclose(fns["on_the_host"](x), np.e)
    assert jnp.allclose(fns["numpy_alias_is_jax"](x), np.e)
    assert bool(fns["same_shape"](x))
    assert fns["stable_grad"](jnp.ones(2), jnp.ones((3, 2))).shape == (2,)
    print("ok")
