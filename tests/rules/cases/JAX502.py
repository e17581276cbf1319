import functools

import jax
import jax.numpy as jnp


@jax.jit
def power_iterate(m, v, num_iters):
    for _ in range(num_iters):  # error: JAX502
        v = m @ v
        v = v / jnp.linalg.norm(v)
    return v


@jax.jit
def from_data(x):
    for i in range(0, x.argmax()):  # error: JAX502
        x = x + i
    return x


# --- near misses ---


@jax.jit
def sum_each_axis(x):
    totals = []
    for axis in range(x.ndim):
        totals.append(x.sum(axis=axis).sum())
    return jnp.stack(totals)


@functools.partial(jax.jit, static_argnames=("num_iters",))
def power_static(m, v, num_iters):
    for _ in range(num_iters):
        v = m @ v
    return v


@jax.jit
def over_rows(x):
    total = 0.0
    for i in range(len(x)):
        total = total + x[i]
    return total


# A parameter with a default keeps it where no call passes it; a call that passes it (keyword
# or position) hands `jit` a value to trace like any other.


@jax.jit
def power_knob(m, v, num_iters=15):
    for _ in range(num_iters):  # error: JAX502 (`power_knob(..., num_iters=30)` passes it)
        v = m @ v
    return v


@jax.jit
def power_default(m, v, num_iters=15):
    for _ in range(num_iters):  # ok: no call passes it, it stays the Python int 15
        v = m @ v
    return v


def power_rebound(m, v, num_iters=15):
    for _ in range(num_iters):  # error: JAX502 (passed by position below)
        v = m @ v
    return v


power_rebound = jax.jit(power_rebound)


def power_in_function(m, v):
    def iterate(m, v, steps=4):
        for _ in range(steps):  # error: JAX502
            v = m @ v
        return v

    iterate = jax.jit(iterate)
    return iterate(m, v, steps=8)


def run_knobs(m, v):
    return power_knob(m, v, num_iters=30), power_default(m, v), power_rebound(m, v, 5)


@jax.jit
def power_none(m, v, num_iters=None):
    steps = 4 if num_iters is None else num_iters
    for _ in range(steps):  # ok: the only call passes `None`, an empty pytree jit does not trace
        v = m @ v
    return v


@jax.jit
def power_mode(m, v, mode="fast"):
    for _ in range(2 if mode == "fast" else 4):  # ok: a string is never a tracer (jit rejects it)
        v = m @ v
    return v


def run_untraced_knobs(m, v):
    return power_none(m, v, num_iters=None), power_mode(m, v)


@jax.jit
def summed(x, axes=(0,)):
    for axis in range(len(axes)):  # ok: the only call passes `()`, an empty pytree
        x = x.sum(axis=axes[axis])
    return x


def run_summed(x):
    return summed(x, axes=())


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    m, v = jnp.eye(2) * 2.0, jnp.ones(2)
    for hazard in (
        lambda: fns["power_iterate"](m, v, 3),
        lambda: fns["from_data"](jnp.arange(3)),
        lambda: fns["power_knob"](m, v, num_iters=30),
        lambda: fns["power_rebound"](m, v, 5),
        lambda: fns["power_in_function"](m, v),
    ):
        try:
            hazard()
        except jax.errors.TracerIntegerConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerIntegerConversionError")
    assert fns["sum_each_axis"](jnp.ones((2, 3))).tolist() == [6.0, 6.0]
    assert fns["power_static"](m, v, num_iters=3).tolist() == [8.0, 8.0]
    assert float(fns["over_rows"](jnp.arange(4.0))) == 6.0
    assert fns["power_default"](m, v).tolist() == [2.0**15] * 2
    none_result, mode_result = fns["run_untraced_knobs"](m, v)
    assert none_result.tolist() == [16.0, 16.0] and mode_result.tolist() == [4.0, 4.0]
    assert fns["run_summed"](jnp.ones(2)).tolist() == [1.0, 1.0]
    print("ok")
