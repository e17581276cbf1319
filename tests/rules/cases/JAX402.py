import functools

import jax
import jax.numpy as jnp


@jax.jit
def active_indices(x):
    return jnp.nonzero(x > 0.5)[0]  # error: JAX402


@jax.jit
def num_classes(labels):
    classes = jnp.unique(labels)  # error: JAX402
    return classes.shape[0]


@jax.jit
def where_one_arg(x):
    (idx,) = jnp.where(x > 0)  # error: JAX402
    return idx


@jax.jit
def counts(labels):
    return jnp.bincount(labels)  # error: JAX402


@jax.jit
def common(a, b):
    return jnp.intersect1d(a, b)  # error: JAX402


# --- near misses ---


@jax.jit
def first_three_active(x):
    (idx,) = jnp.nonzero(x > 0.5, size=3, fill_value=0)
    return idx


@jax.jit
def leaky(x):
    return jnp.where(x > 0, x, 0.01 * x)


@jax.jit
def sized_counts(labels):
    return jnp.bincount(labels, length=10)


def eager_unique(labels):
    return jnp.unique(labels)


@jax.jit
def repeat_static(x):
    return jnp.repeat(x, 3)


unique_values = jax.jit(jnp.unique)
unique_four = jax.jit(functools.partial(jnp.unique, size=4, fill_value=0.0))


def jitted_library_functions(x):
    a = unique_values(x)  # error: JAX402
    b = unique_four(x)  # ok: the size is static
    c = jax.jit(jnp.argwhere)(x)  # error: JAX402
    d = jax.jit(jnp.argwhere, static_argnums=0)  # ok: not called (and a static array is another error)
    return a, b, c, d


@jax.jit
def method_forms(x, n):
    a = x.repeat(n)  # error: JAX402 (`jnp.repeat(x, n)`)
    b = (x > 0).nonzero()  # error: JAX402 (`jnp.nonzero(x > 0)`)
    c = x.nonzero(size=3)  # ok: a static size
    d = x.repeat(2)  # ok: constant repeats
    return a, b, c, d


def make_counter(labels):
    # `labels` is a closure variable the model knows nothing of; under `jit` any argument raises
    @jax.jit
    def count(x):
        return x * jnp.unique(labels).shape[0]  # error: JAX402

    return count


def bound_labels(labels, x):
    return x * jnp.bincount(labels).shape[0]  # error: JAX402 (a value bound by `partial`)


def use_bound(labels):
    return jax.jit(functools.partial(bound_labels, labels))


def make_vmapped(labels):
    # near miss: `vmap` alone does not stage constants, so a concrete `labels` works
    @jax.vmap
    def count(x):
        return x * jnp.unique(labels).shape[0]

    return count


@jax.jit
def pooled(data, ids):
    return jax.ops.segment_sum(data, ids)  # error: JAX402 (the segment count is the largest id + 1)


@jax.jit
def pooled_sized(data, ids):
    return jax.ops.segment_max(data, ids, num_segments=4)  # ok: the count is given


def pooled_through_jit(data, ids):
    return jax.jit(jax.ops.segment_sum)(data, ids)  # error: JAX402


@jax.jit
def pooled_by_position(data, ids):
    return jax.ops.segment_sum(data, ids, 4)  # ok: `num_segments` given by position
