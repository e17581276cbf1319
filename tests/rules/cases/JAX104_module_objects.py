# An attribute of module-level state changed inside a compiled function: a function's own
# attribute (`step.calls += 1`) or the one instance of a plain class of the module. The change
# happens while JAX traces, once per compilation, not on each call (measured with JAX 0.10.2).
import types

import jax
import jax.numpy as jnp
from jax import lax


class Counter:
    def __init__(self):
        self.n = 0


counter = Counter()
debug = types.SimpleNamespace(last_residual=None, steps=0)


def momentum_step(w):
    momentum_step.calls += 1  # error: JAX104
    return w * 0.9


momentum_step.calls = 0
step = jax.jit(momentum_step)


@jax.jit
def scaled(w):
    counter.n += 1  # error: JAX104
    return w * 2.0


def newton_sqrt(a):
    def body(x):
        residual = x * x - a
        setattr(debug, "last_residual", residual)  # error: JAX104
        return x - residual / (2 * x)

    return lax.while_loop(lambda x: jnp.abs(x * x - a) > 1e-5, body, a)


@jax.jit
def counted(w):
    debug.steps += 1  # error: JAX104
    return w


# near misses


def eager_count(w):
    debug.steps += 1  # runs on every call
    return w


def traced_step(w):
    traced_step.traces += 1  # counts traces on purpose
    return w


traced_step.traces = 0
traced = jax.jit(traced_step)


def mapped(w):
    mapped.calls += 1  # a bare vmap traces again on every call
    return w


mapped.calls = 0


def eager_too(w):
    eager_too.calls += 1  # also called eagerly below
    return w


eager_too.calls = 0
eager_jitted = jax.jit(eager_too)

if __name__ == "__main__":
    w = jnp.ones(2)
    for _ in range(3):
        step(w)
        scaled(w)
        jax.vmap(mapped)(w)
    eager_too(w)
    jax.jit(newton_sqrt)(jnp.float32(2.0))
    assert isinstance(debug.last_residual, jax.core.Tracer)  # leaked
    for _ in range(3):
        counted(w)
    assert debug.steps == 1
    eager_count(w)
    assert debug.steps == 2
    assert momentum_step.calls == 1 and counter.n == 1  # once, not three times
    assert mapped.calls == 3
    print(momentum_step.calls, counter.n, mapped.calls, eager_jitted(w))
