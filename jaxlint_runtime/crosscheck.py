"""``pytest --jaxlint-verify``: every call of a ``jax.jit`` function is cross-checked against
eager execution of the same call, and tracing is counted to find recompilation storms.

While the option is on, ``jax.jit`` returns a ``CheckedJit``: it runs the Python function with
jit disabled first (so donated buffers are still alive), then the compiled function, and
compares. A difference fails the test that made the call; at the end of the session the
functions traced more than N times are listed.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import jax
import pytest

from jaxlint_runtime.checks import block, captured_stdout, is_tracer
from jaxlint_runtime.comparison import compare_trees
from jaxlint_runtime.execution import fresh_copies, qualified_name
from jaxlint_runtime.rulemap import describe_error

_NOT_GIVEN: Any = object()
MAX_SIGNATURES = 3


@dataclass
class FunctionRecord:
    """One function handed to ``jax.jit`` during the session."""

    name: str
    location: str
    traces: int = 0
    calls_checked: int = 0
    signatures: list[str] = field(default_factory=list)


@dataclass
class CallMismatch:
    record: FunctionRecord
    detail: str

    def describe(self) -> str:
        return f"`{self.record.name}` ({self.record.location}): {self.detail}"


class CheckedJit:
    """A ``jax.jit`` function whose every call is compared with eager execution of the call."""

    def __init__(self, fun: Callable[..., Any], plugin: CrossCheckPlugin, options: dict[str, Any]) -> None:
        functools.update_wrapper(self, fun)
        self._fun = fun
        self._plugin = plugin
        self._record = plugin.record_for(fun)
        self._jitted = plugin.original_jit(self._counting(fun), **options)

    def _counting(self, fun: Callable[..., Any]) -> Callable[..., Any]:
        record = self._record

        @functools.wraps(fun)
        def counted(*args: Any, **kwargs: Any) -> Any:
            record.traces += 1
            if len(record.signatures) < MAX_SIGNATURES:
                record.signatures.append(signature_of(args, kwargs))
            return fun(*args, **kwargs)

        return counted

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self._plugin.should_check(args, kwargs):
            return self._jitted(*args, **kwargs)
        reference, error = self._plugin.run_eager(self._fun, args, kwargs)
        result = self._jitted(*args, **kwargs)
        self._plugin.judge(self._record, reference, error, result)
        return result

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        return self if instance is None else functools.partial(self, instance)

    def __getattr__(self, name: str) -> Any:
        if name == "_jitted":
            raise AttributeError(name)
        return getattr(self._jitted, name)


class CrossCheckPlugin:
    """Installs the checking ``jax.jit`` and turns what it finds into test failures and a summary."""

    def __init__(self, max_traces: int) -> None:
        self.max_traces = max_traces
        self.original_jit: Callable[..., Any] = jax.jit
        self.records: dict[int, FunctionRecord] = {}
        self.collected: list[CallMismatch] | None = None
        self.outside_tests: list[CallMismatch] = []
        self.mismatches = 0
        self._busy = False

    def install(self) -> None:
        self.original_jit = jax.jit
        jax.jit = self.jit

    def uninstall(self) -> None:
        jax.jit = self.original_jit

    def jit(self, fun: Any = _NOT_GIVEN, /, **options: Any) -> Any:
        if fun is _NOT_GIVEN:
            return lambda function: self.jit(function, **options)
        return CheckedJit(fun, self, options)

    def record_for(self, fun: Callable[..., Any]) -> FunctionRecord:
        key = id(getattr(fun, "__code__", fun))
        if key not in self.records:
            self.records[key] = FunctionRecord(qualified_name(fun), _location(fun))
        return self.records[key]

    def should_check(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        if self._busy or jax.config.values["jax_disable_jit"]:
            return False
        leaves = jax.tree_util.tree_leaves((args, kwargs))
        return not any(is_tracer(leaf) for leaf in leaves)

    def run_eager(
        self, fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, Exception | None]:
        self._busy = True
        try:
            with captured_stdout(), jax.disable_jit():
                return block(fun(*fresh_copies(args), **fresh_copies(kwargs))), None
        except Exception as error:
            return None, error
        finally:
            self._busy = False

    def judge(self, record: FunctionRecord, reference: Any, error: Exception | None, result: Any) -> None:
        record.calls_checked += 1
        if error is not None:
            self._report(record, f"eager execution of the same call raised {describe_error(error)}")
            return
        try:
            differences = compare_trees(reference, block(result))
        except Exception as failure:
            differences = []
            self._report(record, f"the results could not be compared ({describe_error(failure)})")
        if differences:
            shown = "; ".join(d.describe() for d in differences[:3])
            more = f" (and {len(differences) - 3} more)" if len(differences) > 3 else ""
            self._report(
                record, f"the compiled call differs from eager execution of the same call: {shown}{more}"
            )

    def _report(self, record: FunctionRecord, detail: str) -> None:
        self.mismatches += 1
        mismatch = CallMismatch(record, detail)
        (self.collected if self.collected is not None else self.outside_tests).append(mismatch)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        return (yield from self._attribute_to(item))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        return (yield from self._attribute_to(item))

    def _attribute_to(self, item: pytest.Item) -> Iterator[None]:
        self.collected = []
        try:
            result = yield
        except BaseException as error:
            for mismatch in self._take():
                error.add_note(f"jaxlint --jaxlint-verify: {mismatch.describe()}")
            raise
        found = self._take()
        if found:
            lines = "\n".join(f"  {mismatch.describe()}" for mismatch in found)
            pytest.fail(
                f"jaxlint --jaxlint-verify found a jit/eager mismatch in {item.name}:\n{lines}", pytrace=False
            )
        return result

    def _take(self) -> list[CallMismatch]:
        found, self.collected = self.collected or [], None
        return found

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        reporter = terminalreporter
        reporter.section("jaxlint verify")
        calls = sum(record.calls_checked for record in self.records.values())
        reporter.write_line(
            f"cross-checked {calls} call{'s' * (calls != 1)} of {len(self.records)} jitted "
            f"function{'s' * (len(self.records) != 1)} against eager execution: {self.mismatches} mismatch"
            f"{'es' * (self.mismatches != 1)}"
        )
        for mismatch in self.outside_tests:
            reporter.write_line(f"outside any test: {mismatch.describe()}")
        for record in sorted(self.records.values(), key=lambda r: -r.traces):
            if record.traces > self.max_traces:
                reporter.write_line(_storm(record, self.max_traces))

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.uninstall()


def _storm(record: FunctionRecord, limit: int) -> str:
    examples = "; ".join(record.signatures)
    return (
        f"{record.location}: `{record.name}` was traced {record.traces} times (more than {limit}): "
        f"recompilation storm; first signatures: {examples}"
    )


def signature_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """``(float32[3], 2)``: the shapes and dtypes jit saw, static values as they are."""
    parts = [_abstract(value) for value in args] + [
        f"{name}={_abstract(value)}" for name, value in kwargs.items()
    ]
    return f"({', '.join(parts)})"


def _abstract(value: Any) -> str:
    leaves = jax.tree_util.tree_leaves(value)
    if len(leaves) == 1 and leaves[0] is value:
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            return f"{value.dtype}[{','.join(map(str, value.shape))}]"
        text = repr(value)
        return text if len(text) <= 20 else text[:17] + "..."
    return (
        "(" + ", ".join(_abstract(leaf) for leaf in leaves[:4]) + (", ..." if len(leaves) > 4 else "") + ")"
    )


def _location(fun: Callable[..., Any]) -> str:
    try:
        path = inspect.getsourcefile(fun) or "?"
        line = inspect.getsourcelines(fun)[1]
    except (TypeError, OSError):
        return "?"
    return f"{path}:{line}"
