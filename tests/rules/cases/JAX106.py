import jax
import jax.numpy as jnp
from jax import lax


def batch_stream():
    while True:
        yield jnp.ones(2)


batches = batch_stream()


@jax.jit
def accumulate(w):
    batch = next(batches)  # error: JAX106
    return w + batch.sum()


def sum_stream(x0):
    stream = iter(range(10))
    return lax.fori_loop(0, 10, lambda i, acc: acc + next(stream), x0)  # error: JAX106


# --- near misses ---


@jax.jit
def local_iterator(xs):
    it = iter(xs)
    first = next(it)
    return first


def eager(w):
    return w + next(batches)


@jax.jit
def with_default(w, seq):
    return w + next(iter(seq), 0.0)
