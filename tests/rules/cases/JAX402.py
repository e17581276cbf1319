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


if __name__ == "__main__":
    import inspect

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    hidden_jit = fns["jax"].jit
    x = jnp.array([0.2, 0.8, 0.9])
    labels = jnp.array([0, 1, 1, 3])
    data, ids = jnp.ones(4), jnp.array([0, 1, 1, 3])

    def body_lines(function):
        source = inspect.getsource(function).splitlines()
        start = next(i for i, line in enumerate(source) if line.lstrip().startswith("def ")) + 1
        return [line.strip().split("  #")[0] for line in source[start:]]

    def run_line(statement, **values):
        def run(values):
            exec(statement, dict(fns, **values))
            return 0

        return hidden_jit(run)(values)

    hazards = [
        lambda: fns["active_indices"](x),
        lambda: fns["num_classes"](labels),
        lambda: fns["where_one_arg"](x),
        lambda: fns["counts"](labels),
        lambda: fns["common"](labels, labels),
        lambda: fns["jitted_library_functions"](x),  # line 67
        lambda: fns["make_counter"](labels)(x),
        lambda: fns["use_bound"](labels)(x),
        lambda: fns["pooled"](data, ids),
        lambda: fns["pooled_through_jit"](data, ids),
    ]
    # the later marked lines of `jitted_library_functions` and `method_forms`, on their own
    hazards.append(lambda: exec(body_lines(fns["jitted_library_functions"])[2], dict(fns, x=x)))  # line 69
    lines = body_lines(fns["method_forms"])
    hazards.append(lambda: run_line(lines[0], x=x, n=jnp.int32(2)))  # line 76
    hazards.append(lambda: run_line(lines[1], x=x, n=jnp.int32(2)))  # line 77
    for hazard in hazards:
        try:
            hazard()
        except jax.errors.ConcretizationTypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise ConcretizationTypeError")
    run_line(lines[2], x=x, n=jnp.int32(2))  # line 78
    run_line(lines[3], x=x, n=jnp.int32(2))  # line 79
    # near misses
    assert fns["first_three_active"](x).tolist() == [1, 2, 0]
    assert jnp.allclose(fns["leaky"](jnp.array([-1.0, 1.0])), jnp.array([-0.01, 1.0]))
    assert fns["sized_counts"](labels).tolist() == [1, 2, 0, 1, 0, 0, 0, 0, 0, 0]
    assert fns["eager_unique"](labels).tolist() == [0, 1, 3]
    assert fns["repeat_static"](x).shape == (9,)
    assert fns["unique_four"](x).shape == (4,)
    assert fns["make_vmapped"](labels)(x).tolist() == (3 * x).tolist()
    assert fns["pooled_sized"](data, ids).tolist()[:2] == [1.0, 1.0]
    assert fns["pooled_by_position"](data, ids).tolist() == [1.0, 2.0, 0.0, 1.0]
    print("ok")
