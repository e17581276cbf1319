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


if __name__ == "__main__":
    drawn = []

    def counted_stream():
        while True:
            drawn.append(1)
            yield jnp.ones(2)

    batches = counted_stream()  # read by `accumulate` when it is traced
    w = jnp.float32(0.0)
    for _ in range(3):
        w = accumulate(w)
    assert float(w) == 6.0
    assert len(drawn) == 1, "`next` ran once, while tracing, not once per call"
    assert float(sum_stream(jnp.float32(0.0))) == 0.0  # not 45: `next` ran once, giving 0
    assert float(local_iterator(jnp.arange(3.0))) == 0.0
    assert eager(jnp.float32(1.0)).tolist() == [2.0, 2.0]
    assert len(drawn) == 2
    assert float(with_default(1.0, [2.0, 3.0])) == 3.0 and float(with_default(1.0, [])) == 1.0
    print("ok")
