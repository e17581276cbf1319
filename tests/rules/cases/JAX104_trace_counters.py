# State named for what it counts, traces or compilations, is meant to change only while JAX
# traces (the idiom of JAX's own tests); other state written from a compiled function is not.
from functools import partial

import jax
import jax.numpy as jnp

traces = []
trace_count = 0
history = []


@jax.jit
def double(x):
    global trace_count
    trace_count += 1  # counts traces, as its name says
    traces.append(x.shape)
    return x * 2


@partial(jax.jit, static_argnums=1)
def tile(x, n):
    history.append(n)  # error: JAX104
    return jnp.tile(x, n)


if __name__ == "__main__":
    for step in range(3):
        double(jnp.ones(2) * step)
        tile(jnp.ones(2), 3)
    assert trace_count == 1 and len(traces) == 1 and len(history) == 1
