"""Tie what went wrong at run time to the jaxlint rule that predicts it, at the user's line.

jaxlint's own static analysis decides: the user's file is linted and the diagnostic at the line
where the error surfaced (or, failing that, inside the verified function) names the rule. When
jaxlint reports nothing there, a table from JAX's exception classes to rules gives the answer.
"""

from __future__ import annotations

import importlib.util
import inspect
import linecache
import os
import sysconfig
import traceback
import types
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cache

from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.linter import RuleSet, lint_source
from jaxlint.engine.registry import rule_by_code, rule_codes
from jaxlint_runtime.report import ERROR, Finding

# (exception class name anywhere in the MRO, phrase the message must hold, candidate rules);
# the first matching row wins, so subclasses come before their bases.
ERROR_RULES: tuple[tuple[str, str | None, tuple[str, ...]], ...] = (
    ("TracerBoolConversionError", None, ("JAX501", "JAX504", "JAX503")),
    ("TracerIntegerConversionError", None, ("JAX502", "JAX503")),
    ("TracerArrayConversionError", None, ("JAX503",)),
    ("NonConcreteBooleanIndexError", None, ("JAX401",)),
    ("KeyReuseError", None, ("JAX301", "JAX302", "JAX303")),
    ("UnexpectedTracerError", None, ("JAX104",)),
    ("ConcretizationTypeError", None, ("JAX503", "JAX403", "JAX402")),
    ("TypeError", "JAX arrays are immutable", ("JAX201", "JAX202")),
    ("TypeError", "Shapes must be 1D sequences of concrete values", ("JAX403",)),
    ("IndexError", "Array slice indices must have static", ("JAX403",)),
    ("Exception", "Leaked trace", ("JAX104",)),
)
LIBRARIES = ("jax", "jaxlib", "numpy", "ml_dtypes", "opt_einsum", "jaxlint", "jaxlint_runtime", "_pytest")
_SOURCES: dict[str, str] = {}


@dataclass(frozen=True)
class Span:
    """The lines of one function in one file."""

    path: str
    first: int
    last: int


@dataclass(frozen=True)
class Attribution:
    rule: str | None
    rule_name: str | None
    predicted: bool
    path: str | None
    line: int | None


def register_source(filename: str, text: str) -> None:
    """Make code that was executed from a string (not a file) lintable and show in tracebacks."""
    _SOURCES[filename] = text
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)


def rules_for_error(error: BaseException) -> tuple[str, ...]:
    """The rules whose outcome is this exception, most likely first."""
    names = {cls.__name__ for cls in type(error).__mro__}
    message = str(error)
    for class_name, phrase, rules in ERROR_RULES:
        if class_name in names and (phrase is None or phrase in message):
            return rules
    return ()


def error_finding(error: BaseException, stage: str, span: Span | None) -> Finding:
    """A finding for an exception raised by user code, attributed to a rule and a line."""
    kind = "out-of-memory" if is_out_of_memory(error) else "error"
    frame = user_frame(error, {span.path} if span else set())
    attribution = attribute(rules_for_error(error), frame, span)
    return Finding(
        kind=kind,
        message=f"{describe_stage(stage)}: {describe_error(error)}",
        severity=ERROR,
        stage=stage,
        rule=attribution.rule,
        rule_name=attribution.rule_name,
        predicted=attribution.predicted,
        path=attribution.path,
        line=attribution.line,
    )


def describe_stage(stage: str) -> str:
    return {
        "eager": "raised by eager execution",
        "trace": "raised while tracing",
        "lower": "raised while lowering",
        "compile": "raised while compiling",
        "run": "raised by the compiled function",
        "gradient": "raised while differentiating the compiled function",
        "import": "raised while importing the module",
        "inputs": "raised while making the inputs",
    }.get(stage, f"raised ({stage})")


def describe_error(error: BaseException) -> str:
    """``Class: first line`` (a first line that ends in a colon takes the next one along)."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if first.endswith(":") and len(lines) > 1:
        first = f"{first} {lines[1]}"
    if len(first) > 300:
        first = first[:297] + "..."
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def is_out_of_memory(error: BaseException) -> bool:
    return isinstance(error, MemoryError) or "RESOURCE_EXHAUSTED" in str(error)


def attribute(candidates: Collection[str], frame: tuple[str, int] | None, span: Span | None) -> Attribution:
    """The rule for a problem seen at ``frame`` (or somewhere in ``span``)."""
    if frame is not None:
        found = _diagnostic_at(frame[0], frame[1], candidates)
        if found is not None:
            return _from_diagnostic(found, frame[0])
    if span is not None and candidates:
        found = _diagnostic_in(span, candidates)
        if found is not None:
            return _from_diagnostic(found, span.path)
    rule = next(iter(candidates), None)
    path, line = frame if frame is not None else ((span.path, span.first) if span else (None, None))
    return Attribution(rule, _rule_name(rule), False, path, line)


def user_frame(error: BaseException, preferred: Collection[str]) -> tuple[str, int] | None:
    """The innermost traceback frame in the verified file, else in any code outside libraries."""
    frames = traceback.extract_tb(error.__traceback__)
    for frame in reversed(frames):
        if frame.filename in preferred and frame.lineno:
            return frame.filename, frame.lineno
    for frame in reversed(frames):
        if frame.lineno and not is_library_file(frame.filename):
            return frame.filename, frame.lineno
    return None


def caller_location(depth: int = 2) -> tuple[str, int] | None:
    """The innermost frame of the current stack that is user code."""
    for frame_info in inspect.stack(context=0)[depth:]:
        if not is_library_file(frame_info.filename):
            return frame_info.filename, frame_info.lineno
    return None


def is_library_file(filename: str) -> bool:
    if filename.startswith("<") and filename not in _SOURCES:
        return True
    return os.path.abspath(filename).startswith(_library_roots())


@cache
def _library_roots() -> tuple[str, ...]:
    roots = [sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib")]
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            roots.extend(spec.submodule_search_locations)
    return tuple(os.path.join(os.path.abspath(root), "") for root in roots if root)


def function_span(function: Callable[..., object]) -> Span | None:
    """Where ``function`` (unwrapped from jit, vmap, partial) is defined."""
    code = _code_of(function)
    if code is None:
        return None
    lines = linecache.getlines(code.co_filename)
    last = code.co_firstlineno
    try:
        block = inspect.getblock(lines[code.co_firstlineno - 1 :])
        last = code.co_firstlineno + len(block) - 1
    except (IndexError, SyntaxError, inspect.EndOfBlock):
        pass
    return Span(code.co_filename, code.co_firstlineno, last)


def _code_of(function: object) -> types.CodeType | None:
    inner = innermost_function(function)
    return inner.__code__ if isinstance(inner, types.FunctionType) else None


def innermost_function(function: object) -> object:
    """The Python function inside ``jax.jit``, ``jax.vmap``, ``functools.partial`` and decorators."""
    seen: set[int] = set()
    while not isinstance(function, types.FunctionType) and id(function) not in seen:
        seen.add(id(function))
        inner = (
            getattr(function, "__wrapped__", None)
            or getattr(function, "func", None)
            or getattr(function, "_fun", None)
        )
        if inner is None:
            break
        function = inner
    return function


def source_of(path: str) -> str | None:
    """The text of a file, or of code registered with ``register_source``."""
    text = _SOURCES.get(path)
    if text is None:
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            return None
    return text


def diagnostics_for(path: str) -> list[Diagnostic]:
    text = source_of(path)
    return [] if text is None else _lint(path, text)


@cache
def _lint(path: str, text: str) -> list[Diagnostic]:
    return lint_source(text, path, _ruleset())


@cache
def _ruleset() -> RuleSet:
    return RuleSet.from_codes(rule_codes())


def _diagnostic_at(path: str, line: int, candidates: Collection[str]) -> Diagnostic | None:
    here = [d for d in diagnostics_for(path) if d.location.row == line and d.code.startswith("JAX")]
    return _best(here, candidates, allow_others=not candidates)


def _diagnostic_in(span: Span, candidates: Collection[str]) -> Diagnostic | None:
    inside = [d for d in diagnostics_for(span.path) if span.first <= d.location.row <= span.last]
    return _best(inside, candidates, allow_others=False)


def _best(
    diagnostics: list[Diagnostic], candidates: Collection[str], allow_others: bool
) -> Diagnostic | None:
    order = list(candidates)
    ranked = sorted(
        (d for d in diagnostics if d.code in order),
        key=lambda d: (order.index(d.code), d.location.row),
    )
    if ranked:
        return ranked[0]
    return diagnostics[0] if allow_others and diagnostics else None


def _from_diagnostic(diagnostic: Diagnostic, path: str) -> Attribution:
    return Attribution(diagnostic.code, diagnostic.name, True, path, diagnostic.location.row)


def _rule_name(code: str | None) -> str | None:
    rule = rule_by_code(code) if code else None
    return rule.name if rule else None
