"""A module-level NumPy array changed in place by compiled code changes only while JAX traces
the function: the count below ends at 1 after three calls (measured with JAX 0.10.2)."""

import jax
import jax.numpy as jnp
import numpy as np

calls = np.zeros(1, dtype=np.int64)
history = np.zeros(8)
table = np.arange(4.0)
eager_calls = np.zeros(1, dtype=np.int64)


@jax.jit
def step(x):
    calls[0] += 1  # error: JAX104
    return x + 1


def record(x):
    history[-1] = 1.0  # error: JAX104
    return x * 2


record_fast = jax.jit(record)


# near misses


def eager_step(x):
    eager_calls[0] += 1  # ok: runs on every call
    return x + 1


@jax.jit
def lookup(i):
    return jnp.asarray(table)[i]  # ok: read, not written


@jax.jit
def local_buffer(x):
    scratch = np.zeros(2)
    scratch[0] = 1.0  # ok: made anew in each trace
    return x + jnp.asarray(scratch)


for _ in range(3):
    step(jnp.ones(2))
    eager_step(jnp.ones(2))
assert calls[0] == 1 and eager_calls[0] == 3


if __name__ == "__main__":
    assert record_fast(jnp.ones(2)).tolist() == [2.0, 2.0]
    assert history[-1] == 1.0  # written while tracing
    history.fill(0.0)
    record_fast(jnp.ones(2))
    assert history[-1] == 0.0  # not written by the second call
    record(jnp.ones(2))
    assert history[-1] == 1.0  # eagerly, on every call
    assert float(lookup(2)) == 2.0
    assert local_buffer(jnp.zeros(2)).tolist() == [1.0, 0.0]
    assert local_buffer(jnp.zeros(2)).tolist() == [1.0, 0.0]
    print("ok")
