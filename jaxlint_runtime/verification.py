"""``verify`` and ``compare``: run eagerly and compiled, compare, and say what differs and why."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import jax

from jaxlint.engine.registry import rule_by_code
from jaxlint_runtime.checks import Checks
from jaxlint_runtime.comparison import compare_trees
from jaxlint_runtime.execution import (
    CompiledRun,
    Outcome,
    Target,
    compiled_device,
    describe_device,
    device_named,
    identity_compared_statics,
    run_compiled,
    run_eager,
)
from jaxlint_runtime.gradients import Sides, compare_gradients
from jaxlint_runtime.inputs import UNSET, Inputs, describe
from jaxlint_runtime.probes import (
    MAX_EQUATIONS,
    large_program,
    recompilations,
    stale_globals,
    trace_time_side_effects,
)
from jaxlint_runtime.randomness import DrawRecorder, describe_group, recording_draws
from jaxlint_runtime.report import Finding, Report
from jaxlint_runtime.rulemap import attribute, describe_error, error_finding

KEY_RULES = ("JAX301", "JAX302", "JAX303")
# Hazards that make a compiled result differ from eager execution without an error.
TRACE_TIME_RULES = ("JAX105", "JAX106", "JAX103", "JAX104", "JAX102", "JAX101", "JAX203")
RandomStreams = Literal["auto", "same", "changed"]


@dataclass(frozen=True)
class Options:
    """How to verify: static arguments, tolerances, JAX checks, devices, probes."""

    static_argnums: tuple[int, ...] | int = ()
    static_argnames: tuple[str, ...] | str = ()
    rtol: float | None = None
    atol: float | None = None
    checks: Checks = field(default_factory=Checks)
    reference_device: str | None = None
    max_equations: int | None = MAX_EQUATIONS
    recompilation_check: bool = True


def options_from(values: Mapping[str, Any]) -> Options:
    """``Options`` from plain values (JSON, command line); ``check_nans`` switches on NaN checks."""
    fields = {f.name for f in dataclasses.fields(Options)} - {"checks"}
    unknown = set(values) - fields - {"check_nans"}
    if unknown:
        raise ValueError(f"unknown verification option(s): {', '.join(sorted(unknown))}")
    chosen = {key: value for key, value in values.items() if key in fields}
    for key in ("static_argnums", "static_argnames"):
        if isinstance(chosen.get(key), list):
            chosen[key] = tuple(chosen[key])
    return Options(**chosen, checks=Checks(nans=bool(values.get("check_nans"))))


def verify(
    fn: Callable[..., Any],
    /,
    *args: Any,
    static_argnums: tuple[int, ...] | int = (),
    static_argnames: tuple[str, ...] | str = (),
    rtol: float | None = None,
    atol: float | None = None,
    check_nans: bool = False,
    reference_device: str | None = None,
    **kwargs: Any,
) -> Report:
    """Run ``fn(*args, **kwargs)`` eagerly and under ``jax.jit`` and report whether they agree.

    ``reference_device="cpu"`` pins the eager reference to the CPU; the compiled run always uses
    the default backend. ``check_nans`` switches on ``jax_debug_nans``.
    """
    options = Options(static_argnums, static_argnames, rtol, atol, Checks(nans=check_nans), reference_device)
    return Session(fn, fn, options).verify(args, kwargs)


def compare(
    original: Callable[..., Any],
    fixed: Callable[..., Any],
    /,
    *args: Any,
    static_argnums: tuple[int, ...] | int = (),
    static_argnames: tuple[str, ...] | str = (),
    rtol: float | None = None,
    atol: float | None = None,
    check_nans: bool = False,
    reference_device: str | None = None,
    random_streams: RandomStreams = "auto",
    expected: Any = UNSET,
    **kwargs: Any,
) -> Report:
    """Run ``original`` eagerly and ``fixed`` compiled and report whether the fix preserves results.

    ``expected`` is the correct output when the original cannot produce it (it raises even
    eagerly). ``random_streams="changed"`` (or ``"auto"`` when the original consumes one key value
    twice) compares only structure, shapes and dtypes and checks the fix draws from distinct keys.
    """
    options = Options(static_argnums, static_argnames, rtol, atol, Checks(nans=check_nans), reference_device)
    return Session(original, fixed, options).compare(args, kwargs, expected, random_streams)


def verify_inputs(fn: Callable[..., Any], inputs: Inputs, options: Options) -> Report:
    """``verify`` with prepared inputs and options (used by the CLI worker)."""
    return Session(fn, fn, options).verify(inputs.args, inputs.kwargs)


def compare_inputs(
    original: Callable[..., Any], fixed: Callable[..., Any], inputs: Inputs, options: Options
) -> Report:
    """``compare`` with prepared inputs and options (used by ``verify_fix`` and the CLI worker)."""
    return Session(original, fixed, options).compare(inputs.args, inputs.kwargs, inputs.expected, "auto")


class Session:
    """One verification: the reference runs eagerly, the actual function runs compiled."""

    def __init__(self, reference: Callable[..., Any], actual: Callable[..., Any], options: Options) -> None:
        self.reference = Target.of(reference, options.static_argnums, options.static_argnames)
        self.actual = Target.of(actual, options.static_argnums, options.static_argnames)
        self.as_written = actual
        self.options = options
        self.device = compiled_device()
        self.reference_device = device_named(options.reference_device)
        self.report = Report(
            function=self.actual.name,
            backend=jax.default_backend(),
            device=describe_device(self.device),
            reference_device=describe_device(self.reference_device),
            checks=options.checks.names(),
        )

    @property
    def checks(self) -> Checks:
        return self.options.checks

    def verify(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Report:
        self.report.inputs = describe(self.actual.function, Inputs(args, kwargs))
        with recording_draws() as draws:
            eager = self._eager(self.reference, args, kwargs)
        compiled = run_compiled(self.actual, args, kwargs, self.device, self.checks)
        self._record_run(eager, compiled)
        self._add_errors(eager, compiled)
        if eager.ok and compiled.outcome.ok:
            self._add_mismatches(compare_trees(eager.value, compiled.outcome.value, **self._tolerance()))
            self._explain_mismatch()
        self._add_key_reuse(draws)
        self._add_behaviour(args, kwargs, eager, compiled)
        if eager.ok and compiled.outcome.ok:
            self._add_gradients(self.reference, args, kwargs, compiled.outcome.value)
        self._add_recompilations(args, kwargs)
        return self._finish()

    def compare(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], expected: Any, random_streams: RandomStreams
    ) -> Report:
        self.report.inputs = describe(self.actual.function, Inputs(args, kwargs))
        original, original_draws = self._original(args, kwargs)
        changed = random_streams == "changed" or (random_streams == "auto" and original_draws.reuses_keys())
        with recording_draws() as fixed_draws:
            fixed_eager = self._eager(self.actual, args, kwargs)
        compiled = run_compiled(self.actual, args, kwargs, self.device, self.checks)
        self._record_run(original, compiled)
        self._add_errors(fixed_eager, compiled)
        self._compare_with_original(original, expected, compiled, changed)
        if changed:
            self._check_new_streams(original_draws, fixed_draws)
            self.report.gradient = "skipped: random streams change by design"
        else:
            self._add_key_reuse(fixed_draws)
        self._add_behaviour(args, kwargs, fixed_eager, compiled)
        if compiled.outcome.ok and not changed:
            reference = self.reference if original.ok else self.actual
            self._add_gradients(reference, args, kwargs, compiled.outcome.value)
        self._add_recompilations(args, kwargs)
        return self._finish()

    def _compare_with_original(
        self, original: Outcome, expected: Any, compiled: CompiledRun, changed: bool
    ) -> None:
        """The fixed function's compiled output against ``expected``, else the original's eager output."""
        if expected is UNSET and original.error is not None:
            self._add_no_reference(original.error)
            return
        if compiled.outcome.ok:
            reference = original.value if expected is UNSET else expected
            values = compare_trees(reference, compiled.outcome.value, values=not changed, **self._tolerance())
            self._add_mismatches(values)

    def _original(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Outcome, DrawRecorder]:
        """The original's eager run; rerun without key-reuse checking if that is what stopped it."""
        with recording_draws() as draws:
            original = run_eager(self.reference.function, args, kwargs, self.reference_device, self.checks)
        if original.error is not None and "KeyReuseError" in _class_names(original.error):
            checks = dataclasses.replace(self.checks, key_reuse=False)
            with recording_draws() as draws:
                original = run_eager(self.reference.function, args, kwargs, self.reference_device, checks)
            draws.reused_by_checker = True
        return original, draws

    def _eager(self, target: Target, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Outcome:
        return run_eager(
            target.function, args, kwargs, self.reference_device, self.checks, target.namespace()
        )

    def _tolerance(self) -> dict[str, Any]:
        cross_device = self.device.platform != self.reference_device.platform
        return {"rtol": self.options.rtol, "atol": self.options.atol, "cross_device": cross_device}

    def _record_run(self, eager: Outcome, compiled: CompiledRun) -> None:
        self.report.timings = dataclasses.replace(compiled.timings, eager_s=eager.seconds)
        self.report.trace_count = compiled.trace_count

    def _add_errors(self, eager: Outcome, compiled: CompiledRun) -> None:
        findings = []
        if compiled.outcome.error is not None:
            findings.append(error_finding(compiled.outcome.error, compiled.outcome.stage, self.actual.span))
        if eager.error is not None:
            finding = error_finding(eager.error, "eager", self.actual.span)
            if not _same_error(eager.error, compiled.outcome.error, finding, findings):
                findings.insert(0, finding)
        self.report.findings.extend(findings)

    def _add_no_reference(self, error: Exception) -> None:
        finding = error_finding(error, "eager", self.reference.span)
        finding.message = (
            f"no reference output: the original raises when run eagerly ({describe_error(error)}); "
            "give the correct output as `expected`"
        )
        self.report.findings.append(finding)

    def _add_mismatches(self, mismatches: list[Any]) -> None:
        self.report.mismatches.extend(mismatches)
        self.report.matched = not self.report.mismatches

    def _explain_mismatch(self) -> None:
        """Point at the trace-time hazard jaxlint sees in the function, when there is one."""
        if not self.report.mismatches or self.actual.span is None:
            return
        attribution = attribute(TRACE_TIME_RULES, None, self.actual.span)
        rule = rule_by_code(attribution.rule) if attribution.predicted and attribution.rule else None
        if rule is None:
            return
        self.report.findings.append(
            Finding(
                kind="mismatch",
                message=f"`{self.actual.name}`: the compiled result differs from eager execution: {rule.outcome}",
                rule=attribution.rule,
                rule_name=attribution.rule_name,
                predicted=True,
                path=attribution.path,
                line=attribution.line,
            )
        )

    def _add_key_reuse(self, draws: DrawRecorder) -> None:
        for group in draws.shared_keys():
            frame = (group[1].path, group[1].line) if group[1].path and group[1].line else None
            attribution = attribute(KEY_RULES, frame, self.actual.span)
            self.report.findings.append(
                Finding(
                    kind="key-reuse",
                    message=f"`{self.actual.name}`: {describe_group(group)}",
                    stage="eager",
                    rule=attribution.rule,
                    rule_name=attribution.rule_name,
                    predicted=attribution.predicted,
                    path=attribution.path,
                    line=attribution.line,
                )
            )

    def _check_new_streams(self, original: DrawRecorder, fixed: DrawRecorder) -> None:
        self.report.notes.append(
            "random streams change by design (keys are split): structure, shapes and dtypes are compared, not values"
        )
        self._add_key_reuse(fixed)
        before, after = original.samples(), fixed.samples()
        if len(before) != len(after):
            self.report.findings.append(
                Finding(
                    kind="random-draws",
                    message=f"the fixed function draws random values {len(after)} times, the original {len(before)} times",
                    path=self.actual.span.path if self.actual.span else None,
                    line=self.actual.span.first if self.actual.span else None,
                )
            )
            return
        for group in original.shared_keys():
            positions = [i for i, draw in enumerate(before) if any(draw is member for member in group)]
            keys = {after[i].key for i in positions}
            if len(positions) > 1 and len(keys) == len(positions):
                numbers = " and ".join(str(i + 1) for i in positions)
                self.report.notes.append(
                    f"draws {numbers} shared one key before the fix and now use distinct keys"
                )

    def _add_behaviour(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], eager: Outcome, compiled: CompiledRun
    ) -> None:
        self.report.findings.extend(self._retrace_findings(compiled, args, kwargs))
        self.report.findings.extend(trace_time_side_effects(self.actual, eager, compiled))
        stale = stale_globals(self.actual, args, kwargs, eager, compiled, self.reference_device, self.checks)
        self.report.findings.extend(stale.findings)
        if stale.mismatches:
            self._add_mismatches(stale.mismatches)
        self.report.findings.extend(large_program(self.actual, compiled, self.options.max_equations))

    def _retrace_findings(
        self, compiled: CompiledRun, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> list[Finding]:
        if not compiled.retraces:
            return []
        culprits = identity_compared_statics(self.actual, args, kwargs)
        cause = (
            f"static {', '.join(culprits)} compares by identity, so an equal new object misses the cache "
            "(define `__eq__` and `__hash__`, e.g. a frozen dataclass)"
            if culprits
            else "jit's cache missed, so every call pays for tracing and compilation again"
        )
        span = self.actual.span
        return [
            Finding(
                kind="retrace",
                message=(
                    f"`{self.actual.name}` was traced again when called a second time with equal inputs of the "
                    f"same shapes and dtypes ({compiled.trace_count} traces): {cause}"
                ),
                stage="run",
                path=span.path if span else None,
                line=span.first if span else None,
            )
        ]

    def _add_gradients(
        self, reference: Target, args: tuple[Any, ...], kwargs: dict[str, Any], outputs: Any
    ) -> None:
        sides = Sides(reference, self.actual, self.reference_device, self.device)
        result = compare_gradients(sides, args, kwargs, outputs, self.checks, self._tolerance())
        self.report.gradient = result.status
        self.report.findings.extend(result.findings)
        if result.mismatches:
            self._add_mismatches(result.mismatches)

    def _add_recompilations(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        if self.options.recompilation_check:
            self.report.findings.extend(recompilations(self.actual, self.as_written, args, kwargs))

    def _finish(self) -> Report:
        if self.report.matched is None and not self.report.errors:
            self.report.matched = not self.report.mismatches
        return self.report


def _class_names(error: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(error).__mro__}


def _same_error(
    eager: Exception, compiled: Exception | None, finding: Finding, others: list[Finding]
) -> bool:
    if compiled is None or type(eager) is not type(compiled) or not others:
        return False
    return (finding.rule, finding.line) == (others[0].rule, others[0].line)
