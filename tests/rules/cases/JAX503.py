import functools
import math
import operator

import typing

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def heaviest_row(m):
    i = int(jnp.argmax(m.sum(axis=1)))  # error: JAX503
    return m[i]


@jax.jit
def rescale(x):
    scale = float(jnp.max(jnp.abs(x)))  # error: JAX503
    return x / scale


@jax.jit
def conversions(x):
    a = x.sum().item()  # error: JAX503
    b = np.asarray(x)  # error: JAX503
    c = math.sqrt(x.sum())  # error: JAX503
    d = max(x.sum(), 1.0)  # error: JAX503
    e = np.float32(x)  # error: JAX503
    f = x.tobytes()  # error: JAX503
    return a, b, c, d, e, f


TABLE = (1.0, 2.0, 3.0)


@jax.jit
def lookup(i):
    return TABLE[i]  # error: JAX503


@jax.jit
def logic(x, y):
    both = (x > 0) and (y > 0)  # error: JAX503
    neither = not x.any()  # error: JAX503
    between = 0 < x < 1  # error: JAX503
    return both, neither, between


# --- near misses ---


@jax.jit
def static_conversions(x):
    n = int(x.shape[0])
    half = float(x.ndim) / 2
    size = max(x.shape[0], 1)
    return x * n * half * size


@jax.jit
def array_table(i):
    table = jnp.asarray(TABLE)
    return table[i]


@jax.jit
def in_condition(x, y):
    if x.shape and y.shape:
        return x
    return y


def eager(x):
    return int(jnp.argmax(x)), float(x.sum()), x.item()


@jax.jit
def casts(x):
    return x.astype(jnp.int32), jnp.logical_and(x > 0, x < 1)


@jax.jit
def scalar_types(x):
    # jnp scalar types build arrays, and NumPy's take the static shape
    return jnp.float32(x) * np.float32(x.shape[0]) * np.int32(2)


@jax.jit
def options_default(x, options=None):
    options = options or {}  # ok: a container default, the truth of a dict or None
    extra = options.get("extra") or []  # ok
    return x * len(extra)


@jax.jit
def scale_default(x, scale=None):
    return x * (scale or 1.0)  # error: JAX503


@jax.jit
def imported_table(x, i):
    from project_tables import LOOKUP  # a module of the project: a list, or an array

    return LOOKUP[i] * x  # ok: indexing an array with a tracer is fine


to_float = jax.jit(float)


def jitted_conversions(x):
    a = to_float(x)  # error: JAX503
    b = jax.jit(math.sqrt)(x)  # error: JAX503
    c = jax.jit(jnp.sqrt)(x)  # ok
    e = jax.jit(operator.index)(x)  # error: JAX503
    d = jax.jit(float, static_argnums=0)(2.0)  # ok: static
    return a, b, c, d, e


FLOOR = jnp.float32(1.5)


@jax.jit
def clipped(x):
    return x * min(FLOOR, 1.0)  # error: JAX503 (a concrete global array, compared under jit)


def clipped_eagerly(x):
    return x * min(FLOOR, 1.0)  # ok: eager, the comparison is concrete


@jax.jit
def indexed_by_tracer(x, i):
    table = np.arange(3)
    a = table[i]  # error: JAX503 (a NumPy array: TracerArrayConversionError)
    b = [1, 2, 3][i]  # error: JAX503 (TracerIntegerConversionError)
    c = {0: 1}[i]  # error: JAX503 (a dict: TypeError, unhashable)
    d = jnp.arange(3)[i]  # ok: a JAX array takes a traced index
    return x + a + b + c + d


# A custom-derivative function called in staged code gets every argument not in its
# `nondiff_argnums` as a tracer, even one the jitted caller holds static.


@jax.custom_vjp
def power(z, n):
    return z ** int(n)  # error: JAX503


power.defvjp(lambda z, n: (power(z, n), (z, n)), lambda res, g: (g * res[1], None))


def scaled_power(z, n):
    return z * int(n)  # error: JAX503 (made a custom_jvp by a call)


scaled = jax.custom_jvp(scaled_power)
scaled.defjvp(lambda primals, tangents: (scaled(*primals), tangents[0]))


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def power_nondiff(z, n):
    return z ** int(n)  # ok: `n` is declared nondiff, it stays a Python value


power_nondiff.defvjp(lambda z, n: (power_nondiff(z, n), z), lambda n, res, g: (g * n,))


@functools.partial(jax.custom_vjp, nondiff_argnames=("n",))
def power_named(z, n):
    return z ** int(n)  # ok: `n` is declared nondiff by name


power_named.defvjp(lambda z, n: (power_named(z, n), z), lambda n, res, g: (g * n,))


@functools.partial(jax.jit, static_argnums=1)
def powers(z, n):
    return power(z, n) + scaled(z, n) + power_nondiff(z, n) + power_named(z, n)


@jax.custom_vjp
def power_batched(z, n):
    return z ** int(n)  # ok: under a bare `vmap` nothing is staged, `n` stays a Python value


power_batched.defvjp(lambda z, n: (power_batched(z, n), (z, n)), lambda res, g: (g, None))


def batched_powers(zs):
    return jax.vmap(lambda z: power_batched(z, 2))(zs)


@jax.custom_jvp
def safe_pow(x, p=2):
    return x ** int(p)  # error: JAX503 (JAX binds the default, then traces it with the rest)


safe_pow.defjvp(lambda primals, tangents: (safe_pow(*primals), tangents[0]))


@jax.jit
def squared(x):
    return safe_pow(x)


@jax.custom_jvp
def safe_norm(x, *, order=2):
    return jnp.sum(jnp.abs(x) ** int(order))  # ok: a keyword-only default stays a Python value


safe_norm.defjvp(lambda primals, tangents: (safe_norm(*primals), tangents[0].sum()))


@jax.jit
def normed(x):
    return safe_norm(x)


class SolverState(typing.NamedTuple):
    err: jax.Array
    steps: int

    @property
    def worst(self):
        return float(self.err.max())  # error: JAX503 (the state is built from a tracer in `summarize`)

    def finished(self):
        return bool(self.steps > 10)  # a Python int field: a Python bool


@jax.jit
def summarize(err):
    state = SolverState(err, 12)
    return state.worst if state.finished() else err.sum()


def count_of(n):
    return n if isinstance(n, jax.Array) else int(n)  # ok: `int` only sees what is no JAX array


def count_of_array(n):
    return int(n) if isinstance(n, jax.Array) else n  # error: JAX503


@jax.jit
def counted(x, n):
    return x * count_of(n) * count_of_array(n)


def static_steps(n):
    try:
        return int(n)  # ok: a probe, the error is caught
    except jax.errors.ConcretizationTypeError:
        return None


def static_index(n):
    try:
        return int(n)  # error: JAX503 (the handler catches another error)
    except ValueError:
        return None


@jax.jit
def probed(x, n):
    steps, index = static_steps(n), static_index(n)
    return x if steps is None or index is None else x * steps


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    hidden_jit = fns["jax"].jit
    source = open(__file__).read().splitlines()
    CONCRETE = (
        jax.errors.ConcretizationTypeError,
        jax.errors.TracerArrayConversionError,
        jax.errors.TracerIntegerConversionError,
    )

    def statement(line):
        """The code of `line` of this file, without its comment (and `return`)."""
        code = source[line - 1].strip().split("  #")[0]
        return code[len("return "):] if code.startswith("return ") else code

    def traced(line, extra=None, **values):
        """Run `line` of this file on its own under jit, `values` traced (`extra` as they are)."""

        def run(values):
            exec(statement(line), dict(fns, **(extra or {})), dict(values))
            return 0

        return lambda: hidden_jit(run)(values)

    x, m = jnp.array([0.5, 0.25]), jnp.ones((2, 2))
    i, z = jnp.int32(1), jnp.float32(2.0)
    hazards = [
        (lambda: fns["heaviest_row"](m), CONCRETE),
        (lambda: fns["rescale"](x), CONCRETE),
        *[(traced(line, x=x), CONCRETE) for line in range(26, 32)],  # `conversions`, line by line
        (lambda: fns["lookup"](i), CONCRETE),
        *[(traced(line, x=z, y=z), CONCRETE) for line in (45, 46, 47)],  # `logic`, on scalars
        (lambda: fns["scale_default"](x, 2.0), CONCRETE),
        *[(traced(line, x=z), CONCRETE) for line in (113, 114)],  # `jitted_conversions`
        (traced(116, x=i), CONCRETE),  # `operator.index` of an integer
        (lambda: fns["clipped"](x), CONCRETE),
        (traced(136, extra={"table": np.arange(3)}, i=i), CONCRETE),
        (traced(137, i=i), CONCRETE),
        (traced(138, i=i), TypeError),  # unhashable
        (lambda: hidden_jit(lambda z: power(z, 2))(z), CONCRETE),  # line 149
        (lambda: hidden_jit(lambda z: scaled(z, 2))(z), CONCRETE),  # line 156
        (lambda: fns["powers"](z, 2), CONCRETE),
        (lambda: fns["squared"](z), CONCRETE),  # line 198
        (lambda: fns["summarize"](x), CONCRETE),  # line 228
        (lambda: fns["counted"](x, i), CONCRETE),  # line 245
        (lambda: fns["probed"](x, i), CONCRETE),  # line 262
    ]
    for hazard, error in hazards:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error}")
    # near misses
    assert fns["static_conversions"](m).shape == (2, 2)
    assert float(fns["array_table"](i)) == 2.0
    assert fns["in_condition"](x, x).shape == (2,)
    assert fns["eager"](jnp.array([0.5])) == (0, 0.5, 0.5)
    assert fns["casts"](x)[0].dtype == jnp.int32
    assert fns["scalar_types"](x).shape == (2,)
    assert fns["options_default"](x).tolist() == [0.0, 0.0]
    for line in (115, 117):  # `jitted_conversions`: c and d
        exec(statement(line), dict(fns), {"x": z})
    assert fns["clipped_eagerly"](x).tolist() == x.tolist()
    traced(139, i=i)()  # d = jnp.arange(3)[i]
    assert hidden_jit(lambda z: power_nondiff(z, 2) + power_named(z, 2))(z) == 8.0
    assert fns["batched_powers"](x).tolist() == [0.25, 0.0625]
    assert float(fns["normed"](x)) == 0.3125
    assert fns["count_of"](3) == 3
    assert fns["static_steps"](i) == 1 and fns["static_index"](i) == 1  # eagerly
    print("ok")
