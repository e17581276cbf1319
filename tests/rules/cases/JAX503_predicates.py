# `itertools.takewhile`, `dropwhile`, `filterfalse` and `filter` call a predicate on each element
# and take the truth of what it returns: over traced elements, a predicate that computes on them
# returns a tracer, so JAX raises `TracerBoolConversionError` (measured with JAX 0.10.2, under
# `vmap` and `jit`).
import itertools

import jax
import jax.numpy as jnp

EOS = 0


def sequence_logprob(tokens, logprobs):
    pairs = zip(tokens, logprobs)
    kept = list(itertools.takewhile(lambda p: p[0] != EOS, pairs))  # error: JAX503
    return sum(lp for _, lp in kept)


def positive(v):
    return v > 0


@jax.jit
def positives(x):
    return list(filter(positive, x))  # error: JAX503


# near misses


@jax.jit
def kept_layers(x, sizes=(1, 2, 3)):
    wide = list(filter(lambda n: n > 1, sizes))  # static sizes: Python's own truth
    return x * len(wide)


@jax.jit
def present(xs):
    return [v * 2 for v in itertools.takewhile(lambda v: v is not None, xs)]  # `is`: static


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    tokens = jnp.array([[5, 7, 0, 3], [2, 0, 4, 4]])
    logprobs = jnp.log(jnp.full((2, 4), 0.5))
    assert raises(lambda: jax.vmap(sequence_logprob)(tokens, logprobs))
    assert raises(lambda: positives(jnp.array([1.0, -1.0])))
    kept_layers(jnp.ones(2))
    present([jnp.ones(2), jnp.zeros(2)])
    print("ok")
