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
