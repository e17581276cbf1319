"""Run generated programs with JAX and record what JAX did: the ground truth.

Each program is loaded fresh (its own module objects, its own working directory) once per
*mode*: ``eager`` (under ``jax.disable_jit()``) and ``jit`` (as written), and ``main`` is called
three times: with ``inputs(0)``, with new inputs ``inputs(1)``, and with ``inputs(0)`` again.
The verdict comes only from what JAX did:

* an error JAX raised (tracer bool/integer/array conversion, concretization, non-concrete
  boolean index, immutable arrays, key reuse, non-hashable static argument, a list where an
  array is required, a removed API), at a line of the program;
* a side effect (stdout, a log record, a file write, a global or an attribute changed) that
  happens on both eager calls but under jit only on the first (while tracing); text that shows
  a tracer instead of a value; a tracer left in a global or an attribute;
* a value frozen at trace time: the eager calls with equal inputs differ, the compiled do not;
* a stale global: after a module rebinds a global, eager follows it and the compiled call not;
* PRNG key reuse: ``jax.debug_key_reuse`` raises within a call or on the second of two calls (a
  key kept between calls, such as a module-level key), or two draws of one call consume keys
  with equal values (legacy ``PRNGKey`` arrays included);
* recompilation: the third call (same inputs as the first) compiles a function of the program
  again, or one call compiles the same function of the program more than once (counted with
  ``jax.monitoring``);
* program size: the traced program has ``MAX_EQUATIONS`` equations or more (an unrolled loop);
* a functional update whose result the traced program never uses (dead ``scatter``), also one
  JAX's dead-code elimination drops while tracing (a ``while_loop`` condition, a ``checkpoint``);
* draws inside ``vmap`` from a key made there from a constant seed (every element draws alike);
* a timer read while a computation is still pending (``is_ready()`` right after the timer);
* the float64 warning JAX gives when x64 is off.

A program with none of these that ran cleanly in both modes is clean. A program whose run is
not conclusive (an error JAX did not explain, an error away from the marked lines, evidence of a
family the program was not written for when more than one family fits, legacy keys drawn under
a transform that hides their values, jit output different from eager with no cause found) is
dropped with the reason, never guessed.

Workers: ``python -m tests.groundtruth.oracle --worker IDS_FILE`` judges the programs named in
the file and prints one JSON verdict per line; :func:`judge_all` runs a pool of them.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import importlib.util
import io
import json
import logging
import operator
import os
import random as pyrandom
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import timeit
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.extend.core
import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from jaxlint_runtime.probes import counting_compilations, perturbed, rebound_globals
from jaxlint_runtime.randomness import consuming_functions, key_value
from tests.groundtruth.generator import Program, universe

MAX_EQUATIONS = 1000
TIMEOUT_S = 60
ROOT = Path(__file__).resolve().parents[2]

# error type -> families whose hazards JAX reports with it; (type, message pattern) first
ERRORS: list[tuple[str, str, frozenset[str]]] = [
    ("TracerBoolConversionError", "", frozenset({"JAX5"})),
    ("TracerIntegerConversionError", "", frozenset({"JAX5", "JAX4"})),
    ("TracerArrayConversionError", "", frozenset({"JAX6", "JAX5"})),
    ("NonConcreteBooleanIndexError", "", frozenset({"JAX4"})),
    ("ConcretizationTypeError", "", frozenset({"JAX4", "JAX5"})),
    ("KeyReuseError", "", frozenset({"JAX3"})),
    ("UnexpectedTracerError", "", frozenset({"JAX1"})),
    ("TypeError", "JAX arrays are immutable", frozenset({"JAX2"})),
    ("TypeError", "does not support item assignment", frozenset({"JAX2"})),
    ("TypeError", "Shapes must be 1D sequences of concrete values", frozenset({"JAX4"})),
    # jnp.tile / jnp.repeat with traced repetitions: the traced count reaches a primitive parameter
    ("TypeError", "parameters to jaxpr equations must have __hash__", frozenset({"JAX4"})),
    ("TypeError", "requires ndarray or scalar arguments", frozenset({"JAX6"})),
    ("IndexError", "must be static", frozenset({"JAX4"})),
    ("IndexError", "Slice entries must be static", frozenset({"JAX4"})),
    ("IndexError", "slice indices must have static", frozenset({"JAX4"})),  # JAX 0.11
    ("ValueError", "Non-hashable static arguments", frozenset({"JAX6"})),
    # a tracer or array hashed (`x in {3, 7}`), or a tracer used as a count (`[0.0] * n`)
    ("TypeError", "Tracer'", frozenset({"JAX5", "JAX6"})),
    ("TypeError", "unhashable type: 'jaxlib", frozenset({"JAX5", "JAX6"})),
    ("TypeError", "unhashable type", frozenset({"JAX6"})),
    ("AttributeError", "__delitem__", frozenset({"JAX2"})),
    # a list or tuple repeated by a JAX array, concrete or traced: Python cannot multiply them
    ("TypeError", "for *: 'list' and", frozenset({"JAX5"})),
    ("TypeError", "for *: 'tuple' and", frozenset({"JAX5"})),
    ("TypeError", "for *: 'ArrayImpl' and 'list'", frozenset({"JAX5"})),
    ("TypeError", "for *: 'ArrayImpl' and 'tuple'", frozenset({"JAX5"})),
    ("AttributeError", "module 'jax", frozenset({"JAX6"})),
]
TRACER_TEXT = re.compile(r"\b\w*Tracer\((?!primal=)|Traced<")


@dataclass
class Evidence:
    kind: str
    families: frozenset[str]
    detail: str
    line: int | None = None
    path: str | None = None


@dataclass
class Call:
    ok: bool = False
    value: Any = None
    error: BaseException | None = None
    error_site: tuple[str, int] | None = None
    effect: int = 0
    text: str = ""
    compiled: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    pending_timer: bool = False
    timer_reads: int = 0


@dataclass
class Mode:
    name: str
    calls: list[Call] = field(default_factory=list)
    modules: list[Any] = field(default_factory=list)
    load_error: BaseException | None = None
    draws: list[tuple[str, bytes | None, bool]] = field(default_factory=list)
    unmapped_draws: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# loading


class Loader:
    """Writes a program under a scratch folder and imports fresh module objects for it."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.code = scratch / "code"
        self.code.mkdir(parents=True, exist_ok=True)
        if str(self.code) not in sys.path:
            sys.path.insert(0, str(self.code))

    def write(self, program: Program) -> None:
        for name, source in program.files:
            path = self.code / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source)
        importlib.invalidate_caches()

    def remove(self, program: Program) -> None:
        top = program.entry.split(".")[0]
        self._purge(top)
        target = self.code / top
        if target.is_dir():
            shutil.rmtree(target, ignore_errors=True)
        (self.code / f"{top}.py").unlink(missing_ok=True)

    def _purge(self, top: str) -> None:
        for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
            del sys.modules[name]

    def load(self, program: Program) -> list[Any]:
        top = program.entry.split(".")[0]
        self._purge(top)
        entry = importlib.import_module(program.entry)
        return [entry] + [m for n, m in sys.modules.items() if n.startswith(top + ".") and m is not entry]


# ---------------------------------------------------------------------------------------------
# observation


def _is_tracer(value: Any) -> bool:
    return isinstance(value, Tracer)


def _fingerprint(value: Any, depth: int = 0) -> Any:
    if _is_tracer(value):
        return ("tracer", id(value))
    if isinstance(value, int | float | complex | str | bytes | bool | type(None)):
        return ("value", repr(value))
    if isinstance(value, list | dict | set | tuple | bytearray):
        return ("size", type(value).__name__, len(value))
    if isinstance(value, jax.Array | np.ndarray):
        return ("array", id(value))
    if isinstance(value, logging.Logger):
        return ("logger",)
    hint = getattr(type(value), "__length_hint__", None)
    if hint is not None:
        return ("iterator", operator.length_hint(value))
    attrs = getattr(value, "__dict__", None)
    if depth == 0 and isinstance(attrs, dict):
        return (
            "object",
            tuple(sorted((k, _fingerprint(v, 1)) for k, v in attrs.items() if not callable(v))),
        )
    return ("object", id(value))


def _state(modules: list[Any]) -> dict[tuple[str, str], Any]:
    out = {}
    for module in modules:
        for name, value in sorted(vars(module).items()):
            if name.startswith("__") or callable(value) or type(value).__name__ == "module":
                continue
            out[(module.__name__, name)] = _fingerprint(value)
    return out


def _amount(a: Any, b: Any) -> int:
    """How much one fingerprint changed: numeric difference, size difference, or 1."""
    if a == b:
        return 0
    if isinstance(a, tuple) and isinstance(b, tuple) and a and b and a[0] == b[0]:
        if a[0] == "value":
            try:
                return max(1, round(abs(float(b[1]) - float(a[1]))))
            except ValueError:
                return 1
        if a[0] in ("size", "iterator"):
            return max(1, abs(b[-1] - a[-1]))
        if a[0] == "object" and isinstance(a[1], tuple) and isinstance(b[1], tuple):
            left, right = dict(a[1]), dict(b[1])
            return max(1, sum(_amount(left.get(k), right.get(k)) for k in left.keys() | right.keys()))
    return 1


def _state_change(before: dict[tuple[str, str], Any], after: dict[tuple[str, str], Any]) -> int:
    return sum(_amount(before.get(k), after.get(k)) for k in before.keys() | after.keys())


def _leaks(modules: list[Any]) -> list[str]:
    found = []
    for module in modules:
        for name, value in vars(module).items():
            if name.startswith("__") or type(value).__name__ == "module":
                continue
            children: list[Any] = [value]
            if isinstance(value, list | tuple | set):
                children += list(value)
            elif isinstance(value, dict):
                children += list(value.values())
            elif not callable(value) and isinstance(getattr(value, "__dict__", None), dict):
                children += list(vars(value).values())
            if any(_is_tracer(child) for child in children):
                found.append(name)
    return found


def _files_state(cwd: Path) -> tuple[int, str]:
    """Lines in the files of the working directory, and their text."""
    lines, text = 0, []
    for path in sorted(cwd.glob("*")):
        if path.is_file():
            with contextlib.suppress(Exception):
                content = path.read_text()
                lines += content.count("\n")
                text.append(content[-4000:])
    return lines, "\n".join(text)


class _LogCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            self.messages.append(record.getMessage())


def _error_site(error: BaseException, files: set[str]) -> tuple[str, int] | None:
    site = None
    tb = error.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        for f in files:
            if name.endswith(f):
                site = (f, tb.tb_lineno)
        tb = tb.tb_next
    if site is None and isinstance(error, SyntaxError) and error.filename:
        pass
    cause = error.__cause__ or error.__context__
    if site is None and cause is not None and cause is not error:
        return _error_site(cause, files)
    return site


def _block(tree: Any) -> Any:
    return jax.block_until_ready(tree)


class _Timers:
    """Patches the clocks (and Python and NumPy randomness) programs use: counts the calls from
    the program's code, and records whether a computation was pending at a clock read."""

    NAMES = (("perf_counter", time), ("time", time), ("monotonic", time), ("default_timer", timeit))
    HOST = (
        ("random", pyrandom),
        ("uniform", pyrandom),
        ("gauss", pyrandom),
        ("normal", np.random),
        ("uniform", np.random),
        ("rand", np.random),
    )

    def __init__(self, files: set[str]) -> None:
        self.files = files
        self.pending = False
        self.reads = 0

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        originals = [(owner, name, getattr(owner, name)) for name, owner in self.NAMES]
        hosts = [(owner, name, getattr(owner, name)) for name, owner in self.HOST]
        for owner, name, original in originals:
            setattr(owner, name, self._wrap(original))
        for owner, name, original in hosts:
            setattr(owner, name, self._count(original))
        originals += hosts
        try:
            yield
        finally:
            for owner, name, original in originals:
                setattr(owner, name, original)

    def _count(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_code.co_filename
            if any(caller.endswith(f) for f in self.files):
                self.reads += 1
            return original(*args, **kwargs)

        return call

    def _wrap(self, original: Callable[[], float]) -> Callable[[], float]:
        def read() -> float:
            caller = sys._getframe(1).f_code.co_filename
            if any(caller.endswith(f) for f in self.files):
                self.reads += 1
                if any(not a.is_ready() for a in jax.live_arrays()):
                    self.pending = True
            return original()

        return read


DERIVING = ("split", "fold_in", "clone")  # jax.random functions making keys from a key


class _Draws:
    """Records the key every consuming ``jax.random`` call receives (value, typed or not), and
    the draws inside ``vmap`` from a key made there from a constant seed (or split or folded
    from one): the same key for every element."""

    def __init__(self) -> None:
        self.draws: list[tuple[str, bytes | None, bool]] = []
        self.unmapped: list[str] = []  # draws inside `vmap` from a key made there from a constant
        self.made_unmapped: set[bytes] = set()  # the values of such keys
        self.depth = 0

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        originals = consuming_functions()
        makers = {name: getattr(jax.random, name) for name in ("key", "PRNGKey")}
        derivers = {name: getattr(jax.random, name) for name in DERIVING if name not in originals}
        for name, function in originals.items():
            setattr(jax.random, name, self._wrap(name, function))
        for name, function in makers.items():
            setattr(jax.random, name, self._wrap_maker(function))
        for name, function in derivers.items():
            setattr(jax.random, name, self._wrap_deriver(function))
        try:
            yield
        finally:
            for name, function in {**originals, **makers, **derivers}.items():
                setattr(jax.random, name, function)

    def _wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def recording(key: Any, *args: Any, **kwargs: Any) -> Any:
            unmapped = _mapping() and key_value(key) in self.made_unmapped
            if self.depth == 0:
                typed = False
                with contextlib.suppress(Exception):
                    typed = jnp.issubdtype(key.dtype, jax.dtypes.prng_key)
                self.draws.append((name, key_value(key), typed))
                if unmapped:
                    self.unmapped.append(name)
            self.depth += 1
            try:
                result = function(key, *args, **kwargs)
            finally:
                self.depth -= 1
            if unmapped and name in DERIVING:
                self._remember(result)
            return result

        return recording

    def _wrap_deriver(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def deriving(key: Any, *args: Any, **kwargs: Any) -> Any:
            result = function(key, *args, **kwargs)
            if _mapping() and key_value(key) in self.made_unmapped:
                self._remember(result)
            return result

        return deriving

    def _wrap_maker(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def making(seed: Any, *args: Any, **kwargs: Any) -> Any:
            key = function(seed, *args, **kwargs)
            if _mapping() and not isinstance(seed, Tracer):
                self._remember(key)
            return key

        return making

    def _remember(self, keys: Any) -> None:
        """Keep the values of concrete keys (one, or an array of them) made from a constant."""
        with contextlib.suppress(Exception):
            typed = jnp.issubdtype(keys.dtype, jax.dtypes.prng_key)
            single = keys.ndim == (0 if typed else 1)
            for key in [keys] if single else list(keys):
                value = key_value(key)
                if value is not None:
                    self.made_unmapped.add(value)


def _mapping() -> bool:
    """Whether the code running now is mapped by ``vmap`` (eagerly: jit disabled). A concrete
    value there is the same for every element."""
    from jax._src import core

    return type(core.trace_ctx.trace).__name__ == "BatchTrace"


def _function_name(compiled: str) -> str:
    """``jit(step)`` -> ``step``: the name of the Python function a compilation was for."""
    while (match := re.fullmatch(r"\w+\((.*)\)", compiled)) is not None:
        compiled = match.group(1)
    return compiled


def _program_names(program: Program) -> set[str]:
    import ast

    names = {"<lambda>"}
    for _, source in program.files:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef):
                names.add(node.name)
    return names


_REMAT = re.compile(r"\b(checkpoint|remat)\(|@(jax\.)?(checkpoint|remat)\b")


def run_mode(
    program: Program, loader: Loader, cwd: Path, eager: bool, check_keys: bool = False, calls: int = 3
) -> Mode:
    mode = Mode("eager" if eager else "jit")
    files = {name for name, _ in program.files}
    remat = any(_REMAT.search(source) for _, source in program.files)
    names = _program_names(program)
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mode.modules = loader.load(program)
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt | _Timeout):
            raise
        mode.load_error = error
        return mode
    entry = mode.modules[0]
    root = logging.getLogger()
    capture = _LogCapture()
    seeds = [0, 1, 0][:calls]
    for index, seed in enumerate(seeds):
        call = Call()
        compiled: list[str] = []
        caught: list[warnings.WarningMessage] = []
        before_state = _state(mode.modules)
        before_files = _files_state(cwd)
        capture.messages = []
        out = io.StringIO()
        timers = _Timers(files)
        draws = _Draws()
        old_level = root.level
        root.addHandler(capture)
        root.setLevel(logging.DEBUG)
        try:
            with contextlib.ExitStack() as stack:
                stack.enter_context(contextlib.redirect_stdout(out))
                caught = stack.enter_context(warnings.catch_warnings(record=True))
                warnings.simplefilter("always")
                compiled = stack.enter_context(counting_compilations())
                if eager:
                    if remat:
                        # `jax.checkpoint` caches its traced program on the function even under
                        # `disable_jit`: cleared, every eager call runs the Python code again
                        jax.clear_caches()
                    stack.enter_context(jax.disable_jit())
                stack.enter_context(timers.active())
                if index == 0:
                    stack.enter_context(draws.active())
                if check_keys:
                    stack.enter_context(jax.debug_key_reuse(True))
                args = _block(entry.inputs(seed))
                call.value = _block(entry.main(*args))
                jax.effects_barrier()
                call.ok = True
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt | _Timeout):
                raise
            call.error = error
            call.error_site = _error_site(error, files)
            with contextlib.suppress(Exception):
                jax.effects_barrier()
        finally:
            root.removeHandler(capture)
            root.setLevel(old_level)
        call.compiled = [n for n in map(_function_name, compiled) if n in names]
        call.warnings = [str(w.message) for w in caught]
        after_files = _files_state(cwd)
        call.text = out.getvalue() + "\n".join(capture.messages) + after_files[1]
        call.effect = (
            out.getvalue().count("\n")
            + len(capture.messages)
            + abs(after_files[0] - before_files[0])
            + _state_change(before_state, _state(mode.modules))
            + timers.reads  # host clocks and Python/NumPy randomness called by the program's code
        )
        call.pending_timer, call.timer_reads = timers.pending, timers.reads
        if index == 0:
            mode.draws, mode.unmapped_draws = draws.draws, draws.unmapped
            mode.leaked = _leaks(mode.modules)
        mode.calls.append(call)
        if not call.ok:
            break
    return mode


# ---------------------------------------------------------------------------------------------
# comparisons


def _leaves(tree: Any) -> list[np.ndarray]:
    out = []
    for leaf in jax.tree.leaves(tree):
        if isinstance(leaf, jax.Array) and jnp.issubdtype(leaf.dtype, jax.dtypes.prng_key):
            leaf = jax.random.key_data(leaf)
        out.append(np.asarray(leaf))
    return out


def same(a: Any, b: Any, exact: bool = False) -> bool:
    try:
        left, right = _leaves(a), _leaves(b)
    except Exception:
        return False
    if len(left) != len(right):
        return False
    for x, y in zip(left, right):
        if x.shape != y.shape:
            return False
        if exact or not np.issubdtype(x.dtype, np.inexact):
            if not np.array_equal(x, y, equal_nan=True):
                return False
        elif not np.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True):
            return False
    return True


def _jaxpr_probe(program: Program, mode: Mode, cwd: Path) -> tuple[int | None, int]:
    """Equations in the traced program (recursively) and scatters whose result goes unused, also
    those JAX's dead-code elimination drops while tracing (traced again, watched, where the
    program writes a functional update)."""
    entry = mode.modules[0]
    os.chdir(cwd)
    eliminated: list[int] = []
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            logging.disable(logging.CRITICAL)
            try:
                if any(".at[" in source for _, source in program.files):
                    jax.clear_caches()  # the calls before traced the program: trace it afresh,
                    with _dead_code_seen(eliminated):
                        jax.make_jaxpr(entry.main)(*entry.inputs(0))
                    jax.clear_caches()  # and once more as JAX does
                closed = jax.make_jaxpr(entry.main)(*entry.inputs(0))
            finally:
                logging.disable(logging.NOTSET)
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt | _Timeout):
            raise
        return None, 0
    equations, dead = _count(closed.jaxpr)
    return equations, max(dead, *eliminated, 0)


@contextlib.contextmanager
def _dead_code_seen(found: list[int]) -> Iterator[None]:
    """Trace with JAX's dead-code elimination watched: a functional update whose result nothing
    uses (a discarded ``x.at[i].set(v)``) is dropped as tracing goes (``checkpoint``-ed
    functions), or by ``dce_jaxpr`` (a ``while_loop`` condition, a ``jit`` body); the dead updates
    each elimination is handed are counted into ``found``."""
    from jax._src.interpreters import partial_eval as pe

    frame, eliminate = pe.JaxprStackFrame, pe.dce_jaxpr
    original = frame.__init__

    def init(self: Any, debug_info: Any, auto_dce: bool) -> None:
        original(self, debug_info, False)

    def counting(jaxpr: Any, *args: Any, **kwargs: Any) -> Any:
        found.append(_count(jaxpr)[1])
        return eliminate(jaxpr, *args, **kwargs)

    frame.__init__ = init  # type: ignore[method-assign]
    pe.dce_jaxpr = counting
    try:
        yield
    finally:
        frame.__init__ = original  # type: ignore[method-assign]
        pe.dce_jaxpr = eliminate


def _subjaxprs(value: Any) -> Iterator[Any]:
    if isinstance(value, jax.extend.core.ClosedJaxpr):
        yield value.jaxpr
    elif isinstance(value, jax.extend.core.Jaxpr):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _subjaxprs(item)


def _count(jaxpr: Any) -> tuple[int, int]:
    equations, dead = 0, 0
    used: set[int] = {id(v) for v in jaxpr.outvars}
    for eqn in jaxpr.eqns:
        used.update(id(v) for v in eqn.invars)
    for eqn in jaxpr.eqns:
        equations += 1
        if eqn.primitive.name.startswith("scatter") and all(id(v) not in used for v in eqn.outvars):
            dead += 1
        for param in eqn.params.values():
            for sub in _subjaxprs(param):
                e, d = _count(sub)
                equations += e
                dead += d
    return equations, dead


def _stale(program: Program, eager: Mode, jit: Mode, cwd: Path) -> Evidence | bool | None:
    """True: globals followed; Evidence: stale; None: nothing to change."""
    sources = "\n".join(source for _, source in program.files)
    rebound = rebound_globals(sources)
    if not rebound or not eager.modules or not jit.modules:
        return None
    import ast

    loaded = {
        n.id for n in ast.walk(ast.parse(sources)) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    os.chdir(cwd)
    result: Evidence | bool | None = None
    for e_mod, j_mod in zip(eager.modules, jit.modules):
        for name in sorted(rebound):
            if name not in vars(j_mod) or name not in vars(e_mod):
                continue
            original = vars(j_mod)[name]
            if not isinstance(original, int | float | jax.Array) or isinstance(original, bool):
                continue
            changed = perturbed(original)
            setattr(j_mod, name, changed)
            setattr(e_mod, name, changed)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    # the compiled call first: clearing the caches for the eager one (see
                    # `run_mode`) would make it trace again
                    again = _block(jit.modules[0].main(*jit.modules[0].inputs(0)))
                    jax.clear_caches()  # for `jax.checkpoint` (see `run_mode`)
                    with jax.disable_jit():
                        fresh = _block(eager.modules[0].main(*eager.modules[0].inputs(0)))
            except Exception:
                continue
            finally:
                setattr(j_mod, name, original)
                setattr(e_mod, name, original)
            if same(fresh, eager.calls[0].value):
                if name in loaded and result is None:
                    result = Evidence(
                        "inconclusive", frozenset(), f"changing global `{name}` changes no output"
                    )
                continue  # the global does not change the result
            if same(again, jit.calls[0].value) and not same(again, fresh):
                return Evidence(
                    "stale-global", frozenset({"JAX1"}), f"`{name}` changed: eager follows, compiled keeps it"
                )
            result = True if not isinstance(result, Evidence) else result
    return result


# ---------------------------------------------------------------------------------------------
# the verdict


@dataclass
class Verdict:
    id: str
    digest: str
    verdict: str  # hazard | clean | dropped
    family: str | None = None
    evidence: list[str] = field(default_factory=list)
    reason: str | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"digest": self.digest, "verdict": self.verdict}
        if self.family:
            out["family"] = self.family
        if self.evidence:
            out["evidence"] = self.evidence
        if self.reason:
            out["reason"] = self.reason
        return out


def _classify(error: BaseException) -> frozenset[str] | None:
    text = f"{error}"
    for name in [type(error).__name__, *(c.__name__ for c in type(error).__mro__)]:
        for etype, pattern, families in ERRORS:
            if name == etype and pattern in text:
                return families
    return None


def _describe(error: BaseException) -> str:
    first = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {first[:140]}"


def judge(program: Program, loader: Loader, scratch: Path) -> Verdict:
    start = time.perf_counter()
    verdict = _judge(program, loader, scratch)
    verdict.seconds = round(time.perf_counter() - start, 3)
    return verdict


def _judge(program: Program, loader: Loader, scratch: Path) -> Verdict:
    base = Verdict(program.id, program.digest, "dropped")
    missing = [lib for lib in program.requires if importlib.util.find_spec(lib) is None]
    if missing:
        base.reason = f"needs {', '.join(missing)}"
        return base
    cwd = scratch / "cwd"
    shutil.rmtree(cwd, ignore_errors=True)
    cwd.mkdir()
    loader.write(program)
    try:
        eager = run_mode(program, loader, cwd, eager=True)
        jit = run_mode(program, loader, cwd, eager=False)
        evidence: list[Evidence] = []
        problems: list[str] = []
        for mode in (eager, jit):
            if mode.load_error is not None:
                problems.append(f"{mode.name}: import failed: {_describe(mode.load_error)}")
                continue
            for call in mode.calls:
                if call.error is None:
                    continue
                families = _classify(call.error)
                site = call.error_site
                where = f" at line {site[1]}" if site else ""
                if families is None:
                    problems.append(f"{mode.name}: unexplained {_describe(call.error)}{where}")
                elif site is None or site[0] != program.path or site[1] not in program.lines:
                    if families == frozenset({"JAX3"}) and site is not None and site[0] == program.path:
                        evidence.append(
                            Evidence(
                                "error", families, f"{mode.name}: {_describe(call.error)}{where}", site[1]
                            )
                        )
                    else:
                        problems.append(
                            f"{mode.name}: {_describe(call.error)} away from the marked lines{where}"
                        )
                else:
                    evidence.append(
                        Evidence("error", families, f"{mode.name}: {_describe(call.error)}{where}", site[1])
                    )
        both_ok = all(len(m.calls) == 3 and all(c.ok for c in m.calls) for m in (eager, jit))
        if both_ok:
            evidence += _behaviour(program, eager, jit, cwd)
        # key reuse: JAX's own checker, in a fresh load per mode, when the program draws keys; two
        # calls, so that a key kept from one call to the next (a module-level key) is seen consumed twice
        draws = eager.draws + jit.draws
        if draws and not any(e.kind == "error" and "JAX3" in e.families for e in evidence):
            for is_eager in (True, False):
                checked = run_mode(program, loader, cwd, eager=is_eager, check_keys=True, calls=2)
                call = checked.calls[-1] if checked.calls else None
                if (
                    call is not None
                    and call.error is not None
                    and _classify(call.error) == frozenset({"JAX3"})
                ):
                    line = call.error_site[1] if call.error_site else None
                    which = "" if len(checked.calls) == 1 else " on the second call"
                    evidence.append(
                        Evidence(
                            "key-reuse",
                            frozenset({"JAX3"}),
                            f"{checked.name} under debug_key_reuse{which}: {_describe(call.error)}",
                            line,
                        )
                    )
                    break
        if eager.draws:
            groups = Counter(value for _, value, _ in eager.draws if value is not None)
            shared = [v for v, n in groups.items() if n > 1]
            if shared:
                evidence.append(
                    Evidence(
                        "equal-draws",
                        frozenset({"JAX3"}),
                        f"{sum(groups[v] for v in shared)} draws of one call consume keys with equal values",
                    )
                )
        if eager.unmapped_draws:
            evidence.append(
                Evidence(
                    "unmapped-draws",
                    frozenset({"JAX3"}),
                    f"{len(eager.unmapped_draws)} draw(s) inside vmap from a key made there from a "
                    "constant seed: every element draws the same numbers",
                )
            )
        unseen_raw = [name for name, value, typed in eager.draws if value is None and not typed]
        return _decide(program, base, evidence, problems, both_ok, unseen_raw, eager, jit)
    finally:
        loader.remove(program)
        os.chdir(scratch)


def _behaviour(program: Program, eager: Mode, jit: Mode, cwd: Path) -> list[Evidence]:
    found: list[Evidence] = []
    e1, e2, e3 = eager.calls
    j1, j2, j3 = jit.calls
    if e1.effect and e2.effect and (j2.effect < e2.effect or j1.effect < e1.effect or j3.effect < e3.effect):
        found.append(
            Evidence(
                "trace-time-effect",
                frozenset({"JAX1"}),
                f"side effects per call: eager {e1.effect}, {e2.effect}, {e3.effect}; "
                f"jit {j1.effect}, {j2.effect}, {j3.effect} "
                "(they run while tracing, not on every call)",
            )
        )
    if any(TRACER_TEXT.search(c.text) for c in (j1, j2)):
        found.append(
            Evidence("tracer-text", frozenset({"JAX1"}), "prints, logs or writes a tracer instead of a value")
        )
    if jit.leaked:
        found.append(
            Evidence("leaked-tracer", frozenset({"JAX1"}), f"a tracer is left in {', '.join(jit.leaked)}")
        )
    if not same(e1.value, e3.value, exact=True) and same(j1.value, j3.value, exact=True):
        found.append(
            Evidence(
                "frozen-value",
                frozenset({"JAX1"}),
                "eager calls with equal inputs differ; the compiled calls repeat the traced value",
            )
        )
    stale = _stale(program, eager, jit, cwd)
    if isinstance(stale, Evidence):
        found.append(stale)
    recompiled = Counter(j3.compiled)
    repeated = {n: c for n, c in Counter(j1.compiled).items() if c > 1}
    if recompiled:
        found.append(
            Evidence(
                "recompiles",
                frozenset({"JAX6"}),
                f"the third call compiles again: {', '.join(sorted(recompiled))}",
            )
        )
    elif repeated:
        found.append(
            Evidence(
                "recompiles",
                frozenset({"JAX6"}),
                f"one call compiles {', '.join(f'{n} x{c}' for n, c in sorted(repeated.items()))}",
            )
        )
    if j1.pending_timer:
        found.append(
            Evidence("timer-pending", frozenset({"JAX6"}), "a timer is read while the computation is pending")
        )
    if any("float64" in w and "not available" in w for c in (*eager.calls, *jit.calls) for w in c.warnings):
        found.append(
            Evidence("float64-warning", frozenset({"JAX6"}), "JAX warns: float64 requested, not available")
        )
    equations, dead = _jaxpr_probe(program, jit, cwd)
    if equations is not None and equations >= MAX_EQUATIONS:
        found.append(
            Evidence("large-program", frozenset({"JAX6"}), f"the traced program has {equations} equations")
        )
    if dead:
        found.append(
            Evidence(
                "dead-update", frozenset({"JAX2"}), f"{dead} functional update(s) whose result is never used"
            )
        )
    if not found and not same(e1.value, j1.value) and same(e1.value, e3.value, exact=True):
        found.append(
            Evidence("diverges", frozenset(), "jit output differs from eager output, no cause observed")
        )
    return found


def _decide(
    program: Program,
    base: Verdict,
    evidence: list[Evidence],
    problems: list[str],
    both_ok: bool,
    unseen_raw: list[str],
    eager: Mode,
    jit: Mode,
) -> Verdict:
    base.evidence = [e.detail for e in evidence] + problems
    if problems and not evidence:
        base.reason = problems[0]
        return base
    if problems:
        base.reason = "an error JAX explains and another it does not: " + problems[0]
        return base
    unclear = [e for e in evidence if not e.families]
    if unclear:
        base.reason = unclear[0].detail
        return base
    if evidence:
        families = set().union(*(e.families for e in evidence))
        if program.family in families:
            family = program.family
        elif len(families) == 1:
            family = next(iter(families))
        else:
            base.reason = f"evidence of several families: {sorted(families)}"
            return base
        base.verdict, base.family = "hazard", family
        return base
    if not both_ok:
        base.reason = "a call did not finish"
        return base
    if unseen_raw:
        base.reason = "legacy PRNGKey draws under a transform: their keys cannot be compared"
        return base
    base.verdict = "clean"
    return base


# ---------------------------------------------------------------------------------------------
# workers


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def judge_fix(
    program: Program, fixed: Program, compare: bool, loader: Loader, scratch: Path
) -> dict[str, Any]:
    """Is the fixed program correct? JAX must find it clean, and (for a hazard that raised) its
    compiled output must match the original's eager output."""
    cwd = scratch / "cwd"
    verdict = judge(fixed, loader, scratch)
    if verdict.verdict != "clean":
        detail = verdict.reason or "; ".join(verdict.evidence[:1])
        if verdict.verdict == "hazard":
            return {"fix_ok": False, "why": f"still a {verdict.family} hazard"}
        return {"fix_ok": False, "why": "fixed program fails: " + _short_reason(detail)}
    if not compare:
        return {"fix_ok": True}
    shutil.rmtree(cwd, ignore_errors=True)
    cwd.mkdir()
    try:
        loader.write(program)
        reference = run_mode(program, loader, cwd, eager=True, calls=1)
        loader.remove(program)
        loader.write(fixed)
        after = run_mode(fixed, loader, cwd, eager=False, calls=1)
    finally:
        loader.remove(fixed)
        os.chdir(scratch)
    if not reference.calls or not reference.calls[0].ok:
        return {"fix_ok": True}  # the original fails eagerly too: nothing to compare with
    if not after.calls or not after.calls[0].ok or not same(reference.calls[0].value, after.calls[0].value):
        return {"fix_ok": False, "why": "compiled output differs from the original's eager output"}
    return {"fix_ok": True}


def _short_reason(text: str) -> str:
    text = re.sub(r" at line \d+", "", text)
    text = re.sub(r"(eager|jit): ", "", text)
    return text.split(":")[0] + (": " + text.split(":")[1].strip()[:60] if ":" in text else "")


def worker(tasks: list[Any]) -> None:
    programs = {p.id: p for p in universe()}
    scratch = Path(tempfile.mkdtemp(prefix="groundtruth-"))
    loader = Loader(scratch)
    signal.signal(signal.SIGALRM, _alarm)
    out = sys.stdout
    logging.getLogger("jax").setLevel(logging.ERROR)
    done = 0
    try:
        for task in tasks:
            pid = task if isinstance(task, str) else task["id"]
            program = programs.get(pid)
            if program is None:
                continue
            signal.alarm(TIMEOUT_S)
            if not isinstance(task, str):
                try:
                    fixed = dataclasses.replace(program, files=tuple((n, s) for n, s in task["files"]))
                    record = judge_fix(program, fixed, task["compare"], loader, scratch)
                except _Timeout:
                    record = {"fix_ok": False, "why": "timeout"}
                except Exception as error:
                    record = {"fix_ok": False, "why": f"oracle error: {_describe(error)}"}
                finally:
                    signal.alarm(0)
                out.write(json.dumps({"id": pid, **record}) + "\n")
                out.flush()
                continue
            try:
                verdict = judge(program, loader, scratch)
            except _Timeout:
                verdict = Verdict(pid, program.digest, "dropped", reason=f"timeout after {TIMEOUT_S} s")
                loader.remove(program)
            except Exception as error:
                verdict = Verdict(pid, program.digest, "dropped", reason=f"oracle error: {_describe(error)}")
                traceback.print_exc(file=sys.stderr)
                loader.remove(program)
            finally:
                signal.alarm(0)
            out.write(json.dumps({"id": pid, **verdict.to_json(), "seconds": verdict.seconds}) + "\n")
            out.flush()
            done += 1
            if done % 200 == 0:
                jax.clear_caches()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def judge_fixes(
    programs: list[Program],
    fixed: dict[str, tuple[tuple[str, str], ...]],
    stored: dict[str, Any],
    workers: int = 2,
) -> dict[str, dict[str, Any]]:
    """``{id: {"fix_ok": bool, "why": str}}`` for fixed versions of hazard programs."""
    tasks = []
    for p in programs:
        evidence = stored.get(p.id, {}).get("evidence", [])
        raised = any(e.startswith(("eager:", "jit:")) for e in evidence)
        tasks.append(
            {"id": p.id, "files": [list(f) for f in fixed[p.id]], "compare": raised and p.family != "JAX3"}
        )
    return _pool(tasks, {p.id: p.digest for p in programs}, workers, 100, None)


def judge_all(
    programs: list[Program],
    workers: int = 2,
    batch: int = 150,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Verdicts for ``programs``, ``workers`` processes at a time, ``batch`` programs each."""
    return _pool([p.id for p in programs], {p.id: p.digest for p in programs}, workers, batch, progress)


def _pool(
    pending: list[Any],
    digests: dict[str, str],
    workers: int,
    batch: int,
    progress: Callable[[int, int], None] | None,
) -> dict[str, dict[str, Any]]:
    chunks = [pending[i : i + batch] for i in range(0, len(pending), batch)]
    results: dict[str, dict[str, Any]] = {}
    running: list[tuple[subprocess.Popen[str], list[str], Path]] = []
    env = {
        **os.environ,
        "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
        "JAX_PLATFORMS": "cpu",
        "PYTHONPATH": str(ROOT),
    }
    tmp = Path(tempfile.mkdtemp(prefix="groundtruth-ids-"))

    def start(chunk: list[str]) -> None:
        ids_file = tmp / f"ids-{len(results)}-{len(running)}-{time.monotonic_ns()}.json"
        ids_file.write_text(json.dumps(chunk))
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.groundtruth.oracle", "--worker", str(ids_file)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
            env=env,
        )
        running.append((proc, chunk, ids_file))

    try:
        while chunks or running:
            while chunks and len(running) < workers:
                start(chunks.pop(0))
            proc, chunk, _ids_file = running.pop(0)
            assert proc.stdout is not None
            for line in proc.stdout:
                record = json.loads(line)
                results[record.pop("id")] = record
                if progress:
                    progress(len(results), len(pending))
            proc.wait()
            left = [t for t in chunk if (t if isinstance(t, str) else t["id"]) not in results]
            if left:  # the worker died on left[0]: record it, go on with the rest
                first = left[0] if isinstance(left[0], str) else left[0]["id"]
                results[first] = {
                    "digest": digests[first],
                    "verdict": "dropped",
                    "reason": "the worker process died",
                    "fix_ok": False,
                    "why": "the worker process died",
                }
                if left[1:]:
                    chunks.insert(0, left[1:])
    finally:
        for proc, _, _ in running:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", help="a JSON file with the ids to judge")
    parser.add_argument("ids", nargs="*")
    args = parser.parse_args()
    if args.worker:
        worker(json.loads(Path(args.worker).read_text()))
        return
    programs = [p for p in universe() if p.id in set(args.ids)]
    for pid, record in judge_all(programs, workers=1).items():
        print(pid, json.dumps(record))


if __name__ == "__main__":
    main()
