"""Measure facts about JAX's public API by running JAX, and write them to jaxlint's data file.

Usage: python tools/measure_jax_api.py [--check] [--verbose] [--output PATH] [--only QUALNAME...]

jaxlint's rules never import JAX; what they know about its API is either typed by hand or measured
here and checked in as ``jaxlint/semantic/data/jax_api.json`` (read by
:mod:`jaxlint.semantic.measured`). For every public callable of ``jax.numpy`` (with its ``linalg``
and ``fft``), ``jax.lax``, ``jax.nn``, ``jax.random``, ``jax.ops``, ``jax.image`` and
``jax.scipy`` (see ``MODULES``), the script

1. finds a *baseline*: concrete arguments with which the call succeeds eagerly and under ``jax.jit``
   with every argument closed over. Candidates are chosen by parameter name and annotation (small
   float, int and bool arrays, shapes, ints, axes, dtypes, PRNG keys, callables); the required
   parameters are searched first, then each optional parameter is added on its own. When the call
   fails under ``jit`` with every argument concrete but works once an optional parameter is given
   (``jnp.nonzero`` and ``size``), the function *needs* that parameter under ``jit``;
2. passes each argument that is an array or a Python number (or a tuple or list of them) as the
   one ``jit`` argument, a tracer, with the others closed over, and classifies the outcome: it
   traces (the parameter may be traced), it raises a concretization-class error (the parameter
   must be concrete: ``ConcretizationTypeError``, ``TracerIntegerConversionError``,
   ``TracerBoolConversionError``, ``TracerArrayConversionError``, or a ``TypeError``,
   ``ValueError`` or ``IndexError`` that names a tracer, a concrete value or a non-hashable static
   argument), or anything else (unknown, not recorded). A parameter found concrete is measured
   again with each optional parameter added: those that lift the requirement are its ``unless``
   (``repeats`` of ``jnp.repeat`` unless ``total_repeat_length``). A parameter found concrete
   with an int is measured again with a float array there: one that then traces is
   ``array_ok`` (``bins`` of ``jnp.histogram``: a count, or edges that may be traced);
3. for ``jax.numpy``, passes each array or number argument as a Python list (a number as two of
   it), eagerly, and records the positions where the list raises ``TypeError`` ("requires ndarray
   or scalar arguments") while the same values as an array work;
4. records the calls whose result holds no tracer when their array arguments are traced (they
   answer from shapes and dtypes: ``jnp.shape``, ``jnp.result_type``);
5. for each ``jax.random`` function taking a key, calls it twice on one typed key under
   ``jax.debug_key_reuse(True)``: a ``KeyReuseError`` on the second call means it consumes the
   key. The static checker's signature (``jax.experimental.key_reuse``) must agree;
6. for each NumPy (SciPy) function with a ``jax.numpy`` (``jax.scipy``) namesake, finds a baseline and traces its
   first array argument: ``TracerArrayConversionError`` means NumPy rejects a tracer; a result
   means it works on one (``np.sum`` delegates to the array's method). The same for every
   function of the host-only modules (``HOST_ONLY_MODULES``: ``numpy.testing``, ``scipy.signal``,
   ``scipy.stats``...), namesake or not, and the methods of each ``scipy.stats`` distribution that
   ``jax.scipy.stats`` also has (``scipy.stats.norm.cdf``): ``np.testing.assert_allclose(x, 1.0)``
   on a tracer raises. Those with a JAX namesake not measured here are recorded
   (``jax.scipy.stats.rankdata``).

Tracing uses ``jax.jit(...).trace``: concretization happens while tracing, so nothing compiles
under ``jit``. CPU only, ``jax_enable_x64`` off, one process; the output depends only on the
installed JAX, jaxlib and NumPy. ``--check`` compares with the stored file instead of writing it.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.metadata
import inspect
import json
import re
import signal
import statistics
import sys
import time
import types
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import jax

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_enable_x64", False)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.core import Tracer  # noqa: E402
from jax.experimental.key_reuse import _core as key_reuse_core  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "jaxlint" / "semantic" / "data" / "jax_api.json"

MODULES = (
    "jax.numpy",
    "jax.numpy.linalg",
    "jax.numpy.fft",
    "jax.lax",
    "jax.nn",
    "jax.random",
    "jax.scipy.special",
    "jax.scipy.linalg",
    "jax.scipy.signal",
    "jax.scipy.fft",
    "jax.scipy.ndimage",
    "jax.scipy.integrate",
    "jax.ops",
    "jax.image",
)
JNP_MODULES = ("jax.numpy", "jax.numpy.linalg", "jax.numpy.fft")
# NumPy and SciPy modules whose every function is measured on a tracer (step 6), with or without a
# JAX namesake. (``scipy.linalg`` is left out: fed the search's candidates, some of its LAPACK
# wrappers corrupt the heap.)
HOST_ONLY_MODULES = (
    "numpy.testing",
    "scipy.signal",
    "scipy.ndimage",
    "scipy.special",
    "scipy.spatial.distance",
    "scipy.stats",
    "scipy.interpolate",
    "scipy.integrate",
)
# modules named after a NumPy-side one whose functions are measured on tracers (step 6)
NAMESAKE_MODULES = (*JNP_MODULES, "jax.scipy.")

# Never called: they read or write files or change global state.
SKIP = frozenset(
    {
        "jax.numpy.load",
        "jax.numpy.fromfile",
        "jax.numpy.save",
        "jax.numpy.savez",
        "jax.numpy.set_printoptions",
        "jax.numpy.printoptions",
        "jax.numpy.get_printoptions",
    }
)
# Parameters never given a value: outputs, placement, precision knobs, private flags.
UNSET_PARAMETERS = frozenset(
    {"out", "device", "out_sharding", "sharding", "copy", "order", "like", "subok", "casting", "signature"}
)

MAX_ATTEMPTS = 400  # candidate combinations tried for the required parameters
MAX_OPTIONAL_ATTEMPTS = 8  # candidates tried for one optional parameter
SECONDS_PER_FUNCTION = 30


# ---------------------------------------------------------------------------- candidate values


def _f23() -> np.ndarray:
    return (np.arange(1, 7, dtype=np.float32) / 10).reshape(2, 3)


def _f3() -> np.ndarray:
    return np.array([0.1, 0.2, 0.3], dtype=np.float32)


def _f33() -> np.ndarray:  # symmetric positive definite
    return np.array([[2.0, 0.5, 0.0], [0.5, 2.0, 0.5], [0.0, 0.5, 2.0]], dtype=np.float32)


def _f0() -> np.ndarray:
    return np.asarray(0.5, dtype=np.float32)


def _f4d() -> np.ndarray:  # (batch, length, heads, features), as attention takes it
    return (np.arange(1, 5, dtype=np.float32) / 10).reshape(1, 2, 1, 2)


def _i23() -> np.ndarray:
    return np.arange(6, dtype=np.int32).reshape(2, 3)


def _i2() -> np.ndarray:
    return np.array([0, 1], dtype=np.int32)


def _i3() -> np.ndarray:
    return np.array([1, 0, 2], dtype=np.int32)


def _b23() -> np.ndarray:
    return np.array([[True, False, True], [False, True, True]])


def _b3() -> np.ndarray:
    return np.array([True, False, True])


def _c23() -> np.ndarray:
    return (_f23() + 1j * _f23()).astype(np.complex64)


def _u32() -> np.ndarray:
    return np.array([0, 42], dtype=np.uint32)


def _key() -> jax.Array:
    return jax.random.key(0)


def _keys() -> jax.Array:
    return jax.random.split(jax.random.key(0), 2)


def _first(*args: Any) -> Any:
    return args[0]


def _last(*args: Any) -> Any:
    return args[-1]


def _pair(carry: Any, x: Any) -> Any:
    return carry, x


def _add(a: Any, b: Any) -> Any:
    return a + b


def _false(*args: Any) -> Any:
    return False


@dataclass(frozen=True)
class Candidate:
    """A value to try for a parameter, built afresh for each call (NumPy functions may write to
    their arguments)."""

    label: str
    make: Callable[[], Any]


def c(label: str, make: Callable[[], Any]) -> Candidate:
    return Candidate(label, make)


def const(value: Any) -> Candidate:
    return Candidate(repr(value), lambda: value)


F23, F3, F33, F0, F4D = c("f23", _f23), c("f3", _f3), c("f33", _f33), c("f0", _f0), c("f4d", _f4d)
I23, I2, I3, B23, B3, C23 = (
    c("i23", _i23),
    c("i2", _i2),
    c("i3", _i3),
    c("b23", _b23),
    c("b3", _b3),
    c("c23", _c23),
)
U8 = c("u8", lambda: np.array([[1, 2, 3], [4, 5, 6]], dtype=np.uint8))
U32, KEY, KEYS = c("u32", _u32), c("key", _key), c("keys", _keys)
FIRST, LAST, PAIR, ADD, FALSE = (
    const(_first),
    const(_last),
    const(_pair),
    const(_add),
    const(_false),
)
F32, I32, U32DT, BOOL = const(np.float32), const(np.int32), const(np.uint32), const(np.bool_)
F23_PAIR = c("[f23, f23]", lambda: [_f23(), _f23()])
ARRAYS = [F23, F33, F3, F0, I23, I3, B23, C23, F4D]
GENERIC = [*ARRAYS[:4], I23, B23, const(2), const(0.5), const((2, 3)), const(True), F4D, C23, F23_PAIR, F32]
GENERIC += [const("ij->ji"), FIRST, PAIR, ADD, U8, const(None)]
INTS = [const(2), const(3), const(1), const(0)]
SHAPES = [
    const((2, 3)),
    const((3, 2)),
    const((6,)),
    const((2,)),
    const(()),
    const((1, 2)),
    const(2),
    const((1, 2, 3)),
]
AXES = [const(0), const(1), const(-1), const((0,)), const((0, 1)), const((1, 0))]
DTYPES = [F32, I32, BOOL, U32DT]
CALLABLES = [FIRST, PAIR, ADD, LAST, FALSE]

BY_NAME: dict[str, list[Candidate]] = {
    "key": [KEY, F4D, KEYS, F23],
    "keys": [KEY, KEYS],
    "seed": [const(0)],
    "key_bits_array": [U32],
    "shape": SHAPES,
    "newshape": [const((3, 2)), const((6,))],
    "new_shape": [const((3, 2)), const((6,)), const((2, 3))],
    "new_sizes": [const((3, 2)), const((6,))],
    "sizes": [const((2,)), const((2, 3))],
    "out_shape": SHAPES,
    "dimensions": [const((2, 3)), const((0,)), const((1, 0)), const((0, 1))],
    "permutation": [const((1, 0))],
    "slice_sizes": [const((1, 2)), const((1, 1))],
    "slice_size": [const(1), const(2)],
    "start_indices": [const((0, 0)), const((0, 1)), const(0)],
    "limit_indices": [const((2, 3)), const((1, 2))],
    "start_index": [const(0), const(1)],
    "limit_index": [const(1), const(2)],
    "strides": [const((1, 1)), const(None)],
    "stride": [const(1)],
    "padding_config": [const(((1, 1, 0), (0, 0, 0)))],
    "pad_width": [const(1), const(((1, 1), (0, 0))), const((1, 1))],
    "window_dimensions": [const((1, 2)), const((1, 1))],
    "window_strides": [const((1, 1))],
    # convolutions: a batch of one image and one filter (NCHW, OIHW), two spatial dimensions,
    # so that strides, padding and dilations have something to measure
    "lhs": [F4D, F23],
    "rhs": [F4D, F23],
    "num": INTS,
    "n": [const(3), const(2), const(1)],
    "m": [F23, F33, const(3)],
    "N": [const(3), const(2)],
    "M": [const(3), const(2)],
    "k": [const(1), const(2), const(0)],
    "length": [const(3), const(2)],
    "size": [const(2), const(3), const(6)],
    "num_classes": [const(3)],
    "num_segments": [const(3)],
    "total_repeat_length": [const(6), const(4), const(3)],
    "repeats": [const(2), I3],
    "reps": [const(2), const((2, 1))],
    "bins": [const(3)],
    "deg": [const(1)],
    "decimals": [const(1)],
    "q": [const(0.5)],
    "unroll": [const(2), const(True)],
    "axis": AXES,
    "axis1": [const(0), const(1)],
    "axis2": [const(1), const(0)],
    "source": [const(0)],
    "destination": [const(1)],
    "start": [const(0), const(1), const(0.0)],
    "stop": [const(3), const(1.0)],
    "step": [const(1)],
    "axes": [const((1, 0)), const(1), const(0), const((0, 1)), const(((1,), (0,)))],
    "dimension": [const(0), const(1)],
    "dim": [const(0)],
    "dtype": DTYPES,
    "new_dtype": DTYPES,
    "int_type": [I32],
    "from_": [I32],
    "to": [F32],
    "arg1": [F32],
    "arg2": [const(np.floating)],
    "kind": [const("real floating")],
    "type1": [F32],
    "type2": [I32],
    "subscripts": [const("ij->ji"), const("ij,ij->ij")],
    "pred": [const(True), c("b0", lambda: np.asarray(True))],
    "index": [const(0), I2],
    "indices": [I2, const(0), const((0, 1)), I23],
    "condition": [B23, B3, const(True)],
    "mask": [B23, B3],
    "where": [B23, B3],
    "condlist": [c("[b23]", lambda: [_b23()])],
    "choicelist": [c("[f23]", lambda: [_f23()])],
    "choices": [F23_PAIR],
    "arrays": [F23_PAIR, c("(f23, f23)", lambda: (_f23(), _f23()))],
    "tup": [F23_PAIR],
    "operands": [F23_PAIR, c("[f23]", lambda: [_f23()])],
    "branches": [const((_first, _first))],
    "body_fun": [LAST, FIRST],
    "cond_fun": [FALSE],
    "true_fun": [FIRST],
    "false_fun": [FIRST],
    "computation": [ADD],
    "lower": [const(0), const(True)],
    "upper": [const(3), const(False)],
    "init_val": [F23, const(0.0)],
    "init": [F23, const(0.0)],
    "init_value": [const(0.0)],
    "init_values": [const(0.0), c("(0.0,)", lambda: (0.0,))],
    "xs": [F3, F23],
    "xp": [F3],
    "fp": [F3],
    "p": [const(0.5), F3, const(2)],
    "data": [const(1), I2],
    "padding": [const("VALID"), const("SAME")],
    "method": [const("linear"), const("nearest")],  # jax.image.resize
    "num_samples": [const(2)],
    "mode": [const("clip"), const("wrap")],
    "axis_name": [const("i")],
    "dimension_numbers": [const(((1,), (0,))), const((((1,), (0,)), ((), ())))],
    "dims": [const((2, 3))],
    "multi_index": [c("(i2, i2)", lambda: (_i2(), _i2()))],
    "fft_type": [const(jax.lax.FftType.FFT)],
    "fft_lengths": [const((3,))],
}
# Names whose candidates are the only sensible values (collectives need a mapped axis name).
ONLY_BY_NAME = frozenset({"axis_name", "subscripts", "key_bits_array", "seed"})
# Values of *args: a tuple of arguments.
VARIADIC_BY_NAME: dict[str, list[Candidate]] = {
    "operands": [c("(f23,)", lambda: (_f23(),)), c("('ij->ji', f23)", lambda: ("ij->ji", _f23()))],
    "shapes": [const(((2, 3),)), const(((2, 3), (1, 3)))],
}
CALLABLE_NAMES = re.compile(r"(^|_)(f|fn|fun|func|function|pyfunc|func1d|callback|body|comparator)(_|$)")


def candidates_for(param: inspect.Parameter) -> list[Candidate]:
    """The values to try for a parameter, most plausible first: by name, then by annotation,
    then a generic list."""
    name = param.name
    if name in BY_NAME:
        found = list(BY_NAME[name])
    elif CALLABLE_NAMES.search(name.lower()):
        found = list(CALLABLES)
    else:
        found = []
    annotation = param.annotation if isinstance(param.annotation, str) else repr(param.annotation)
    if param.annotation is not inspect.Parameter.empty:
        if "Callable" in annotation:
            found += CALLABLES
        if "Array" in annotation:
            found += ARRAYS
        if "DType" in annotation or "dtype" in annotation:
            found += DTYPES
        if re.search(r"\bShape\b|Sequence\[int\]", annotation):
            found += SHAPES
        if re.search(r"\bint\b", annotation):
            found += INTS
        if re.search(r"\bbool\b", annotation):
            found += [const(True), const(False)]
    if name not in ONLY_BY_NAME:
        found += GENERIC
    unique: dict[str, Candidate] = {}
    for cand in found:
        unique.setdefault(cand.label, cand)
    return list(unique.values())


def optional_candidates(param: inspect.Parameter, measurable_only: bool = True) -> list[Candidate]:
    """The values to try for an optional parameter: those of its name, else built from its
    default (the other truth value for a flag, the default itself for a number); with
    ``measurable_only``, only values that can be traced."""
    default = param.default
    if isinstance(default, bool):
        found = [const(not default)]
    elif param.name in BY_NAME:
        found = list(BY_NAME[param.name])
    elif isinstance(default, int | float) and not isinstance(default, bool):
        found = [const(default)]
    elif default is None and re.search(r"\bbool\b", str(param.annotation)):
        found = [const(True), const(False)]
    elif default is None:
        found = [const(0), const(2), const(0.5), F23, B23, const((2, 3)), const(True)]
    else:
        found = []
    if not measurable_only:
        return found[:MAX_OPTIONAL_ATTEMPTS]
    return [cand for cand in found if measurable(cand.make())][:MAX_OPTIONAL_ATTEMPTS]


# ---------------------------------------------------------------------------- calls


OMIT = object()


def value_kind(value: Any) -> str | None:
    """What kind of value a parameter was measured with, or None when it cannot be traced."""
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, jax.Array) and jnp.issubdtype(value.dtype, jax.dtypes.prng_key):
        return "key"
    if isinstance(value, np.ndarray | jax.Array):
        return "array"
    if isinstance(value, tuple | list) and value:
        kinds = {value_kind(item) for item in value}
        if kinds <= {"int", "ints"}:
            return "ints"
        if kinds <= {"array", "int", "float", "bool", "arrays"}:
            return "arrays"
    return None


def measurable(value: Any) -> bool:
    return value_kind(value) is not None


@dataclass
class Call:
    """A function, its signature and one argument value per given parameter."""

    func: Callable[..., Any]
    signature: inspect.Signature
    values: dict[str, Any] = field(default_factory=dict)

    def arguments(self, override: dict[str, Any] | None = None) -> tuple[list[Any], dict[str, Any]]:
        values = {**self.values, **(override or {})}
        params = list(self.signature.parameters.values())
        positional: list[Any] = []
        keywords: dict[str, Any] = {}
        variadic = next((p for p in params if p.kind is p.VAR_POSITIONAL), None)
        # positional parameters go by position up to the last given one (or all, before *args)
        last = -1
        for i, p in enumerate(params):
            if (
                p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.name in values
                and (p.kind is p.POSITIONAL_ONLY or p.default is p.empty or variadic is not None)
            ):
                last = i
        if variadic is not None and variadic.name in values:
            last = params.index(variadic) - 1
        for p in params[: last + 1]:
            positional.append(values.get(p.name, p.default))
        for i, p in enumerate(params):
            if p.name not in values or i <= last:
                continue
            if p.kind is p.VAR_POSITIONAL:
                positional.extend(values[p.name])
            elif p.kind is not p.VAR_KEYWORD:
                keywords[p.name] = values[p.name]
        return positional, keywords

    def run(self, override: dict[str, Any] | None = None) -> Any:
        args, kwargs = self.arguments(override)
        return self.func(*args, **kwargs)

    def with_value(self, name: str, value: Any) -> Call:
        return Call(self.func, self.signature, {**self.values, name: value})

    def without(self, name: str) -> Call:
        return Call(self.func, self.signature, {k: v for k, v in self.values.items() if k != name})


class Timeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def succeeds(thunk: Callable[[], Any]) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = thunk()
            jax.block_until_ready(out)
    except Timeout:
        raise
    except Exception:
        return False
    return True


def eager(call: Call) -> bool:
    return succeeds(call.run)


def trace(
    call: Call, traced: Any = None, rebuild: Callable[[Any], dict[str, Any]] | None = None
) -> tuple[BaseException | None, list[Any]]:
    """Trace the call under ``jit`` with the ``traced`` arguments (a dict of parameter values, or
    what ``rebuild`` turns into one) as tracers and every other argument closed over; returns the
    error it raised (None when it traced) and its outputs."""
    traced = {} if traced is None else traced
    outputs: list[Any] = []

    def jitted(args: Any) -> None:
        outputs.append(call.run(rebuild(args) if rebuild else args))

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            jax.jit(jitted).trace(traced)
    except Timeout:
        raise
    except Exception as error:
        return error, outputs
    return None, outputs


CONCRETIZATION_ERRORS = (
    jax.errors.ConcretizationTypeError,
    jax.errors.TracerIntegerConversionError,
    jax.errors.TracerBoolConversionError,
    jax.errors.TracerArrayConversionError,
)
NAMES_A_TRACER = re.compile(r"Tracer|tracer|concrete|Non-hashable static argument")


def must_be_concrete(error: BaseException) -> bool:
    if isinstance(error, CONCRETIZATION_ERRORS):
        return True
    return isinstance(error, TypeError | ValueError | IndexError) and bool(NAMES_A_TRACER.search(str(error)))


def holds_tracer(outputs: list[Any]) -> bool:
    return any(isinstance(leaf, Tracer) for leaf in jax.tree.leaves(outputs))


# ---------------------------------------------------------------------------- baselines


def signature_of(func: Any, numpy_names: Sequence[str] | None = None) -> inspect.Signature | None:
    """The signature to call ``func`` with; a ufunc's is spelt from its number of inputs."""
    nin = getattr(func, "nin", None)
    if isinstance(nin, int) and type(func).__name__ == "ufunc" and not isinstance(func, np.ufunc):
        names = list(numpy_names or (["x"] if nin == 1 else [f"x{i + 1}" for i in range(nin)]))
        return inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in names])
    try:
        return inspect.signature(func)
    except (TypeError, ValueError):
        return None


def required(signature: inspect.Signature) -> list[inspect.Parameter]:
    return [
        p
        for p in signature.parameters.values()
        if (p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))
        or p.kind is p.VAR_POSITIONAL
    ]


def optional(signature: inspect.Signature) -> list[inspect.Parameter]:
    return [
        p
        for p in signature.parameters.values()
        if p.default is not p.empty and not p.name.startswith("_") and p.name not in UNSET_PARAMETERS
    ]


def variadic_candidates(param: inspect.Parameter) -> list[Candidate]:
    if param.name in VARIADIC_BY_NAME:
        return VARIADIC_BY_NAME[param.name]
    singles = candidates_for(param.replace(kind=inspect.Parameter.POSITIONAL_ONLY))[:6]
    found = [c(f"({cand.label},)", lambda cand=cand: (cand.make(),)) for cand in singles]
    found.insert(1, const(()))
    found.insert(2, c("(f23, f23)", lambda: (_f23(), _f23())))
    return found


def by_rank(lengths: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Index tuples into candidate lists, in order of increasing index sum (best guesses first)."""
    if not lengths:
        yield ()
        return
    total = sum(n - 1 for n in lengths)

    def compose(i: int, remaining: int) -> Iterator[tuple[int, ...]]:
        if i == len(lengths) - 1:
            if remaining < lengths[i]:
                yield (remaining,)
            return
        for first in range(min(remaining, lengths[i] - 1) + 1):
            for rest in compose(i + 1, remaining - first):
                yield (first, *rest)

    for s in range(total + 1):
        yield from compose(0, s)


def search(call: Call, params: Sequence[inspect.Parameter], jit_too: bool, budget: int) -> Call | None:
    """The first combination of candidates for ``params`` with which the call succeeds eagerly
    (and, with ``jit_too``, traces under ``jit`` with every argument closed over)."""
    lists = [variadic_candidates(p) if p.kind is p.VAR_POSITIONAL else candidates_for(p) for p in params]
    for attempt, indices in enumerate(by_rank([len(options) for options in lists])):
        if attempt >= budget:
            return None
        values = {p.name: lists[i][j].make() for i, (p, j) in enumerate(zip(params, indices))}
        found = Call(call.func, call.signature, {**call.values, **values})
        if eager(found) and (not jit_too or trace(found)[0] is None):
            return found
    return None


@dataclass
class Baseline:
    call: Call
    jit_requires: tuple[str, ...] = ()  # optional parameters jit needs, given ``given`` only
    given: tuple[str, ...] = ()
    jit_error: str = ""  # the error under jit with every argument concrete, whatever else is given
    additions: dict[str, Call] = field(default_factory=dict)  # optional parameter -> baseline with it


def find_baseline(func: Any, signature: inspect.Signature) -> Baseline | None:
    """Concrete arguments with which ``func`` succeeds eagerly and under ``jit`` (all closed over)."""
    start = Call(func, signature)
    needed = required(signature)
    found = search(start, needed, jit_too=False, budget=MAX_ATTEMPTS)
    extras = optional(signature)
    if found is None:
        # some calls need an optional parameter (scan needs xs or length)
        for extra in extras:
            found = search(start, [*needed, extra], jit_too=False, budget=MAX_ATTEMPTS // 4)
            if found is not None:
                break
    if found is None:
        return None
    baseline = Baseline(found)
    error = trace(found)[0]
    if error is not None:
        # works eagerly, not under jit: which optional parameter does jit need?
        for extra in extras:
            for cand in optional_candidates(extra, measurable_only=False):
                with_extra = found.with_value(extra.name, cand.make())
                if trace(with_extra)[0] is None and eager(with_extra):
                    baseline = Baseline(with_extra, jit_requires=(extra.name,), given=tuple(found.values))
                    break
            if baseline.jit_requires:
                break
        else:
            return Baseline(found, jit_error=type(error).__name__)
    # each optional parameter on its own; tracing with every argument concrete is the test
    for extra in extras:
        if extra.name in baseline.call.values:
            continue
        addition = _first_traceable(baseline.call, extra)
        for variant in singleton_variants(baseline.call) if addition is None else []:
            addition = _first_traceable(variant, extra, checked_eagerly=True)
            if addition is not None:
                break
        if addition is not None:
            baseline.additions[extra.name] = addition
    return baseline


def _first_traceable(call: Call, extra: inspect.Parameter, checked_eagerly: bool = False) -> Call | None:
    for cand in optional_candidates(extra):
        with_extra = call.with_value(extra.name, cand.make())
        if trace(with_extra)[0] is None and (not checked_eagerly or eager(with_extra)):
            return with_extra
    return None


def singleton_variants(call: Call) -> list[Call]:
    """The call with one array argument given a leading axis of size 1: the only arrays an
    ``axis`` of ``jnp.squeeze`` may name."""
    return [
        call.with_value(name, np.expand_dims(value, 0))
        for name, value in call.values.items()
        if value_kind(value) == "array"
    ]


# ---------------------------------------------------------------------------- measurement


@dataclass
class Parameter:
    name: str
    position: int | None
    variadic: bool
    value: str
    error: str
    unless: list[str] = field(default_factory=list)
    # of ``unless``, the flags and the truth value that lifts the requirement (`strip_zeros=False`)
    lifting_flags: dict[str, bool] = field(default_factory=dict)
    array_ok: bool = False  # an array there may be traced (only an int must be concrete)
    # the forms in which a Python float there raises even eagerly: "scalar" (`zeros(2.0)`),
    # "sequence" (a float in a shape, `(2.0, 3)`)
    rejects_float: tuple[str, ...] = ()
    # the error a JAX array constant there raises under jit (none eagerly): the function stages
    # it (omnistaging); "" where it works
    array_constant_error: str = ""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "error": self.error,
            "name": self.name,
            "position": self.position,
            "value": self.value,
        }
        if self.variadic:
            out["variadic"] = True
        if self.unless:
            out["unless"] = sorted(self.unless)
        if self.lifting_flags:
            out["lifting_flags"] = dict(sorted(self.lifting_flags.items()))
        if self.array_ok:
            out["array_ok"] = True
        if self.array_constant_error:
            out["array_constant_error"] = self.array_constant_error
        if self.rejects_float:
            out["rejects_float"] = list(self.rejects_float)
        return out


@dataclass
class Measured:
    qualname: str
    concrete: list[Parameter] = field(default_factory=list)
    traceable: list[str] = field(default_factory=list)
    unknown: dict[str, str] = field(default_factory=dict)  # parameter -> error
    jit_requires: tuple[str, ...] = ()
    given: tuple[str, ...] = ()
    jit_error: str = ""
    all_positional: bool = False
    rejects_sequence: list[tuple[int | None, str]] = field(default_factory=list)
    static_result: bool | None = None
    baseline: str = ""
    call: Call | None = None


def position_of(signature: inspect.Signature, name: str) -> int | None:
    for i, p in enumerate(signature.parameters.values()):
        if p.name == name:
            return i if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) else None
    return None


def accepts_traced_array(call: Call, name: str) -> bool:
    """Whether a float array in place of the int ``name`` works eagerly and may then be traced
    (``bins`` of ``jnp.histogram``: a count that must be concrete, or edges that need not be)."""
    with_array = call.with_value(name, np.linspace(0.0, 1.0, 5, dtype=np.float32))
    return eager(with_array) and classify(with_array, name)[0] == "traceable"


def float_forms_rejected(call: Call, name: str) -> tuple[str, ...]:
    """The forms in which a Python float in place of the int ``name`` raises eagerly where the
    int works: "scalar" (``jnp.zeros(2.0)``, ``num=5.0``) and "sequence" (``(2.0, 3)`` in a
    shape). A shape or a count must be an integer, while ``jnp.arange`` takes floats."""
    value = call.values[name]
    forms: list[str] = []
    scalar = value[0] if isinstance(value, tuple | list) and value else value
    if (
        _plain_int(scalar)
        and eager(call.with_value(name, scalar))
        and not eager(call.with_value(name, float(scalar)))
    ):
        forms.append("scalar")
    sequence = isinstance(value, tuple | list) and value and _plain_int(value[0]) and eager(call)
    if sequence and not eager(call.with_value(name, type(value)([float(value[0]), *value[1:]]))):
        forms.append("sequence")
    return tuple(forms)


def _plain_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def array_constant_error(call: Call, name: str) -> str:
    """The error class a concrete JAX array (``jnp.int32(3)``, closed over, nothing traced) in
    place of the int ``name`` raises under jit, where it works eagerly: the function stages it
    first, as it would a tracer. "" where it works under jit too, or fails eagerly as well."""
    try:
        constant = jnp.asarray(call.values[name])
    except Exception:
        return ""
    with_constant = call.with_value(name, constant)
    if not eager(with_constant):
        return ""
    error, _ = trace(with_constant, {})
    return type(error).__name__ if error is not None and must_be_concrete(error) else ""


def classify(call: Call, name: str) -> tuple[str, str]:
    """``("traceable", "")``, ``("concrete", error class)`` or ``("unknown", error)``."""
    error, _ = trace(call, {name: call.values[name]})
    if error is None:
        return "traceable", ""
    if must_be_concrete(error) or _python_number_rejected(error, call.values[name]):
        return "concrete", error_under_jit(call, name) or type(error).__name__
    return "unknown", f"{type(error).__name__}: {str(error).splitlines()[0][:160] if str(error) else ''}"


def _python_number_rejected(error: BaseException, value: Any) -> bool:
    """A ``TypeError`` for a parameter measured with a Python number or flag (or a tuple of
    ints) that works concrete: the function checks its type (``axes`` of ``jnp.tensordot``:
    "must be an int, a pair of ints"), which a tracer fails."""
    return isinstance(error, TypeError) and value_kind(value) in ("int", "bool", "ints")


def error_under_jit(call: Call, name: str) -> str | None:
    """The error class for a traced ``name`` where the array arguments are traced too, as they
    are in jitted code (a concrete NumPy array can take another path: ``jnp.reshape`` of one
    raises ``TracerIntegerConversionError``, of a tracer the ``TypeError`` users see)."""
    arrays = {k: v for k, v in call.values.items() if k != name and value_kind(v) == "array"}
    if not arrays:
        return None
    error, _ = trace(call, {name: call.values[name], **arrays})
    return type(error).__name__ if error is not None and must_be_concrete(error) else None


def int_in_place_of_array(call: Call, name: str) -> Parameter | None:
    """A parameter measured traceable with an array that also takes an int, a count the
    function turns into a shape (``x`` of ``jax.random.permutation``, ``a`` of ``choice``): the
    parameter, ``array_ok``, when the int works eagerly and raises traced."""
    counted = call.with_value(name, 3)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            counted.run({})
    except Timeout:
        raise
    except Exception:  # no int there
        return None
    outcome, detail = classify(counted, name)
    if outcome != "concrete":
        return None
    param = call.signature.parameters[name]
    found = Parameter(
        name, position_of(call.signature, name), param.kind is param.VAR_POSITIONAL, "int", detail
    )
    found.array_ok = True
    return found


def _note_flag(param: Parameter, extra: str, lifted: Call) -> None:
    """Record the truth value of the flag ``extra`` with which ``lifted`` took ``param`` traced."""
    value = lifted.values[extra]
    if isinstance(value, bool):
        param.lifting_flags[extra] = value


def _scalar(value: Any) -> bool:
    """A Python float or a 0-d array: the baseline of a parameter that may take a vector."""
    if isinstance(value, bool | np.bool_):
        return False
    return isinstance(value, float) or (isinstance(value, np.ndarray | jax.Array) and value.ndim == 0)


def vector_in_place_of_scalar(call: Call, name: str) -> Parameter | None:
    """A parameter measured traceable with a scalar that also takes a vector, and needs the
    vector concrete (``p`` of ``jnp.roots``: leading zeros are stripped by value): the
    parameter, as an array, when the vector works eagerly and raises traced."""
    vector = call.with_value(name, _f3())
    if not eager(vector):
        return None
    outcome, detail = classify(vector, name)
    if outcome != "concrete":
        return None
    param = call.signature.parameters[name]
    return Parameter(
        name, position_of(call.signature, name), param.kind is param.VAR_POSITIONAL, "array", detail
    )


def describe(call: Call) -> str:
    parts = []
    for name, value in call.values.items():
        text = repr(value) if not isinstance(value, np.ndarray) else f"array{value.shape}:{value.dtype}"
        if isinstance(value, jax.Array):
            text = f"{type(value).__name__}{value.shape}"
        parts.append(f"{name}={text[:40]}")
    return ", ".join(parts)


def measure(qualname: str, func: Any, signature: inspect.Signature) -> Measured | None:
    """The facts about one function, or None when no baseline was found."""
    baseline = find_baseline(func, signature)
    if baseline is None:
        return None
    result = Measured(
        qualname,
        jit_requires=baseline.jit_requires,
        given=baseline.given,
        jit_error=baseline.jit_error,
        baseline=describe(baseline.call),
        call=baseline.call,
    )
    if baseline.jit_error:
        return result
    calls = [(name, baseline.call) for name in baseline.call.values]
    calls += [(name, call) for name, call in baseline.additions.items()]
    for name, call in calls:
        value = call.values[name]
        kind = value_kind(value)
        if kind is None:
            continue
        outcome, detail = classify(call, name)
        if outcome == "traceable" and kind == "array":
            counted = int_in_place_of_array(call, name)
            if counted is not None:  # `permutation(key, x)`: an array may be traced, an int not
                result.concrete.append(counted)
        if outcome == "traceable" and _scalar(value):
            vector = vector_in_place_of_scalar(call, name)
            if vector is not None:  # `roots(p)`: a scalar may be traced, coefficients not
                for extra, with_extra in baseline.additions.items():  # `strip_zeros=False`
                    if classify(with_extra.with_value(name, _f3()), name)[0] == "traceable":
                        vector.unless.append(extra)
                        _note_flag(vector, extra, with_extra)
                result.concrete.append(vector)
        if outcome == "traceable":
            result.traceable.append(name)
        elif outcome == "unknown":
            result.unknown[name] = detail
        else:
            param = signature.parameters[name]
            found = Parameter(
                name, position_of(signature, name), param.kind is param.VAR_POSITIONAL, kind, detail
            )
            if call is baseline.call:
                for extra, with_extra in baseline.additions.items():
                    if classify(with_extra, name)[0] == "traceable":
                        found.unless.append(extra)
                        _note_flag(found, extra, with_extra)
            found.array_ok = kind == "int" and accepts_traced_array(call, name)
            found.array_constant_error = array_constant_error(call, name) if kind == "int" else ""
            found.rejects_float = float_forms_rejected(call, name) if kind in ("int", "ints") else ()
            result.concrete.append(found)
    positional = [
        p.name
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
        and (p.name in result.traceable or any(q.name == p.name for q in result.concrete))
    ]
    result.all_positional = bool(positional) and all(
        any(q.name == n for q in result.concrete) for n in positional
    )
    result.concrete.sort(key=lambda q: (q.position is None, q.position or 0, q.name))
    # a result that holds no tracer when every array argument is traced answers from shapes
    arrays = {n: v for n, v in baseline.call.values.items() if value_kind(v) in ("array", "arrays")}
    if arrays:
        error, outputs = trace(baseline.call, arrays)
        leaves = jax.tree.leaves(outputs)
        if (
            error is None
            and leaves
            and not any(callable(leaf) and not hasattr(leaf, "dtype") for leaf in leaves)
        ):
            result.static_result = not holds_tracer(outputs)
    if qualname.startswith(JNP_MODULES):
        result.rejects_sequence = sequence_rejections(baseline.call, signature)
        for name, addition in baseline.additions.items():  # `jnp.clip(x, [0, 0])`: an optional one
            result.rejects_sequence += sequence_rejections(addition, signature, only=name)
    return result


def as_sequence(value: Any) -> tuple[np.ndarray, list[Any]] | None:
    """An array of one dimension or more standing for ``value`` (a number becomes two of it), and
    the same values as a Python list; None for what has no list form."""
    if isinstance(value, bool | np.bool_):
        return None
    if isinstance(value, int | float):
        array = np.array([value, value], dtype=np.float32 if isinstance(value, float) else np.int32)
    elif isinstance(value, np.ndarray):
        array = value if value.ndim else np.stack([value, value])
    else:
        return None
    return array, array.tolist()


def sequence_rejections(
    call: Call, signature: inspect.Signature, only: str | None = None
) -> list[tuple[int | None, str]]:
    """The arguments where a Python list raises ``TypeError`` eagerly while the same values as an
    array work (``jnp.sum([1, 2])``); each element of ``*args`` on its own; with ``only``, that
    argument alone. Not where a list of arrays (the array's rows) works: the parameter takes a
    sequence of arrays (``choices`` of ``jnp.choose``), and a list there is what it is written for."""
    found: list[tuple[int | None, str]] = []
    for name, value in call.values.items():
        if only is not None and name != only:
            continue
        param = signature.parameters[name]
        position = position_of(signature, name)
        if param.kind is param.VAR_POSITIONAL:
            items = [(None if position is None else position + i, i, item) for i, item in enumerate(value)]
        else:
            items = [(position, None, value)]
        for at, index, item in items:
            pair = as_sequence(item)
            if pair is None:
                continue
            array, listed = pair

            def override(
                new: Any, name: str = name, index: int | None = index, value: Any = value
            ) -> dict[str, Any]:
                return {name: new} if index is None else {name: (*value[:index], new, *value[index + 1 :])}

            if array is not item and not succeeds(
                lambda array=array, override=override: call.run(override(array))
            ):
                continue
            rows = [jnp.asarray(row) for row in array] if array.ndim > 1 else None
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    jax.block_until_ready(call.run(override(listed)))
            except TypeError:
                if rows is None or not succeeds(
                    lambda rows=rows, override=override: call.run(override(rows))
                ):
                    found.append((at, name))
            except Timeout:
                raise
            except Exception:
                pass
    return found


def public_callables(module_name: str) -> Iterator[tuple[str, Any]]:
    """The module's public functions: no private names, classes, dtypes, modules or constants."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or dir(module)
    for name in sorted(names):
        qualname = f"{module_name}.{name}"
        if name.startswith("_") or qualname in SKIP:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                obj = getattr(module, name)
        except Exception:
            continue  # deprecated: warns or raises on access
        if isinstance(obj, types.ModuleType) or inspect.isclass(obj) or isinstance(obj, np.dtype):
            continue
        if not callable(obj):
            continue
        yield qualname, obj


# ---------------------------------------------------------------------------- keys


def key_parameter(call: Call) -> str | None:
    for name, value in call.values.items():
        if value_kind(value) == "key":
            return name
    return None


def dtype_kind(call: Call) -> str | None:
    """The one kind of ``dtype`` a sampler takes, where it takes one and rejects the other:
    ``"float"`` (``uniform(key, dtype=jnp.int32)`` raises) or ``"int"`` (``randint``)."""
    if "dtype" not in call.signature.parameters:
        return None
    takes = {kind: succeeds(lambda d=dtype: call.run({"dtype": d})) for kind, dtype in DTYPE_KINDS.items()}
    accepted = [kind for kind, ok in takes.items() if ok]
    return accepted[0] if len(accepted) == 1 else None


def consumes_key(call: Call, name: str) -> tuple[bool | None, bool | None]:
    """(dynamic, static): whether the call consumes its key, by calling it twice on one key with
    the reuse checker on, and by the checker's signature of the traced call."""
    dynamic: bool | None
    try:
        with jax.debug_key_reuse(True), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            key = jax.random.key(0)
            call.run({name: key})
            try:
                call.run({name: key})
                dynamic = False
            except jax.errors.KeyReuseError:
                dynamic = True
    except Exception:
        dynamic = None
    static: bool | None
    try:
        signature = key_reuse_core.function_type_signature(lambda k: call.run({name: k}), jax.random.key(0))
        static = any(sink.idx == 0 and bool(np.all(sink.mask)) for sink in signature.sinks)
    except Exception:
        static = None
    return dynamic, static


# ---------------------------------------------------------------------------- numpy


def numpy_namesake(qualname: str) -> tuple[str, Any] | None:
    """The NumPy (or SciPy) function a ``jax.numpy`` (or ``jax.scipy``) function is named after."""
    if qualname.startswith("jax.scipy."):
        module_name, _, name = qualname.removeprefix("jax.").rpartition(".")
    else:
        module_name, _, name = f"numpy.{qualname.removeprefix('jax.numpy.')}".rpartition(".")
    try:
        module = importlib.import_module(module_name)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            obj = getattr(module, name)
    except Exception:
        return None
    if inspect.isclass(obj) or not callable(obj) or isinstance(obj, types.ModuleType):
        return None
    return f"{module_name}.{name}", obj


def measure_numpy(qualname: str, func: Any) -> tuple[bool | None, bool | None, str]:
    """(rejects a tracer, result is static, detail) for a NumPy function: a baseline on NumPy
    arrays, then its first array argument traced."""
    signature = signature_of(func)
    if signature is None:
        return None, None, "no signature"
    found = search(Call(func, signature), required(signature), jit_too=False, budget=MAX_ATTEMPTS // 2)
    if found is None:
        return None, None, "no baseline"
    arrays = [n for n, v in found.values.items() if value_kind(v) in ("array", "arrays")]
    # *operands of np.einsum mix the subscripts and the arrays: trace the first array
    mixed = [
        n
        for n, v in found.values.items()
        if isinstance(v, tuple) and any(value_kind(x) == "array" for x in v)
    ]
    if arrays:
        error, outputs = trace(found, {arrays[0]: found.values[arrays[0]]})
    elif mixed:
        name, value = mixed[0], found.values[mixed[0]]
        i = next(i for i, x in enumerate(value) if value_kind(x) == "array")
        error, outputs = trace(found, value[i], lambda t: {name: (*value[:i], t, *value[i + 1 :])})
    else:
        return None, None, f"no array argument ({describe(found)})"
    if error is None:
        static = not holds_tracer(outputs)
        if static and outputs and _answers_otherwise(found, outputs[0]):
            return False, True, "misanswers"  # it caught the conversion error and answered anyway
        later = _rejecting_later(found, arrays[1:])
        return False, static, f"rejects at {','.join(later)}" if later else ""
    if isinstance(error, CONCRETIZATION_ERRORS) or (isinstance(error, TypeError) and "Tracer" in str(error)):
        return True, None, type(error).__name__
    return None, None, f"{type(error).__name__}: {str(error).splitlines()[0][:160] if str(error) else ''}"


def _rejecting_later(found: Call, names: list[str]) -> list[str]:
    """The array parameters after the first that reject a tracer while the first is a NumPy
    array (``np.searchsorted(bounds, v)`` calls ``bounds.searchsorted``, which converts ``v``),
    each as ``position:name``."""
    positions = {name: i for i, name in enumerate(found.signature.parameters)}
    rejecting = []
    for name in names:
        error, _ = trace(found, {name: found.values[name]})
        if error is not None and isinstance(error, jax.errors.TracerArrayConversionError):
            rejecting.append(f"{positions[name]}:{name}")
    return rejecting


def _answers_otherwise(found: Call, traced_answer: Any) -> bool:
    """Whether a static answer given on a tracer differs from the answer on the same values
    (``np.array_equal`` catches the conversion error and says ``False``)."""
    try:
        eager = found.run()
        return (
            type(eager) is type(traced_answer)
            and isinstance(eager, (bool, np.bool_))
            and eager != traced_answer
        )
    except Exception:
        return False


# ---------------------------------------------------------------------------- the run


DTYPE_KINDS = {"float": jnp.float32, "int": jnp.int32}


@dataclass
class Report:
    measured: dict[str, Measured] = field(default_factory=dict)
    unmeasured: dict[str, list[str]] = field(default_factory=dict)
    scanned: dict[str, int] = field(default_factory=dict)
    consumes: list[str] = field(default_factory=list)
    keeps: list[str] = field(default_factory=list)
    key_disagreements: list[str] = field(default_factory=list)
    numpy_rejects: dict[str, str] = field(default_factory=dict)  # function -> error
    numpy_rejects_later: dict[str, list[str]] = field(default_factory=dict)  # -> "position:name"
    numpy_accepts: list[str] = field(default_factory=list)
    numpy_static: list[str] = field(default_factory=list)
    numpy_misanswers: list[str] = field(default_factory=list)  # a static answer unlike the eager one
    numpy_unknown: dict[str, str] = field(default_factory=dict)
    host_only_namesakes: list[str] = field(default_factory=list)  # rejecting, with a JAX namesake
    no_key: list[str] = field(default_factory=list)
    dtype_kinds: dict[str, str] = field(default_factory=dict)  # sampler -> the one dtype kind it takes


def host_only_callables() -> Iterator[tuple[str, Any]]:
    """The functions of ``HOST_ONLY_MODULES`` (not ``scipy.stats.beta``, a distribution object),
    and the methods of each ``scipy.stats`` distribution that ``jax.scipy.stats`` also has, by
    JAX's names (``scipy.stats.norm.cdf``)."""
    for module_name in HOST_ONLY_MODULES:
        for qualname, func in public_callables(module_name):
            if inspect.isroutine(func) or isinstance(func, np.ufunc):
                yield qualname, func
    import jax.scipy.stats as jax_stats
    import scipy.stats as scipy_stats

    for name in sorted(dir(jax_stats)):
        module = getattr(jax_stats, name)
        distribution = getattr(scipy_stats, name, None)
        if not isinstance(module, types.ModuleType) or not isinstance(
            distribution, (scipy_stats.rv_continuous, scipy_stats.rv_discrete)
        ):
            continue
        for method in sorted(m for m in dir(module) if not m.startswith("_")):
            bound = getattr(distribution, method, None)
            if callable(bound) and callable(getattr(module, method)):
                yield f"scipy.stats.{name}.{method}", bound


def jax_namesake(qualname: str) -> bool:
    """Whether JAX has a function of that name under ``jax.`` (``jax.scipy.stats.rankdata``)."""
    return callable(_attribute_path(f"jax.{qualname}"))


def module_of(qualname: str) -> str:
    return max((m for m in MODULES if qualname.startswith(m + ".")), key=len)


def run(only: Sequence[str] = (), verbose: bool = False) -> Report:
    report = Report()
    numpy_names: dict[str, Any] = {}
    for module_name in MODULES:
        report.unmeasured.setdefault(module_name, [])
        report.scanned.setdefault(module_name, 0)
        for qualname, func in public_callables(module_name):
            if only and qualname not in only:
                continue
            report.scanned[module_name] += 1
            namesake = numpy_namesake(qualname) if module_name.startswith(NAMESAKE_MODULES) else None
            if namesake is not None:
                numpy_names[namesake[0]] = namesake[1]
            names = None
            if namesake is not None and isinstance(namesake[1], np.ufunc):
                sig = signature_of(namesake[1])
                if sig is not None:
                    names = [p.name for p in sig.parameters.values() if p.kind is p.POSITIONAL_ONLY]
            signature = signature_of(func, names)
            started = time.perf_counter()
            result = None
            if signature is not None:
                try:
                    with time_limit(SECONDS_PER_FUNCTION):
                        result = measure(qualname, func, signature)
                except Timeout:
                    result = None
            if result is None:
                report.unmeasured[module_name].append(qualname)
                if verbose:
                    print(f"  unmeasured {qualname}", file=sys.stderr)
                continue
            report.measured[qualname] = result
            if verbose:
                concrete = ", ".join(f"{p.name}({p.error})" for p in result.concrete)
                print(
                    f"  {qualname} [{time.perf_counter() - started:.2f}s] ({result.baseline})"
                    + (f" concrete: {concrete}" if concrete else "")
                    + (f" unknown: {result.unknown}" if result.unknown else "")
                    + (f" jit requires {result.jit_requires}" if result.jit_requires else "")
                    + (f" fails under jit: {result.jit_error}" if result.jit_error else ""),
                    file=sys.stderr,
                )
            if module_name == "jax.random":
                assert result.call is not None
                name = key_parameter(result.call)
                if name is None:
                    report.no_key.append(qualname)
                    continue
                dynamic, static = consumes_key(result.call, name)
                if dynamic is None or (static is not None and dynamic != static):
                    report.key_disagreements.append(f"{qualname}: reuse check {dynamic}, signature {static}")
                    continue
                (report.consumes if dynamic else report.keeps).append(qualname)
                kind = dtype_kind(result.call)
                if kind is not None:
                    report.dtype_kinds[qualname] = kind
    host_only = set()  # measured for the conversion alone: what works on a tracer is not recorded
    for qualname, func in host_only_callables():
        if qualname not in numpy_names and (not only or qualname in only):
            numpy_names[qualname] = func
            host_only.add(qualname)
    for qualname in sorted(numpy_names):
        try:
            with time_limit(SECONDS_PER_FUNCTION):
                rejects, static, detail = measure_numpy(qualname, numpy_names[qualname])
        except Timeout:
            rejects, static, detail = None, None, "timeout"
        if rejects is True:
            report.numpy_rejects[qualname] = detail
            if qualname in host_only and jax_namesake(qualname):
                report.host_only_namesakes.append(qualname)
        elif qualname in host_only:
            continue
        elif rejects is False:
            report.numpy_accepts.append(qualname)
            if detail.startswith("rejects at "):
                report.numpy_rejects_later[qualname] = detail.removeprefix("rejects at ").split(",")
            if static:
                report.numpy_static.append(qualname)
            if detail == "misanswers":
                report.numpy_misanswers.append(qualname)
        else:
            report.numpy_unknown[qualname] = detail
    return report


def to_json(report: Report) -> dict[str, Any]:
    concrete = {}
    measured_only: dict[str, list[str]] = {m: [] for m in MODULES}
    for qualname, result in sorted(report.measured.items()):
        if result.jit_error:
            continue
        if result.concrete:
            concrete[qualname] = {
                "all_positional": result.all_positional,
                "parameters": [p.as_json() for p in result.concrete],
            }
        else:
            measured_only[module_of(qualname)].append(qualname)
    summary = {}
    for module_name in MODULES:
        inside = [r for q, r in report.measured.items() if module_of(q) == module_name]
        summary[module_name] = {
            "concrete_parameters": sum(len(r.concrete) for r in inside),
            "functions_with_concrete_parameters": sum(1 for r in inside if r.concrete),
            "measured": len(inside),
            "scanned": report.scanned.get(module_name, 0),
            "unmeasured": len(report.unmeasured.get(module_name, [])),
        }
    return {
        "comment": "Measured by tools/measure_jax_api.py; do not edit by hand. Read with jaxlint.semantic.measured.",
        "jax_version": jax.__version__,
        "jaxlib_version": importlib.metadata.version("jaxlib"),
        "numpy_version": np.__version__,
        "concrete": concrete,
        "measured_without_concrete": measured_only,
        "unmeasured": report.unmeasured,
        "jit_requires": {
            q: {"given": list(r.given), "requires": list(r.jit_requires)}
            for q, r in sorted(report.measured.items())
            if r.jit_requires
        },
        "fails_under_jit": {q: r.jit_error for q, r in sorted(report.measured.items()) if r.jit_error},
        "rejects_sequence": {
            q: [[pos, name] for pos, name in r.rejects_sequence]
            for q, r in sorted(report.measured.items())
            if r.rejects_sequence
        },
        "static_results": sorted(q for q, r in report.measured.items() if r.static_result),
        "inplace_by_default": inplace_by_default(report),
        "array_methods": array_methods(),
        "numpy_only_methods": numpy_only_methods(),
        "numpy_only_attributes": numpy_only_attributes(),
        "schedules": optax_schedules(),
        "records": library_records(),
        "optimizers": optax_stateful(),
        "nnx_layers": nnx_layers(),
        "linen_layers": linen_layers(),
        "equinox_layers": equinox_key_layers(),
        "initializer_factories": initializer_factories(),
        "python_on_tracers": python_on_tracers(),
        "host_callbacks": host_callbacks(),
        "python_on_traced_values": python_on_traced_values(),
        "keys": {
            "consumes": sorted(report.consumes),
            "does_not_consume": sorted(report.keeps),
            "takes_no_key": sorted(report.no_key),
            "dtype_kind": dict(sorted(report.dtype_kinds.items())),
            "initializer_factories": key_consuming_initializers(),
        },
        "numpy": {
            "host_only_modules": list(HOST_ONLY_MODULES),
            "host_only_namesakes": sorted(report.host_only_namesakes),
            "rejects_tracer": dict(sorted(report.numpy_rejects.items())),
            "rejects_tracer_after_first": dict(sorted(report.numpy_rejects_later.items())),
            "accepts_tracer": sorted(report.numpy_accepts),
            "static_results": sorted(report.numpy_static),
            "misanswers_tracer": sorted(report.numpy_misanswers),
            "unmeasured": sorted(report.numpy_unknown),
        },
        "summary": summary,
    }


def inplace_by_default(report: Report) -> list[str]:
    """The measured functions whose ``inplace`` parameter defaults to True and that raise given
    the default: NumPy's in-place signature, which an immutable array cannot honour
    (``jnp.place(a, mask, v)`` raises ``ValueError``; with ``inplace=False`` it returns the new
    array)."""
    found = []
    for qualname, result in sorted(report.measured.items()):
        call = result.call
        parameter = None if call is None else call.signature.parameters.get("inplace")
        if call is None or parameter is None or parameter.default is not True:
            continue
        try:
            call.without("inplace").run()
        except (ValueError, NotImplementedError) as error:  # (`fill_diagonal`: NotImplementedError)
            if "inplace" in str(error):
                found.append(qualname)
    return found


def array_methods() -> dict[str, int]:
    """The methods of ``jax.Array`` that are the ``jax.numpy`` function of that name applied to
    the array (``x.min(axis)`` is ``jnp.min(x, axis)``): for each, how many of its leading
    parameters (after the array) match the function's, by name and kind."""
    found: dict[str, int] = {}
    array_type = type(jnp.zeros(1))
    for name in sorted(dir(array_type)):
        method, function = getattr(array_type, name, None), getattr(jnp, name, None)
        if name.startswith("_") or not callable(method) or not callable(function):
            continue
        try:
            own = list(inspect.signature(method).parameters.values())[1:]
            theirs = list(inspect.signature(function).parameters.values())[1:]
        except (TypeError, ValueError):
            continue
        agree = 0
        for mine, other in zip(own, theirs):
            if (mine.name, mine.kind) != (other.name, other.kind):
                break
            agree += 1
        if agree:
            found[name] = agree
    return found


def numpy_only_methods() -> list[str]:
    """The methods of ``numpy.ndarray`` a JAX array lacks (``fill``, ``resize``, ``itemset``):
    called on a JAX array, eagerly or traced, they raise ``AttributeError``."""
    methods = [
        name for name in dir(np.ndarray) if not name.startswith("_") and callable(getattr(np.ndarray, name))
    ]
    lacking: dict[str, set[str]] = {}

    def probe(x: Any) -> Any:
        lacking["traced"] = {name for name in methods if _lacks(x, name)}
        return x

    jax.jit(probe)(jnp.zeros(3))
    return sorted(name for name in lacking["traced"] if _lacks(jnp.zeros(3), name))


def numpy_only_attributes() -> dict[str, str]:
    """The attributes of ``numpy.ndarray`` (not methods) that a JAX array refuses, eagerly and
    traced, with the error each raises (``flat``: ``NotImplementedError``; ``strides``:
    ``AttributeError``)."""
    names = [n for n in dir(np.ndarray) if not n.startswith("_") and not callable(getattr(np.ndarray, n))]
    traced: dict[str, str] = {}

    def probe(x: Any) -> Any:
        traced.update({n: error for n in names if (error := _refused(x, n))})
        return x

    matrix = jnp.zeros((2, 3))
    jax.jit(probe)(matrix)
    return {n: error for n in sorted(names) if (error := _refused(matrix, n)) and traced.get(n) == error}


def _refused(value: Any, name: str) -> str:
    """The error reading attribute ``name`` of ``value`` raises, or ""."""
    try:
        getattr(value, name)
    except Exception as error:
        return type(error).__name__
    return ""


def _lacks(value: Any, name: str) -> bool:
    try:
        getattr(value, name)
    except AttributeError:
        return True
    except Exception:  # there, but refusing (`flat`)
        return False
    return False


def optax_schedules() -> dict[str, Any]:
    """The optax functions that call a callable they are given with the step count, inside the
    ``update`` of the transformation they build (learning-rate schedules): for each, the
    parameters (name and position) that take one. Measured: the function is built with a probe callable for that
    parameter alone, its ``update`` runs under ``jit``, and the probe must get a tracer. Empty
    (with no version) where optax is not installed."""
    try:
        import optax
    except ImportError:
        return {"optax_version": None, "parameters": {}}
    found: dict[str, list[Any]] = {}
    params, grads = {"w": jnp.ones(2)}, {"w": jnp.ones(2)}
    for name in sorted(dir(optax)):
        function = getattr(optax, name)
        if name.startswith("_") or inspect.isclass(function) or not callable(function):
            continue
        try:
            parameters = list(inspect.signature(function).parameters.values())
        except (TypeError, ValueError):
            continue
        for position, parameter in enumerate(parameters):
            if "Callable" not in str(parameter.annotation):
                continue
            seen: list[bool] = []

            def probe(count: Any, seen: list[bool] = seen) -> Any:
                seen.append(isinstance(count, Tracer))
                return 0.1

            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    transformation = function(**{parameter.name: probe})
                    state = transformation.init(params)
                    jax.jit(transformation.update)(grads, state, params)
            except Exception:  # needs other arguments, or is no transformation
                continue
            if seen and all(seen):
                index = position if parameter.kind is parameter.POSITIONAL_OR_KEYWORD else None
                found.setdefault(f"optax.{name}", []).append([parameter.name, index])
    return {"optax_version": optax.__version__, "parameters": found}


def initializer_factories() -> list[str]:
    """The functions of ``jax.nn.initializers`` that build an initializer (``normal(stddev)``):
    called the way an initializer is, with a key and a shape, they give back a function
    instead of raising, and the mistake surfaces where the "array" is first used."""
    found: list[str] = []
    for name in sorted(dir(jax.nn.initializers)):
        function = getattr(jax.nn.initializers, name)
        if name.startswith("_") or inspect.isclass(function) or not callable(function):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                made = function(_key(), (2, 3))
        except Exception:  # neither: it takes other arguments
            continue
        if callable(made) and not isinstance(made, jax.Array):
            found.append(f"jax.nn.initializers.{name}")
    return found


# Python's own functions that take a sequence of numbers: given a traced vector, they compare,
# hash or convert its items in Python
PYTHON_SEQUENCE_FUNCTIONS = (
    *(f"statistics.{name}" for name in statistics.__all__ if name[0].islower() and name != "correlation"),
    "builtins.sorted",
    "heapq.nlargest",
    "heapq.nsmallest",
)


# SciPy functions that call a Python function on host values, each with the parameter that takes
# it and a call of it with a given function of one float (`f(r) = exp(r) - 2` has a root in
# [0, 1] and a minimum of its square)
HOST_CALLBACK_CALLS: dict[str, tuple[str, Callable[[Any, Callable[..., Any]], Any]]] = {
    "scipy.optimize.brentq": ("f", lambda m, f: m(f, 0.0, 1.0)),
    "scipy.optimize.brenth": ("f", lambda m, f: m(f, 0.0, 1.0)),
    "scipy.optimize.bisect": ("f", lambda m, f: m(f, 0.0, 1.0)),
    "scipy.optimize.ridder": ("f", lambda m, f: m(f, 0.0, 1.0)),
    "scipy.optimize.toms748": ("f", lambda m, f: m(f, 0.0, 1.0)),
    "scipy.optimize.newton": ("func", lambda m, f: m(f, 0.5)),
    "scipy.optimize.root_scalar": ("f", lambda m, f: m(f, bracket=(0.0, 1.0))),
    "scipy.optimize.fsolve": ("func", lambda m, f: m(f, 0.5)),
    "scipy.optimize.root": ("fun", lambda m, f: m(f, 0.5)),
    "scipy.optimize.fixed_point": ("func", lambda m, f: m(lambda r: r - 0.1 * f(r), 0.5)),
    "scipy.optimize.minimize": ("fun", lambda m, f: m(lambda r: f(r[0]) ** 2, np.array([0.5]))),
    "scipy.optimize.minimize_scalar": ("fun", lambda m, f: m(lambda r: f(r) ** 2)),
    "scipy.optimize.least_squares": ("fun", lambda m, f: m(lambda r: f(r[0]), np.array([0.5]))),
    "scipy.optimize.golden": ("func", lambda m, f: m(lambda r: f(r) ** 2)),
    "scipy.optimize.brent": ("func", lambda m, f: m(lambda r: f(r) ** 2)),
    "scipy.optimize.fminbound": ("func", lambda m, f: m(lambda r: f(r) ** 2, 0.0, 1.0)),
    "scipy.optimize.fmin": ("func", lambda m, f: m(lambda r: f(r[0]) ** 2, np.array([0.5]), disp=False)),
    "scipy.optimize.curve_fit": (
        "f",
        lambda m, f: m(lambda x, a: a * x + f(0.5), np.arange(3.0), np.arange(3.0)),
    ),
    "scipy.optimize.approx_fprime": ("f", lambda m, f: m(np.array([0.5]), lambda r: f(r[0]))),
    "scipy.integrate.quad": ("func", lambda m, f: m(f, 0.0, 1.0)),
}


def host_callbacks() -> dict[str, dict[str, Any]]:
    """The SciPy functions that call a Python function on host values and convert what it
    returns: given a function that returns a JAX array made under ``jit`` (from a traced value
    it closes over, or from constants: omnistaging stages ``jnp`` there), each raises. For each:
    the parameter that takes the function, its position, and the error."""
    found: dict[str, dict[str, Any]] = {}
    for qualname, (parameter, run) in HOST_CALLBACK_CALLS.items():
        module_name, name = qualname.rsplit(".", 1)
        func = getattr(importlib.import_module(module_name), name, None)
        signature = None if func is None else signature_of(func)
        if func is None or signature is None or parameter not in signature.parameters:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if not succeeds(partial(run, func, lambda r: np.exp(r) - 2.0)):
                continue  # the template does not run on host values: nothing measured

            def staged(scale: Any, func: Any = func, run: Any = run) -> Any:
                run(func, lambda r: scale * jnp.exp(r) - 2.0)
                return scale

            try:
                jax.jit(staged)(1.0)
            except Timeout:
                raise
            except Exception as error:
                found[qualname] = {
                    "error": type(error).__name__,
                    "parameter": parameter,
                    "position": position_of(signature, parameter),
                }
    return found


def python_on_tracers() -> dict[str, dict[str, str | None]]:
    """For each Python function of :data:`PYTHON_SEQUENCE_FUNCTIONS` that raises on a traced
    vector, the error it raises under ``jit`` (``staged``) and under a bare ``grad`` (``jvp``,
    None where it computes)."""
    found: dict[str, dict[str, str | None]] = {}
    for qualname in PYTHON_SEQUENCE_FUNCTIONS:
        module, _, name = qualname.rpartition(".")
        function = getattr(importlib.import_module(module), name)
        errors = {
            "staged": _error_of(partial(_staged_call, function, module == "heapq")),
            "jvp": _error_of(partial(_differentiated_call, function, module == "heapq")),
        }
        if errors["staged"] is not None:
            found[qualname] = errors
    return found


# Python's own functions of one value (a number, or a dict of them), with the arguments written
# before it (`struct.pack("<f", x)`): given a tracer, they convert, hash or serialise it
PYTHON_VALUE_FUNCTIONS: dict[str, tuple[Any, ...]] = {
    "json.dumps": (),
    "pickle.dumps": (),
    "struct.pack": ("<f",),
    "decimal.Decimal": (),
    "fractions.Fraction": (),
    "builtins.hash": (),
    "builtins.format": (),
    "copy.deepcopy": (),
}


def python_on_traced_values() -> dict[str, dict[str, Any]]:
    """For each function of :data:`PYTHON_VALUE_FUNCTIONS` that raises given a traced scalar:
    the position of that value, and the error under ``jit`` (``staged``) and under a bare
    ``grad`` (``jvp``, None where it computes)."""
    found: dict[str, dict[str, Any]] = {}
    for qualname, before in PYTHON_VALUE_FUNCTIONS.items():
        module, _, name = qualname.rpartition(".")
        function = partial(getattr(importlib.import_module(module), name), *before)
        staged = _error_of(lambda f=function: jax.jit(lambda v: (f(v), v)[1])(1.5))
        jvp = _error_of(lambda f=function: jax.grad(lambda v: (f(v), v)[1])(1.5))
        if staged is not None:
            found[qualname] = {"position": len(before), "staged": staged, "jvp": jvp}
    return found


def _staged_call(function: Callable[..., Any], counted: bool) -> Any:
    """``function`` applied to a traced vector under ``jit`` (``counted``: after a count, as
    ``heapq.nlargest(2, v)``)."""
    return jax.jit(lambda v: jnp.asarray(function(2, v) if counted else function(v), dtype=float))(_f3())


def _differentiated_call(function: Callable[..., Any], counted: bool) -> Any:
    """:func:`_staged_call` under a bare ``grad`` instead."""
    return jax.grad(lambda v: jnp.sum(jnp.asarray(function(2, v) if counted else function(v), dtype=float)))(
        _f3()
    )


def _error_of(thunk: Callable[[], Any]) -> str | None:
    """The name of the exception ``thunk`` raises (None when it returns)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            thunk()
    except Exception as error:
        return type(error).__name__
    return None


def optax_stateful() -> dict[str, Any]:
    """The optax optimizers built with a learning rate of 0.1 (and nothing else) whose state
    carries what earlier steps did (``stateful``: their ``update`` changes some array leaf of
    the state, Adam's moments and count, momentum; re-initialised every step, such an
    optimizer forgets it), and those whose ``update`` raises without ``params``
    (``needs_params``: weight decay, trust ratios), and those whose ``update`` takes required
    keyword-only arguments (``needs_keywords``: ``lbfgs``'s line search needs ``value``, ``grad``
    and ``value_fn``), and those whose updates for positive gradients are all negative
    (``descending``: the minus sign is in the updates, which are added to the parameters).
    Empty (with no version) without optax."""
    try:
        import optax
    except ImportError:
        return {
            "optax_version": None,
            "stateful": [],
            "needs_params": [],
            "needs_keywords": {},
            "descending": [],
        }
    params, grads = {"w": jnp.ones(2)}, {"w": jnp.full(2, 0.5)}
    found: list[str] = []
    needs_params: list[str] = []
    needs_keywords: dict[str, list[str]] = {}
    descending: list[str] = []
    for name in sorted(dir(optax)):
        function = getattr(optax, name)
        if name.startswith("_") or inspect.isclass(function) or not callable(function):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                transformation = function(learning_rate=0.1)
                state = transformation.init(params)
                extra = _required_update_keywords(transformation, grads, state, params)
                if extra:
                    needs_keywords[f"optax.{name}"] = extra
                    continue
                updates, after = transformation.update(grads, state, params)
        except Exception:  # takes no learning rate alone, or is no optimizer
            continue
        if all(bool((np.asarray(leaf) < 0).all()) for leaf in jax.tree_util.tree_leaves(updates)):
            descending.append(f"optax.{name}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                transformation.update(grads, state)
        except Exception:  # `params` missing
            needs_params.append(f"optax.{name}")
        before_leaves = jax.tree_util.tree_leaves(state)
        after_leaves = jax.tree_util.tree_leaves(after)
        if len(before_leaves) == len(after_leaves) and any(
            not np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(before_leaves, after_leaves)
        ):
            found.append(f"optax.{name}")
    needs_keywords.update(_keyword_transformations(optax, params, grads))
    return {
        "optax_version": optax.__version__,
        "stateful": found,
        "needs_params": needs_params,
        "needs_keywords": needs_keywords,
        "descending": descending,
    }


def _keyword_transformations(optax: Any, params: Any, grads: Any) -> dict[str, list[str]]:
    """The optax transformations built with no arguments (``optax.contrib.reduce_on_plateau()``)
    whose ``update`` requires keyword-only arguments (``value``)."""
    found: dict[str, list[str]] = {}
    for prefix, module in (("optax", optax), ("optax.contrib", getattr(optax, "contrib", None))):
        for name in sorted(dir(module)) if module is not None else []:
            function = getattr(module, name)
            if name.startswith("_") or inspect.isclass(function) or not callable(function):
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    transformation = function()
                    state = transformation.init(params)
                    extra = _required_update_keywords(transformation, grads, state, params)
            except Exception:  # needs arguments, or is no transformation
                continue
            if extra:
                found[f"{prefix}.{name}"] = extra
    return found


def _required_update_keywords(transformation: Any, grads: Any, state: Any, params: Any) -> list[str]:
    """The keyword-only arguments ``update(grads, state, params)`` says it misses, when the
    update then runs with them given (``value``, ``grad``, ``value_fn`` of a line search)."""
    try:
        transformation.update(grads, state, params)
        return []
    except TypeError as error:
        missing = re.findall(r"'(\w+)'", str(error)) if "keyword-only" in str(error) else []
    if not missing:
        return []

    def loss(tree: Any) -> Any:
        return sum(jnp.sum(leaf**2) for leaf in jax.tree_util.tree_leaves(tree))

    given = {"value": loss(params), "grad": grads, "value_fn": loss}
    if any(name not in given for name in missing):
        return []
    transformation.update(grads, state, params, **{name: given[name] for name in missing})
    return missing


# argument sets tried, in order, to build each flax nnx layer (with `rngs=nnx.Rngs(0)`)
NNX_LAYER_ARGUMENTS: list[tuple[tuple[int, ...], dict[str, Any]]] = [
    ((2, 3), {}),
    ((2, 3), {"kernel_size": (3,)}),
    ((4,), {}),
    ((4,), {"num_groups": 2}),
]


def nnx_layers() -> dict[str, Any]:
    """The flax nnx layers (``nnx.Linear``...) and the attributes of each that hold an
    ``nnx.Variable`` (``kernel``, ``bias``): what an nnx transformation traces in a layer a
    module holds. Measured: a small layer is built and its attributes looked at. Empty (with no
    version) without flax."""
    try:
        import flax
        from flax import nnx
    except ImportError:
        return {"flax_version": None, "variables": {}}
    found: dict[str, list[str]] = {}
    for name in sorted(dir(nnx)):
        cls = getattr(nnx, name)
        if not (inspect.isclass(cls) and issubclass(cls, nnx.Module)) or cls is nnx.Module:
            continue
        for args, keywords in NNX_LAYER_ARGUMENTS:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    layer = cls(*args, **keywords, rngs=nnx.Rngs(0))
            except Exception:  # other arguments needed
                continue
            held = sorted(k for k, v in vars(layer).items() if isinstance(v, nnx.Variable))
            if held:
                found[f"flax.nnx.{name}"] = held
            break
    return {"flax_version": flax.__version__, "variables": found}


# argument sets tried, in order, to build each flax linen layer
LINEN_LAYER_ARGUMENTS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((3,), {}),
    ((4, 3), {}),
    ((3, (3,)), {}),
    ((), {"num_heads": 1}),
    ((), {"use_running_average": True}),
    ((), {"num_groups": 2}),
    ((), {}),
]


def linen_layers() -> dict[str, Any]:
    """The flax linen layers whose instance raises when called outside ``init``/``apply``
    (``CallCompactUnboundModuleError``; a layer set up in ``setup``: ``AttributeError``):
    the layers with parameters. Measured: a small layer is built and called unbound. Empty
    (with no version) without flax."""
    try:
        import flax
        import flax.linen as nn
    except ImportError:
        return {"flax_version": None, "unbound_call_raises": []}
    inputs = (jnp.ones((2, 4, 4)), jnp.ones((2,), int))  # features, or token ids (`Embed`)
    found: list[str] = []
    for name in sorted(dir(nn)):
        cls = getattr(nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, nn.Module)) or cls is nn.Module:
            continue
        for args, keywords in LINEN_LAYER_ARGUMENTS:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    layer = cls(*args, **keywords)
            except Exception:  # other arguments needed
                continue
            if any(_raises_unbound(layer, given) for given in inputs):
                found.append(f"flax.linen.{name}")
            break
    return {"flax_version": flax.__version__, "unbound_call_raises": found, "mode_flags": linen_mode_flags()}


def linen_mode_flags() -> dict[str, dict[str, Any]]:
    """The flax linen layers with a mode flag that must be given either to the constructor or
    to the call (``Dropout``'s ``deterministic``, ``BatchNorm``'s ``use_running_average``): a
    field defaulting to None that ``__call__`` also takes. Measured: the layer, built without
    the flag, raises ``ValueError`` ("must be passed to the constructor or at call time") when
    ``init`` calls it without the flag, and does not when the call gives it."""
    import flax.linen as nn

    inputs = (jnp.ones((2, 4, 4)), jnp.ones((2,), int))
    found: dict[str, dict[str, Any]] = {}
    for name in sorted(dir(nn)):
        cls = getattr(nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, nn.Module)) or cls is nn.Module:
            continue
        fields = getattr(cls, "__dataclass_fields__", {})
        constructor = list(inspect.signature(cls).parameters)
        call = [p for p in inspect.signature(cls.__call__).parameters if p != "self"]
        for flag in (f for f in constructor if f in call and getattr(fields.get(f), "default", 0) is None):
            for args, keywords in LINEN_LAYER_ARGUMENTS:
                if flag in keywords or len(args) > constructor.index(flag):
                    continue  # the flag given
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        layer = cls(*args, **keywords)
                except Exception:  # other arguments needed
                    continue
                if any(_needs_flag(layer, given, flag) for given in inputs):
                    position = {
                        "constructor_position": constructor.index(flag),
                        "call_position": call.index(flag),
                    }
                    found[f"flax.linen.{name}"] = {"parameter": flag, **position}
                break
    return found


def _needs_flag(layer: Any, given: Any, flag: str) -> bool:
    """Whether ``init`` of ``layer`` on ``given`` raises for want of ``flag``, and runs with it."""
    key = jax.random.key(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            layer.init(key, given)
        except ValueError as error:
            if f'"{flag}" must be passed' not in str(error):
                return False
        except Exception:  # fails otherwise (the input does not suit it): not this error
            return False
        else:
            return False
        try:
            layer.init(key, given, **{flag: True})
        except Exception:
            return False
    return True


# argument sets tried, in order, to build each equinox layer that takes a key
EQX_LAYER_ARGUMENTS: list[tuple[Any, ...]] = [(4, 4), (1, 2, 3, 4), (1, 2, 3), (4, 4, 4, 4), (4,)]


# Where users reach JAX's initializers (flax re-exports them), as they name them.
INITIALIZER_MODULES = ("jax.nn.initializers", "flax.linen.initializers", "flax.nnx.initializers")
# Arguments tried, in turn, to make an initializer (`variance_scaling` needs three).
INITIALIZER_ARGUMENTS: list[tuple[Any, ...]] = [(), (1.0,), (1.0, "fan_in", "normal")]


def key_consuming_initializers() -> list[str]:
    """The initializer factories (``jax.nn.initializers.glorot_normal``) whose initializer
    consumes the key it is given: called twice with one key under ``jax.debug_key_reuse``, the
    second call raises ``KeyReuseError``. Those of flax too, where flax is installed."""
    found = []
    for module_name in INITIALIZER_MODULES:
        module = _attribute_path(module_name)
        for name in sorted(dir(module) if module is not None else ()):
            factory = getattr(module, name)
            if name.startswith("_") or inspect.isclass(factory) or not callable(factory):
                continue
            initializer = _first_made(factory)
            if initializer is None:
                continue
            key = jax.random.key(0)
            try:
                with jax.debug_key_reuse(True):
                    initializer(key, (3, 3))
                    initializer(key, (3, 3))
            except jax.errors.KeyReuseError:
                found.append(f"{module_name}.{name}")
            except Exception:
                continue
    return found


def _attribute_path(dotted: str) -> Any:
    """The object ``dotted`` names: a module imported, then attributes (``flax.nnx.initializers``)."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for part in parts[split:]:
            found = getattr(found, part, None)
        return found
    return None


def _first_made(factory: Callable[..., Any]) -> Callable[..., Any] | None:
    """What ``factory`` makes from the first arguments it takes, when that is callable."""
    for arguments in INITIALIZER_ARGUMENTS:
        try:
            made = factory(*arguments)
        except Exception:
            continue
        return made if callable(made) else None
    return None


def equinox_key_layers() -> dict[str, Any]:
    """The equinox layers (``eqx.nn.Linear``...) whose construction consumes the ``key`` they
    are given: built twice from one key they come out identical, and from another key not.
    Measured: small layers are built with ``key=``. Empty (with no version) without equinox."""
    try:
        import equinox as eqx
    except ImportError:
        return {"equinox_version": None, "consume_key": []}
    found: list[str] = []
    for name in sorted(dir(eqx.nn)):
        cls = getattr(eqx.nn, name)
        try:
            if not inspect.isclass(cls) or "key" not in inspect.signature(cls).parameters:
                continue
        except (TypeError, ValueError):
            continue
        built = _first_built(
            lambda args, cls=cls: [cls(*args, key=jax.random.key(seed)) for seed in (0, 0, 1)]
        )
        if built is None:
            continue
        leaves = [jax.tree_util.tree_leaves(eqx.filter(b, eqx.is_array)) for b in built]
        same = all(np.array_equal(a, b) for a, b in zip(leaves[0], leaves[1]))
        other = any(not np.array_equal(a, b) for a, b in zip(leaves[0], leaves[2]))
        if leaves[0] and same and other:
            found.append(f"equinox.nn.{name}")
    return {
        "equinox_version": eqx.__version__,
        "consume_key": found,
        "jit_rejects": equinox_jit_rejects(),
        "call_needs_key": equinox_call_needs_key(),
        "array_fields": equinox_array_fields(),
        "concrete": equinox_concrete_parameters(),
    }


def equinox_concrete_parameters() -> dict[str, Any]:
    """The parameters of each equinox layer's constructor that must be concrete (sizes, counts:
    ``eqx.nn.Linear(3, width, key=k)`` with a traced ``width`` raises): a small layer is built
    under ``jax.jit`` with each positional argument traced in turn, as ``"concrete"`` records
    them for JAX's functions."""
    import equinox as eqx

    found: dict[str, Any] = {}
    for name in sorted(dir(eqx.nn)):
        cls = getattr(eqx.nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, eqx.Module)):
            continue
        try:
            names = list(inspect.signature(cls).parameters)
        except (TypeError, ValueError):
            continue
        args = next((a for a in EQX_LAYER_ARGUMENTS if "key" in names and _builds(cls, a)), None)
        if args is None:
            continue
        parameters = []
        for position, value in enumerate(args):
            built = partial(_build_with, cls, args, position)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    jax.jit(built)(value)
            except Exception as error:
                if must_be_concrete(error):
                    parameters.append(
                        {
                            "error": type(error).__name__,
                            "name": names[position],
                            "position": position,
                            "value": "int",
                        }
                    )
        if parameters:
            found[f"equinox.nn.{name}"] = {"all_positional": False, "parameters": parameters}
    return found


def _builds(cls: Any, args: tuple[Any, ...]) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cls(*args, key=jax.random.key(0))
    except Exception:  # other arguments needed
        return False
    return True


def _build_with(cls: Any, args: tuple[Any, ...], position: int, value: Any) -> Any:
    return cls(*args[:position], value, *args[position + 1 :], key=jax.random.key(0))


def equinox_array_fields() -> dict[str, list[str]]:
    """The fields of each equinox layer that hold a JAX array once it is built (``Linear``:
    ``weight`` and ``bias``): a JAX array is immutable, so ``layer.weight[0] = 0.0`` raises.
    Measured: small layers built with the arguments of :data:`EQX_LAYER_ARGUMENTS` (and a key,
    where they take one); a field left ``None`` by those arguments is not recorded."""
    import equinox as eqx

    found: dict[str, list[str]] = {}
    for name in sorted(dir(eqx.nn)):
        cls = getattr(eqx.nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, eqx.Module)):
            continue
        try:
            keyed = "key" in inspect.signature(cls).parameters
        except (TypeError, ValueError):
            continue
        built = _first_built(
            lambda args, cls=cls, keyed=keyed: cls(*args, key=jax.random.key(0)) if keyed else cls(*args)
        )
        fields = (
            [] if built is None else sorted(f for f, v in vars(built).items() if isinstance(v, jax.Array))
        )
        if fields:
            found[f"equinox.nn.{name}"] = fields
    return found


def _first_built(build: Callable[[tuple[Any, ...]], Any]) -> Any:
    """What ``build`` makes of the first arguments of :data:`EQX_LAYER_ARGUMENTS` it takes
    without raising (warnings silenced), or None where it takes none."""
    for args in EQX_LAYER_ARGUMENTS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return build(args)
        except Exception:  # other arguments needed
            continue
    return None


def equinox_call_needs_key() -> list[str]:
    """The equinox layers with an ``inference`` switch whose call, in training mode (the
    default), raises without a ``key`` (``Dropout``: "requires a key when running in
    non-deterministic mode"), and runs with one or with ``inference=True``. Measured: a small
    layer is built with its defaults and called on an array."""
    import equinox as eqx

    found: list[str] = []
    given = jnp.ones((2, 4))
    for name in sorted(dir(eqx.nn)):
        cls = getattr(eqx.nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, eqx.Module)):
            continue
        try:
            if "inference" not in inspect.signature(cls).parameters:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                layer = cls()
        except Exception:  # arguments needed: its defaults are not measured
            continue
        try:
            layer(given)
        except RuntimeError as error:
            if "key" in str(error):
                layer(given, key=jax.random.key(0))
                layer(given, inference=True)
                found.append(f"equinox.nn.{name}")
        except Exception:  # fails otherwise: not this question
            continue
    return found


def equinox_jit_rejects() -> list[str]:
    """The equinox layers that plain ``jax.jit`` cannot take as an argument: their pytree
    holds a leaf that is no JAX type (``MLP``'s activation function), so ``jit`` raises
    ``TypeError`` where ``eqx.filter_jit`` works. Measured: a small layer is passed to a
    jitted identity."""
    import equinox as eqx

    found: list[str] = []
    for name in sorted(dir(eqx.nn)):
        cls = getattr(eqx.nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, eqx.Module)):
            continue
        for args in EQX_LAYER_ARGUMENTS:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    layer = cls(*args, key=jax.random.key(0))
            except Exception:  # other arguments needed
                continue
            try:
                jax.jit(lambda module: 0)(layer)
            except TypeError:
                try:
                    eqx.filter_jit(lambda module: 0)(layer)
                except Exception:  # not a jit question
                    break
                found.append(f"equinox.nn.{name}")
            break
    return found


def _raises_unbound(layer: Any, given: Any) -> bool:
    """Whether calling ``layer`` unbound raises flax's unbound-module error."""
    import flax.errors

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            layer(given)
    except flax.errors.CallCompactUnboundModuleError:
        return True
    except AttributeError as error:
        return "setup" in str(error)
    except Exception:  # fails otherwise (the input does not suit it): not this error
        return False
    return False


# Pytree classes of libraries whose instances JAX code hands to `jit` (a flax `TrainState` to a
# train step), each with a function that builds a small instance
LIBRARY_RECORDS: dict[str, Callable[[], Any]] = {
    "flax.training.train_state.TrainState": lambda: _train_state(),
}


def _train_state() -> Any:
    import optax
    from flax.training import train_state

    return train_state.TrainState.create(
        apply_fn=lambda params, x: x, params={"w": jnp.ones(2)}, tx=optax.adam(0.1)
    )


def library_records() -> dict[str, Any]:
    """What each field of a library's pytree class holds when an instance is passed to ``jit``:
    ``"traced"`` (a tracer), ``"container"`` (a dict, list or tuple of tracers) or ``"static"``
    (kept in the treedef: a function, a transformation). Measured: a small instance goes
    through ``jax.jit`` and each field is looked at there. A class whose library is not
    installed is left out."""
    import dataclasses

    found: dict[str, list[list[str]]] = {}
    for qualname, make in LIBRARY_RECORDS.items():
        try:
            instance = make()
        except ImportError:
            continue
        kinds: list[list[str]] = []

        def look(value: Any, kinds: list[list[str]] = kinds) -> Any:
            for item in dataclasses.fields(value):
                held = getattr(value, item.name)
                leaves = jax.tree_util.tree_leaves(held)
                if isinstance(held, Tracer):
                    kinds.append([item.name, "traced"])
                elif leaves and all(isinstance(leaf, Tracer) for leaf in leaves):
                    kinds.append([item.name, "container"])
                elif not any(isinstance(leaf, Tracer) for leaf in leaves):
                    kinds.append([item.name, "static"])
            return 0

        jax.jit(look)(instance)
        found[qualname] = kinds
    return found


def dumps(data: Any, depth: int = 0) -> str:
    """Stable JSON for review: dicts expanded to the second level, lists of names one per line,
    everything deeper on one line."""
    indent = " " * (depth + 1)
    flat = isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
    if isinstance(data, dict) and data and (depth < 2 or flat):
        items = [f"{indent}{json.dumps(k)}: {dumps(data[k], depth + 1)}" for k in sorted(data)]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    if isinstance(data, list) and data and all(isinstance(item, str) for item in data):
        return "[\n" + ",\n".join(f"{indent}{json.dumps(item)}" for item in data) + "\n" + " " * depth + "]"
    return json.dumps(data, sort_keys=True)


def print_summary(data: dict[str, Any], report: Report, seconds: float) -> None:
    print(
        f"JAX {data['jax_version']} (jaxlib {data['jaxlib_version']}, NumPy {data['numpy_version']}), {seconds:.0f} s"
    )
    for module_name, row in data["summary"].items():
        print(
            f"  {module_name:18} scanned {row['scanned']:4}  measured {row['measured']:4}  "
            f"unmeasured {row['unmeasured']:3}  with concrete parameters {row['functions_with_concrete_parameters']:3}"
            f"  concrete parameters {row['concrete_parameters']:3}"
        )
    keys = data["keys"]
    print(
        f"  keys: {len(keys['consumes'])} consume, {len(keys['does_not_consume'])} do not: {keys['does_not_consume']}"
    )
    for line in report.key_disagreements:
        print(f"  key check disagreement: {line}")
    numpy = data["numpy"]
    print(
        f"  numpy: {len(numpy['rejects_tracer'])} reject a tracer, {len(numpy['accepts_tracer'])} accept one,"
        f" {len(numpy['unmeasured'])} unmeasured"
    )
    print(f"  jit requires: {data['jit_requires']}")
    print(f"  static results: {data['static_results']}")
    print(f"  rejects a sequence: {len(data['rejects_sequence'])} functions")
    unknown = {q: r.unknown for q, r in report.measured.items() if r.unknown}
    print(
        f"  parameters with another error under jit (not recorded): {sum(len(u) for u in unknown.values())}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--output", type=Path, help=f"where to write (default {OUTPUT.relative_to(ROOT)})")
    parser.add_argument("--check", action="store_true", help="fail if the stored file differs")
    parser.add_argument("--verbose", action="store_true", help="each function's baseline and findings")
    parser.add_argument(
        "--only",
        nargs="*",
        default=(),
        help="measure these qualified names only; print the JSON, or write it to --output if given",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = run(args.only, args.verbose)
    data = to_json(report)
    text = dumps(data) + "\n"
    print_summary(data, report, time.perf_counter() - started)
    if args.verbose:
        for qualname, result in sorted(report.measured.items()):
            for name, detail in result.unknown.items():
                print(f"  other error: {qualname}({name}): {detail}", file=sys.stderr)
        for qualname, detail in report.numpy_unknown.items():
            print(f"  numpy unmeasured: {qualname}: {detail}", file=sys.stderr)
    if args.only and args.output is None:
        print(text)
        return 0
    output: Path = args.output or OUTPUT
    if args.check:
        stored = output.read_text() if output.exists() else ""
        if stored != text:
            print(f"{output} is stale: run python tools/measure_jax_api.py", file=sys.stderr)
            return 1
        print(f"{output} is current")
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text)
    print(f"wrote {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
