# Python's own functions of numbers take a traced vector item by item: `statistics` sorts,
# hashes or converts the items, `heapq` and a `key=` of `max`/`min`/`sorted` compare them
# (measured with JAX 0.10.2 by tools/measure_jax_api.py: each raises under jit and vmap; under a
# bare grad `statistics.mean` still raises, while comparisons read the JVP tracer's value).
import collections
import heapq
import statistics

import jax
import jax.numpy as jnp


def robust_centre(row):
    med = statistics.median(row)  # error: JAX503
    return row - med


def greedy_step(carry, scores):
    best = max(range(scores.shape[0]), key=lambda i: scores[i])  # error: JAX503
    return carry + best, best


@jax.jit
def ranked(scores):
    order = sorted(range(3), key=lambda i: scores[i])  # error: JAX503
    return jnp.asarray(order)


@jax.jit
def top_two(scores):
    return jnp.asarray(heapq.nlargest(2, scores))  # error: JAX503


def mean_square(w):
    return statistics.mean(w * w)  # error: JAX503 (TypeError: it converts each item to a fraction)


def majority_label(row):
    counts = collections.Counter(row)  # error: JAX503 (each item is hashed)
    return counts.most_common(1)[0][0]


def distinct(row):
    return len(set(row))  # error: JAX503


@jax.jit
def kept_terms(x):
    terms = list(filter(None, x))  # error: JAX503 (each item's truth)
    return jnp.asarray(len(terms))


# near misses


@jax.jit
def shape_counts(x):
    return x * len(set(x.shape))


def median_loss(w):
    return jnp.sum(w) * statistics.median(w)  # a bare grad compares the values a JVP tracer carries


@jax.jit
def static_median(x):
    return x * statistics.median([1.0, 3.0, 2.0])


@jax.jit
def widest(x, y):
    biggest = max([x, y], key=lambda a: a.shape[0])  # shapes are Python numbers
    return biggest * 2


@jax.jit
def jnp_median(row):
    return row - jnp.median(row)


if __name__ == "__main__":
    batch = jnp.array([[1.0, 5.0, 2.0], [3.0, 0.0, 9.0]])
    failures = (
        (lambda: jax.vmap(robust_centre)(batch), jax.errors.TracerBoolConversionError),
        (lambda: jax.lax.scan(greedy_step, 0, batch), jax.errors.TracerBoolConversionError),
        (lambda: ranked(batch[0]), jax.errors.TracerBoolConversionError),
        (lambda: top_two(batch[0]), jax.errors.TracerBoolConversionError),
        (lambda: jax.vmap(mean_square)(batch), TypeError),
        (lambda: jax.vmap(majority_label)(batch), TypeError),
        (lambda: jax.vmap(distinct)(batch), TypeError),
        (lambda: kept_terms(batch[0]), jax.errors.TracerBoolConversionError),
    )
    for call, error in failures:
        try:
            call()
        except error:
            pass
        else:
            raise AssertionError(f"expected {error.__name__}")
    assert jax.grad(median_loss)(batch[0]).shape == (3,)
    assert float(static_median(1.0)) == 2.0
    assert widest(jnp.ones(2), jnp.ones(3)).shape == (3,)
    assert jnp_median(batch[0]).shape == (3,)
    assert shape_counts(jnp.ones(2)).tolist() == [1.0, 1.0]
    print("ok")
