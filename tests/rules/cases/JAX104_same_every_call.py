# State a compiled function writes only while JAX traces it is a hazard when a call would have
# written something else: a counter, a clock. Static data that every call would store alike (a
# shape, a flag) or a cache filled once per key is not (measured with JAX 0.10.2).
import time

import jax
import jax.numpy as jnp
import numpy as np

calls = 0
last_shape = None
started = None
_positions = {}
_leaky = {}


@jax.jit
def forward(x):
    global calls, last_shape, started
    calls = calls + 1  # error: JAX104
    last_shape = x.shape  # every call would store this shape
    started = time.time()  # error: JAX104, JAX105
    return jnp.tanh(x)


def positions(shape):
    if shape not in _positions:
        _positions[shape] = np.arange(shape[0], dtype=np.float32)  # a trace-time memo of constants
    return _positions[shape]


def leaky_positions(shape):
    if shape not in _leaky:
        _leaky[shape] = jnp.arange(shape[0], dtype=jnp.float32)  # error: JAX104
    return _leaky[shape]


@jax.jit
def weigh(x):
    return (x * positions(x.shape)).sum() + (x * leaky_positions(x.shape)).sum()


messages = []
events = []


@jax.jit
def logged(x):
    messages.append(f"tracing logged with x.shape={x.shape}, dtype={x.dtype}")  # a log of traces
    events.append("called")  # error: JAX104
    events.append(x.shape[0] + calls)  # error: JAX104
    return x * 2


if __name__ == "__main__":
    forward(jnp.ones(3))
    forward(jnp.ones(3))
    assert calls == 1 and last_shape == (3,)
    print(weigh(jnp.ones(4)))
    try:
        weigh(jnp.ones(4, dtype=jnp.int32))  # traced again: the cached tracer has leaked
    except jax.errors.UnexpectedTracerError:
        print("leaked")
    logged(jnp.ones(2))
    logged(jnp.ones(2))
    assert messages == ["tracing logged with x.shape=(2,), dtype=float32"] and len(events) == 2
