"""Behaviour that only shows over several calls: state frozen at trace time, side effects that
run once per compilation, recompilation on every call, loops unrolled into huge programs."""

from __future__ import annotations

import ast
import contextlib
import types
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import monitoring

from jaxlint_runtime.checks import NO_CHECKS, Checks, block, captured_stdout
from jaxlint_runtime.comparison import compare_trees, trees_equal
from jaxlint_runtime.execution import CompiledRun, Device, Outcome, Target, fresh_copies, run_eager
from jaxlint_runtime.report import WARNING, Finding, LeafMismatch
from jaxlint_runtime.rulemap import attribute, source_of

MAX_EQUATIONS = 1000


def trace_time_side_effects(target: Target, eager: Outcome, compiled: CompiledRun) -> list[Finding]:
    """Prints and global writes that happen on every eager call but only while jit traces."""
    traced, cached = compiled.traced, compiled.second_call
    if traced is None or cached is None or not eager.ok:
        return []
    findings = []
    if eager.stdout and traced.stdout and not cached.stdout:
        first = eager.stdout.strip().splitlines()[0] if eager.stdout.strip() else eager.stdout
        message = (
            f"prints on every eager call (`{first[:60]}`) but under jit only while tracing: "
            "the print shows tracers once per compilation; use `jax.debug.print`"
        )
        findings.append(_finding(target, "trace-time-side-effect", message, ("JAX101", "JAX102")))
    for name in sorted(eager.effects.changed & traced.effects.changed - cached.effects.changed):
        message = (
            f"changes global `{name}` on every eager call but under jit only while tracing: "
            "the write happens once per compilation (return the new state instead)"
        )
        findings.append(_finding(target, "trace-time-side-effect", message, ("JAX104",)))
    return findings


def large_program(target: Target, compiled: CompiledRun, limit: int | None = MAX_EQUATIONS) -> list[Finding]:
    if limit is None or compiled.equations < limit:
        return []
    message = (
        f"the traced program has {compiled.equations} operations (limit {limit}): a Python loop is "
        "probably unrolled while tracing, which makes compilation slow; use `lax.fori_loop` or `lax.scan`"
    )
    return [_finding(target, "large-program", message, (), severity=WARNING)]


@dataclass
class StaleGlobal:
    findings: list[Finding] = field(default_factory=list)
    mismatches: list[LeafMismatch] = field(default_factory=list)


def stale_globals(
    target: Target,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    eager: Outcome,
    compiled: CompiledRun,
    device: Device,
    checks: Checks,
) -> StaleGlobal:
    """Change each global the function reads; the compiled function must follow as eager does."""
    result = StaleGlobal()
    namespace = target.namespace()
    if namespace is None or compiled.jitted is None or not eager.ok or not compiled.outcome.ok:
        return result
    rebound = rebound_globals(source_of(target.span.path) if target.span else None)
    for name in read_globals(target.function, namespace) & rebound:
        original = namespace[name]
        namespace[name] = perturbed(original)
        try:
            probe = _Probe(target, args, kwargs, eager, compiled, device, checks)
            probe.run(name, original, namespace[name], result)
        finally:
            namespace[name] = original
    return result


@dataclass
class _Probe:
    target: Target
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    eager: Outcome
    compiled: CompiledRun
    device: Device
    checks: Checks

    def run(self, name: str, original: Any, changed: Any, result: StaleGlobal) -> None:
        """Record a stale global when eager follows the change and the compiled function does not."""
        fresh = run_eager(self.target.function, self.args, self.kwargs, self.device, NO_CHECKS)
        if not fresh.ok or trees_equal(self.eager.value, fresh.value):
            return  # the global does not affect the result, or the probe is inconclusive
        again = self._call_compiled()
        if again is None or not trees_equal(self.compiled.outcome.value, again):
            return
        mismatches = compare_trees(fresh.value, again, prefix=f"output (with {name} = {_short(changed)})")
        message = (
            f"reads global `{name}`: after it changes from {_short(original)} to {_short(changed)} "
            "eager execution follows, the compiled function keeps the value it had at trace time"
        )
        result.findings.append(_finding(self.target, "stale-global", message, ("JAX103",)))
        result.mismatches.extend(mismatches)

    def _call_compiled(self) -> Any:
        """The compiled function's cached result (the same checks keep jit's cache valid)."""
        assert self.compiled.jitted is not None
        try:
            with captured_stdout(), self.checks.enabled():
                args, kwargs = fresh_copies(self.args), fresh_copies(self.kwargs)
                return block(self.compiled.jitted(*args, **kwargs))
        except Exception:
            return None


def read_globals(function: Callable[..., Any], namespace: dict[str, Any]) -> set[str]:
    """Numeric module globals the function's code reads; UPPER_CASE constants are left alone."""
    code = getattr(function, "__code__", None)
    if code is None:
        return set()
    return {
        name
        for name in _names(code)
        if name in namespace
        and not name.isupper()
        and not name.startswith("__")
        and _numeric(namespace[name])
    }


def rebound_globals(source: str | None) -> set[str]:
    """Globals the module can change at run time: declared ``global`` somewhere, or assigned
    more than once at module level (a value assigned once and never touched is a constant)."""
    if source is None:
        return set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    declared = {name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names}
    assignments = Counter(name for statement in tree.body for name in _module_level_targets(statement))
    return declared | {name for name, count in assignments.items() if count > 1}


def _module_level_targets(statement: ast.stmt) -> Iterator[str]:
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
            if isinstance(statement, ast.For | ast.While | ast.AugAssign):
                yield node.id  # rebound on every iteration, or read-modify-written


def _names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _names(constant)


def _numeric(value: Any) -> bool:
    if isinstance(value, bool | int | float | complex):
        return True
    return isinstance(value, np.ndarray | jax.Array) and (
        jnp.issubdtype(value.dtype, jnp.number) or value.dtype == bool
    )


def perturbed(value: Any) -> Any:
    """A different value of the same type (and shape and dtype)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float | complex):
        return value * 2 + 1
    if value.dtype == bool:
        return ~value
    return (value * 2 + 1).astype(value.dtype)


def _short(value: Any) -> str:
    text = repr(value) if isinstance(value, bool | int | float | complex) else f"an array {np.shape(value)}"
    return text if len(text) <= 40 else text[:37] + "..."


def recompilations(
    target: Target, function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> list[Finding]:
    """Call ``function`` as written twice; a second identical call must not compile anything."""
    try:
        with captured_stdout():
            block(function(*args, **kwargs))
            with counting_compilations() as compiled:
                block(function(*args, **kwargs))
    except Exception:
        return []
    if not compiled:
        return []
    names = ", ".join(sorted(set(compiled)))
    message = (
        f"a second call with the same inputs compiles again ({len(compiled)} compilation"
        f"{'s' * (len(compiled) != 1)}: {names}): a function to compile (a `jax.jit`, or a `lax` loop "
        "body run outside jit) is created anew on every call or iteration; create it once, or jit the caller"
    )
    return [_finding(target, "recompilation", message, (), severity=WARNING)]


_compilations: list[list[str]] = []


def _listener(event: str, duration_secs: float, **kwargs: str | int) -> None:
    if event.endswith("backend_compile_duration"):
        for collected in _compilations:
            collected.append(str(kwargs.get("fun_name", "?")))


_listening = False


@contextlib.contextmanager
def counting_compilations() -> Iterator[list[str]]:
    """The names of the functions XLA compiles during the ``with``."""
    global _listening
    if not _listening:
        monitoring.register_event_duration_secs_listener(_listener)
        _listening = True
    collected: list[str] = []
    _compilations.append(collected)
    try:
        yield collected
    finally:
        _compilations.remove(collected)


def _finding(
    target: Target, kind: str, message: str, rules: Collection[str], severity: str = "error"
) -> Finding:
    attribution = attribute(rules, None, target.span)
    return Finding(
        kind=kind,
        message=f"`{target.name}`: {message}",
        severity=severity,
        rule=attribution.rule,
        rule_name=attribution.rule_name,
        predicted=attribution.predicted,
        path=attribution.path,
        line=attribution.line,
    )
