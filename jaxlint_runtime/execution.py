"""Run a function the two ways JAX can: eagerly (``jax.disable_jit``) and compiled (``jax.jit``).

The compiled run goes through the ahead-of-time API so tracing, lowering and compilation are timed
separately, counts how often the Python function is traced, and calls the compiled function a
second time with fresh inputs of the same shapes to see whether it is traced again.
"""

from __future__ import annotations

import copy
import functools
import inspect
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

from jaxlint_runtime.checks import Checks, block, captured_stdout, is_typed_key
from jaxlint_runtime.report import Timings
from jaxlint_runtime.rulemap import Span, function_span, innermost_function
from jaxlint_runtime.sideeffects import Effects, observe

# A jax.Device: jax exposes the class as a variable, which type checkers refuse as a type.
Device: TypeAlias = Any


@dataclass
class Target:
    """The function under verification, unwrapped from ``jax.jit`` when it was jitted."""

    function: Callable[..., Any]
    name: str
    static_argnums: tuple[int, ...] = ()
    static_argnames: tuple[str, ...] = ()
    span: Span | None = None

    @classmethod
    def of(
        cls,
        fn: Callable[..., Any],
        static_argnums: int | tuple[int, ...] | list[int] = (),
        static_argnames: str | tuple[str, ...] | list[str] = (),
    ) -> Target:
        """``fn`` itself, or the Python function inside it with its ``jit`` static arguments."""
        numbers = _as_tuple(static_argnums)
        names = _as_tuple(static_argnames)
        jit_info = getattr(fn, "_jit_info", None)
        inner = getattr(fn, "_fun", None)
        if jit_info is not None and callable(inner):
            numbers = tuple(dict.fromkeys((*jit_info.static_argnums, *numbers)))
            names = tuple(dict.fromkeys((*jit_info.static_argnames, *names)))
            fn = inner
        return cls(fn, qualified_name(fn), numbers, names, function_span(fn))

    def is_static(self, position: int | None, name: str | None) -> bool:
        if position is not None and position in self.static_argnums:
            return True
        if name is not None and name in self.static_argnames:
            return True
        return self._parameter_static(position, name)

    def _parameter_static(self, position: int | None, name: str | None) -> bool:
        try:
            parameters = list(inspect.signature(self.function).parameters.values())
        except (TypeError, ValueError):
            return False
        if position is not None and position < len(parameters):
            return parameters[position].name in self.static_argnames
        for index, parameter in enumerate(parameters):
            if parameter.name == name:
                return index in self.static_argnums
        return False

    def namespace(self) -> dict[str, Any] | None:
        """The module globals the function reads (where side effects and stale values live)."""
        inner = innermost_function(self.function)
        return inner.__globals__ if isinstance(inner, types.FunctionType) else None


def _as_tuple(value: Any) -> tuple[Any, ...]:
    if value is None:
        return ()
    if isinstance(value, int | str):
        return (value,)
    return tuple(value)


def qualified_name(fn: Any) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    if name is None and isinstance(fn, functools.partial):
        return f"partial({qualified_name(fn.func)})"
    return name or type(fn).__name__


@dataclass
class Outcome:
    """The result of one call: its value, or the exception and the stage that raised it."""

    value: Any = None
    error: Exception | None = None
    stage: str = ""
    seconds: float | None = None
    stdout: str = ""
    effects: Effects = field(default_factory=Effects)

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class CompiledRun:
    """What the compiled path did: first call's outcome, timings, tracing behaviour."""

    outcome: Outcome
    timings: Timings
    trace_count: int = 0
    retraces: int = 0  # traces caused by a second call with fresh, equal inputs
    traced: Outcome | None = None  # tracing itself: what it printed and changed
    second_call: Outcome | None = None  # the cached call with fresh inputs
    equations: int = 0
    jitted: Callable[..., Any] | None = None


class TraceCounter:
    """Counts how often JAX traces a function (the Python body runs once per trace)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.count = 0

    def wrapped(self) -> Callable[..., Any]:
        function = self.function

        @functools.wraps(function)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return function(*args, **kwargs)

        return counted


def compiled_device() -> Device:
    """The default device: the first GPU or TPU when there is one, else the CPU."""
    return jax.devices()[0]


def device_named(platform: str | None) -> Device:
    """The first device of ``platform`` ("cpu", "gpu", "tpu"); the default device for ``None``."""
    if platform is None:
        return compiled_device()
    try:
        return jax.devices(platform)[0]
    except RuntimeError as error:
        raise ValueError(f"no {platform} device is available ({error})") from None


def describe_device(device: Device) -> str:
    """``cpu:0``, or ``gpu:0 (NVIDIA H200)`` when the kind says more than the platform."""
    name = f"{device.platform}:{device.id}"
    return name if device.device_kind == device.platform else f"{name} ({device.device_kind})"


def place(tree: Any, device: Device) -> Any:
    """Move the JAX arrays of ``tree`` onto ``device`` (other leaves stay as they are)."""

    def move(leaf: Any) -> Any:
        if isinstance(leaf, jax.Array) and leaf.devices() != {device}:
            return jax.device_put(leaf, device)
        return leaf

    return jax.tree_util.tree_map(move, tree)


def run_eager(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    device: Device,
    checks: Checks,
    namespace: dict[str, Any] | None = None,
) -> Outcome:
    """Call ``function`` with jit disabled, op by op, on ``device``."""
    args, kwargs = fresh_copies(place(args, device)), fresh_copies(place(kwargs, device))
    outcome = Outcome(stage="eager")
    with observe(namespace) as outcome.effects, captured_stdout() as printed:
        start = time.perf_counter()
        try:
            with checks.enabled(eager=True), jax.default_device(device), jax.disable_jit():
                outcome.value = block(function(*args, **kwargs))
        except Exception as error:
            outcome.error = error
        outcome.seconds = time.perf_counter() - start
    outcome.stdout = printed.getvalue()
    return outcome


def run_compiled(
    target: Target,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    device: Device,
    checks: Checks,
) -> CompiledRun:
    """Trace, lower and compile ``target`` with ``jax.jit``, run it, then run it again."""
    counter = TraceCounter(target.function)
    jitted = jax.jit(
        counter.wrapped(), static_argnums=target.static_argnums, static_argnames=target.static_argnames
    )
    args, kwargs = fresh_copies(place(args, device)), fresh_copies(place(kwargs, device))
    run = CompiledRun(Outcome(), Timings(), jitted=jitted)
    namespace = target.namespace()
    with checks.enabled():
        try:
            _compile_and_call(run, jitted, args, kwargs, namespace)
            _call_again(run, counter, target, args, kwargs, namespace)
        except _StageFailed:
            pass
    run.trace_count = counter.count
    return run


def _call_again(
    run: CompiledRun,
    counter: TraceCounter,
    target: Target,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    namespace: dict[str, Any] | None,
) -> None:
    """Call again with equal inputs: new array buffers, copies of the static arguments."""
    assert run.jitted is not None
    before = counter.count
    run.second_call = _call(run.jitted, *fresh_inputs(target, args, kwargs), namespace)
    run.retraces = counter.count - before


class _StageFailed(Exception):
    pass


def _compile_and_call(
    run: CompiledRun,
    jitted: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    namespace: dict[str, Any] | None,
) -> None:
    with _stage(run, "trace") as timing:
        run.traced = Outcome(stage="trace")
        with observe(namespace) as run.traced.effects, captured_stdout() as printed:
            try:
                traced = jitted.trace(*args, **kwargs)
            finally:
                run.traced.stdout = printed.getvalue()
    run.timings.trace_s = timing()
    run.equations = len(traced.jaxpr.eqns)
    with _stage(run, "lower") as timing:
        lowered = traced.lower()
    run.timings.lower_s = timing()
    with _stage(run, "compile") as timing:
        lowered.compile()
    run.timings.compile_s = timing()
    with _stage(run, "run") as timing, captured_stdout():
        run.outcome.value = block(jitted(*args, **kwargs))
    run.timings.run_s = timing()


@contextmanager
def _stage(run: CompiledRun, stage: str) -> Iterator[Callable[[], float]]:
    """Time one stage; an exception becomes the run's outcome and stops the pipeline."""
    start = time.perf_counter()
    try:
        yield lambda: time.perf_counter() - start
    except Exception as error:
        run.outcome = Outcome(error=error, stage=stage)
        raise _StageFailed from error


def _call(
    jitted: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    namespace: dict[str, Any] | None,
) -> Outcome:
    outcome = Outcome(stage="run")
    with observe(namespace) as outcome.effects, captured_stdout() as printed:
        try:
            outcome.value = block(jitted(*args, **kwargs))
        except Exception as error:
            outcome.error = error
    outcome.stdout = printed.getvalue()
    return outcome


def fresh_copies(tree: Any) -> Any:
    """``tree`` with copies of its NumPy arrays (user code may mutate them) and clones of its PRNG
    keys (the key-reuse checker marks a key object consumed once a run used it)."""
    return jax.tree_util.tree_map(_fresh_leaf, tree)


def _fresh_leaf(leaf: Any) -> Any:
    if isinstance(leaf, np.ndarray):
        return leaf.copy()
    if is_typed_key(leaf):
        return jax.random.clone(leaf)
    return leaf


def fresh_inputs(
    target: Target, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """New inputs equal to ``args``/``kwargs``: new array buffers, deep copies of static arguments
    (a caller passes equal values, not necessarily the same objects)."""
    new_args = tuple(_fresh(value, target.is_static(position, None)) for position, value in enumerate(args))
    new_kwargs = {name: _fresh(value, target.is_static(None, name)) for name, value in kwargs.items()}
    return new_args, new_kwargs


def identity_compared_statics(target: Target, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
    """Static arguments whose copies do not compare equal to them (jit's cache then misses)."""
    named = [(f"argument {position}", position, None, value) for position, value in enumerate(args)]
    named += [(f"`{name}`", None, name, value) for name, value in kwargs.items()]
    return [
        label
        for label, position, name, value in named
        if target.is_static(position, name) and not _equal_to_copy(value)
    ]


def _equal_to_copy(value: Any) -> bool:
    try:
        return bool(copy.deepcopy(value) == value)
    except Exception:
        return True


def _fresh(value: Any, static: bool) -> Any:
    if static:
        try:
            return copy.deepcopy(value)
        except Exception:
            return value

    def renew(leaf: Any) -> Any:
        if isinstance(leaf, jax.Array) and not is_typed_key(leaf):
            return jnp.array(leaf, copy=True)
        return _fresh_leaf(leaf)

    return jax.tree_util.tree_map(renew, value)
