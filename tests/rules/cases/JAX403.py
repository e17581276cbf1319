import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@jax.jit
def pad_to(x, n):
    return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])  # error: JAX403


@jax.jit
def add_positions(tokens, seq_len):
    return tokens + jnp.arange(seq_len)  # error: JAX403


@jax.jit
def noise(key, n):
    return jax.random.normal(key, (n,))  # error: JAX403


@jax.jit
def take_prefix(x, n):
    return x[:n]  # error: JAX403


@jax.jit
def regroup(x, groups):
    return x.reshape(groups, -1)  # error: JAX403


@jax.jit
def window(x, start, size):
    return lax.dynamic_slice(x, (start,), (size,))  # error: JAX403


@jax.jit
def from_data(x):
    n = x.sum().astype(int)
    return jnp.ones((n, 2))  # error: JAX403


def jitted_library_function():
    zeros = jax.jit(jnp.zeros)
    return zeros(2)  # error: JAX403


def jitted_library_function_inline(n):
    return jax.jit(jnp.ones)((n, 2))  # error: JAX403


def jitted_permutation_of_a_count(key):
    # `x` takes an array (traced: shuffled) or a count (an int: turned into `arange(x)`)
    return jax.jit(jax.random.permutation)(key, 10)  # error: JAX403


def jitted_choice_from_a_count(key):
    return jax.jit(jax.random.choice)(key, 5)  # error: JAX403


def jitted_library_function_shape_by_keyword(key):
    sample = jax.jit(jax.random.normal, static_argnames="dtype")
    return sample(key, shape=(3,))  # error: JAX403


@jax.jit
def one_hot_with_traced_classes(labels, num_classes):
    return jax.nn.one_hot(labels, num_classes)  # error: JAX403


@jax.jit
def scan_with_traced_length(xs, n):
    return jax.lax.scan(lambda c, x: (c + 1, x), 0, xs, length=n)  # error: JAX403


@jax.jit
def sum_over_traced_axis(x, axis):
    return jnp.sum(x, axis=axis)  # error: JAX403


@jax.jit
def size_stored_in_a_dict(x):
    sizes = {"n": 3}
    sizes["n"] = x.sum().astype(int)
    return jnp.zeros(sizes["n"])  # error: JAX403


# --- near misses ---


@jax.jit
def static_entry_of_a_dict_holding_tracers(x):
    config = {"n": 3, "scale": x}
    return jnp.zeros(config["n"]) * config["scale"]


@jax.jit
def entry_replaced_by_a_constant(x):
    config = {"n": x}
    config["n"] = 3
    return jnp.zeros(config["n"])


@jax.jit
def repeat_with_total_length(x, r):
    return jnp.repeat(x, r, total_repeat_length=8)


@jax.jit
def one_hot_with_static_classes(labels):
    return jax.nn.one_hot(labels, labels.shape[0])


def jitted_library_function_with_static_shape():
    zeros = jax.jit(jnp.zeros, static_argnums=0)
    return zeros(2)


def jitted_library_function_with_static_argnames(key):
    sample = jax.jit(jax.random.normal, static_argnames=["shape", "dtype"])
    by_keyword = sample(key, shape=(3,), dtype=jnp.float32)
    by_position = jax.jit(jax.random.uniform, static_argnames="shape")(jax.random.key(1), (3,))
    return by_keyword, by_position


@jax.jit
def histogram_with_traced_edges(x):
    edges = jnp.linspace(0.0, 1.0, 5)
    return jnp.histogram(x, bins=edges)  # an array of edges may be traced; only a count may not


def jitted_library_function_on_arrays(x):
    return jax.jit(jnp.sum)(x)


def jitted_permutation_of_an_array(key):
    return jax.jit(jax.random.permutation)(key, jnp.arange(10))


@jax.jit
def half_pad(x):
    n = x.shape[0] // 2
    return jnp.concatenate([x, jnp.zeros(n)])


@jax.jit
def add_positions_len(tokens):
    return tokens + jnp.arange(len(tokens)) + jnp.zeros(tokens.shape[-1], dtype=tokens.dtype)


@functools.partial(jax.jit, static_argnames=("n",))
def pad_static(x, n):
    return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])


@functools.partial(jax.jit, static_argnums=1)
def prefix_static(x, n):
    return x[:n]


@jax.jit
def dynamic_ok(x, start):
    return lax.dynamic_slice(x, (start,), (2,))


@jax.jit
def rebound(x, n):
    n = x.shape[0]
    return jnp.zeros(n)


def eager(n):
    return jnp.zeros(n)


@jax.jit
def slice_with_shape(x):
    return x[: x.shape[0] // 2]


@jax.jit
def pad_by_array(x, n: jax.Array):
    return jnp.concatenate([x, jnp.zeros(n)])  # error: JAX403 (no static_argnames fix: an array cannot be static)


@jax.jit
def pad_by_shaped(x, n):
    width = n.shape[0]
    return jnp.concatenate([x, jnp.zeros(n + width)])  # error: JAX403 (n is read as an array)


@jax.jit
def array_methods(x, axis, n, lo, i):
    a = x.min(axis)  # error: JAX403 (`x.min(axis)` is `jnp.min(x, axis)`)
    b = x.sum(axis=axis)  # error: JAX403
    c = x.repeat(n)  # error: JAX402 (`jnp.repeat(x, n)`: its size depends on `n`)
    d = x.clip(lo, lo + 1)  # ok: bounds may be traced
    e = x.take(i)  # ok: indices may be traced
    f = x.cumsum(0)  # ok: a constant axis
    return a, b, c, d, e, f



def mean_loss(x, axis=None):
    return jnp.sum(x, axis=axis)  # ok: no call of the jitted function passes `axis`


def evaluate_mean(x):
    return jax.jit(mean_loss)(x)


def sum_along(x, axis=None):
    return jnp.sum(x, axis=axis)  # error: JAX403 (the call below passes `axis`: jit traces it)


def evaluate_sum(x):
    along = jax.jit(sum_along)
    return along(x, axis=1)


@jax.jit
def squeezed(x, axis):
    a = jnp.squeeze(x, axis)  # error: JAX403 (jax#12331)
    b = x.squeeze(axis)  # error: JAX403
    c = jnp.squeeze(x, 1)  # ok
    return a, b, c


@jax.jit
def scipy_order(x, d):
    return jax.scipy.special.multigammaln(x, d)  # error: JAX403


@jax.jit
def scipy_axis(x, axis):
    return jax.scipy.special.logsumexp(x, axis=axis)  # error: JAX403


@jax.jit
def scipy_constant_flag(x):
    return jax.scipy.linalg.expm(x, upper_triangular=True)  # ok: a constant flag


# A JAX array constant where JAX needs a concrete int: some functions stage it under jit as they
# would a tracer (measured per parameter by tools/measure_jax_api.py).
REPEATS = jnp.int32(3)
NUMPY_REPEATS = np.int32(3)


@jax.jit
def tiled(x):
    a = jnp.repeat(x, REPEATS)  # error: JAX403 (`jnp.repeat` stages the constant: TypeError)
    b = jnp.repeat(x, NUMPY_REPEATS)  # ok: a NumPy value stays concrete
    c = jnp.repeat(x, REPEATS, total_repeat_length=6)  # ok: the length is given
    return a, b, c


def tiled_eagerly(x):
    return jnp.repeat(x, REPEATS)  # ok: eager, the constant is concrete


COUNTS = jnp.array([1, 2, 1, 0])


@jax.jit
def tiled_by_counts(x):
    a = jnp.repeat(x, COUNTS)  # ok: measured on 0-d constants only; an array of counts works
    with jax.ensure_compile_time_eval():
        b = jnp.repeat(x, REPEATS)  # ok: JAX computes on the constant eagerly here
    return a, b


@functools.partial(jax.jit, static_argnums=(0,))
def integrate(f, state, time, dt):
    # both arguments make the length: marking one static would not do, so no fix is offered
    state, _ = jax.lax.scan(lambda s, _: (s + dt * f(s), None), state, None, length=jnp.divide(time, dt).astype(int))  # error: JAX403
    return state


@jax.jit
def grid(a, b):
    return jnp.mgrid[a:b]  # error: JAX403 (ConcretizationTypeError, not an integer conversion)


@jax.jit
def ramp(a):
    return jnp.r_[a:3]  # error: JAX403


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    hidden_jit = fns["jax"].jit
    source = open(__file__).read().splitlines()
    CONCRETE = jax.errors.ConcretizationTypeError

    def traced(line, **values):
        """Run `line` of this file on its own under jit, `values` traced."""
        code = source[line - 1].strip().split("  #")[0]

        def run(values):
            exec(code, dict(fns), dict(values))
            return 0

        return lambda: hidden_jit(run)(values)

    key, x, m = jax.random.key(0), jnp.ones(4), jnp.ones((2, 2))
    hazards = [
        (lambda: fns["pad_to"](x, 6), TypeError),
        (lambda: fns["add_positions"](x, 4), CONCRETE),
        (lambda: fns["noise"](key, 3), TypeError),
        (lambda: fns["take_prefix"](x, 2), IndexError),
        (lambda: fns["regroup"](x, 2), TypeError),
        (lambda: fns["window"](x, 0, 2), TypeError),
        (lambda: fns["from_data"](x), TypeError),
        (fns["jitted_library_function"], TypeError),
        (lambda: fns["jitted_library_function_inline"](2), TypeError),
        (lambda: fns["jitted_permutation_of_a_count"](key), CONCRETE),
        (lambda: fns["jitted_choice_from_a_count"](key), CONCRETE),
        (lambda: fns["jitted_library_function_shape_by_keyword"](key), TypeError),
        (lambda: fns["one_hot_with_traced_classes"](jnp.arange(3), 3), CONCRETE),
        (lambda: fns["scan_with_traced_length"](x, 4), CONCRETE),
        (lambda: fns["sum_over_traced_axis"](m, 0), CONCRETE),
        (lambda: fns["size_stored_in_a_dict"](x), TypeError),
        (lambda: fns["pad_by_array"](x, jnp.int32(2)), TypeError),
        (lambda: fns["pad_by_shaped"](x, jnp.ones(2, dtype=jnp.int32)), TypeError),
        (traced(196, x=m, axis=jnp.int32(0)), CONCRETE),  # `array_methods`, line by line
        (traced(197, x=m, axis=jnp.int32(0)), CONCRETE),
        (traced(198, x=x, n=jnp.int32(3)), CONCRETE),
        (lambda: fns["evaluate_sum"](m), CONCRETE),
        (traced(225, x=jnp.ones((2, 1)), axis=jnp.int32(1)), CONCRETE),  # `squeezed`
        (traced(226, x=jnp.ones((2, 1)), axis=jnp.int32(1)), CONCRETE),
        (lambda: fns["scipy_order"](jnp.float32(3.0), jnp.int32(2)), CONCRETE),
        (lambda: fns["scipy_axis"](m, jnp.int32(0)), TypeError),
        (lambda: fns["tiled"](x), TypeError),
        (lambda: fns["integrate"](lambda s: s, 1.0, 1.0, 0.1), CONCRETE),
        (lambda: fns["grid"](jnp.int32(0), jnp.int32(3)), CONCRETE),
        (lambda: fns["ramp"](jnp.int32(0)), CONCRETE),
    ]
    for hazard, error in hazards:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    # near misses
    assert fns["static_entry_of_a_dict_holding_tracers"](jnp.float32(2.0)).tolist() == [0.0] * 3
    assert fns["entry_replaced_by_a_constant"](x).shape == (3,)
    assert fns["repeat_with_total_length"](x, 2).shape == (8,)
    assert fns["one_hot_with_static_classes"](jnp.arange(3)).shape == (3, 3)
    assert fns["jitted_library_function_with_static_shape"]().shape == (2,)
    assert [a.shape for a in fns["jitted_library_function_with_static_argnames"](key)] == [(3,), (3,)]
    assert fns["histogram_with_traced_edges"](x)[0].shape == (4,)
    assert float(fns["jitted_library_function_on_arrays"](x)) == 4.0
    assert sorted(fns["jitted_permutation_of_an_array"](key).tolist()) == list(range(10))
    assert fns["half_pad"](x).shape == (6,)
    assert fns["add_positions_len"](x).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert fns["pad_static"](x, 6).shape == (6,)
    assert fns["prefix_static"](x, 2).shape == (2,)
    assert fns["dynamic_ok"](x, 1).shape == (2,)
    assert fns["rebound"](x, 3).shape == (4,)
    assert fns["eager"](3).shape == (3,)
    assert fns["slice_with_shape"](x).shape == (2,)
    for line in (199, 200, 201):  # `array_methods`: d, e, f
        traced(line, x=x, lo=jnp.float32(0.0), i=jnp.int32(1))()
    traced(227, x=jnp.ones((2, 1)))()
    assert float(fns["evaluate_mean"](x)) == 4.0
    assert fns["scipy_constant_flag"](jnp.eye(2)).shape == (2, 2)
    traced(255, x=x)()
    traced(256, x=x)()
    assert fns["tiled_eagerly"](x).shape == (12,)
    counts, repeated = fns["tiled_by_counts"](x)
    assert counts.shape == (4,) and repeated.shape == (12,)
    print("ok")
