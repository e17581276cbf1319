"""What a verification found: the data ``verify``/``compare`` return and the CLI prints.

This module imports neither jax nor user code: the CLI renders reports that a worker process
sent back as JSON.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

ERROR, WARNING = "error", "warning"


@dataclass
class LeafMismatch:
    """One pytree leaf (or the tree's structure) where the compiled result differs from eager."""

    path: str
    kind: str  # "structure", "shape", "dtype" or "value"
    detail: str
    max_abs_error: float | None = None
    max_rel_error: float | None = None

    def describe(self) -> str:
        return f"{self.path}: {self.detail}"


@dataclass
class Finding:
    """A problem observed while running the code, tied to the jaxlint rule that predicts it."""

    kind: str  # e.g. "error", "key-reuse", "stale-global", "trace-time-side-effect", "timeout"
    message: str
    severity: str = ERROR
    stage: str | None = None  # "eager", "trace", "lower", "compile", "run", "gradient", ...
    rule: str | None = None
    rule_name: str | None = None
    predicted: bool = False  # jaxlint's static analysis reports this rule at this line
    path: str | None = None
    line: int | None = None

    def location(self) -> str:
        if self.path is None:
            return ""
        return f"{self.path}:{self.line}" if self.line else self.path


@dataclass
class Timings:
    """Seconds spent in each stage; ``None`` when the stage did not run."""

    eager_s: float | None = None
    trace_s: float | None = None
    lower_s: float | None = None
    compile_s: float | None = None
    run_s: float | None = None


@dataclass
class Report:
    """The outcome of running one function eagerly and compiled and comparing the results."""

    function: str
    matched: bool | None = None  # None: no comparison was possible (something raised)
    mismatches: list[LeafMismatch] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    backend: str = ""
    device: str = ""
    reference_device: str = ""
    timings: Timings = field(default_factory=Timings)
    trace_count: int = 0
    checks: list[str] = field(default_factory=list)
    gradient: str = "not compared"
    inputs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.severity == ERROR]

    @property
    def ok(self) -> bool:
        """The compiled function matches eager execution and nothing went wrong."""
        return self.matched is True and not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, **dataclasses.asdict(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        fields = {f.name for f in dataclasses.fields(cls)}
        values = {key: value for key, value in data.items() if key in fields}
        values["mismatches"] = [LeafMismatch(**m) for m in data.get("mismatches", [])]
        values["findings"] = [Finding(**f) for f in data.get("findings", [])]
        values["timings"] = Timings(**data.get("timings", {}))
        return cls(**values)


def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2) + "\n"


def render_text(report: Report) -> str:
    """A short human report: verdict, devices, timings, then each mismatch and finding."""
    lines = [f"{report.function}: {_verdict(report)}"]
    if report.inputs:
        lines.append(f"  inputs:    {', '.join(report.inputs)}")
    if report.device:
        lines.append(f"  devices:   eager on {report.reference_device}, compiled on {report.device}")
    if report.timings.trace_s is not None:
        lines.append(f"  compile:   {_timings(report.timings)}; traced {_times(report.trace_count)}")
    if report.checks:
        lines.append(f"  checks:    {', '.join(report.checks)}")
    lines.append(f"  gradients: {report.gradient}")
    lines.extend(f"  note: {note}" for note in report.notes)
    lines.extend(f"  mismatch {mismatch.describe()}" for mismatch in report.mismatches)
    lines.extend(f"  {_finding(finding)}" for finding in report.findings)
    return "\n".join(lines) + "\n"


def _verdict(report: Report) -> str:
    if report.ok:
        warnings = len(report.findings)
        return "MATCH" + (f" ({warnings} warning{'s' * (warnings != 1)})" if warnings else "")
    if report.matched is False:
        count = len(report.mismatches)
        return f"MISMATCH ({count} difference{'s' * (count != 1)})"
    return "ERROR" if report.matched is None else "PROBLEMS FOUND"


def _timings(timings: Timings) -> str:
    stages = (("trace", timings.trace_s), ("lower", timings.lower_s), ("compile", timings.compile_s))
    return ", ".join(f"{name} {seconds * 1000:.1f} ms" for name, seconds in stages if seconds is not None)


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _finding(finding: Finding) -> str:
    parts = [finding.severity + (f" [{finding.stage}]" if finding.stage else "")]
    if finding.path:
        parts.append(finding.location())
    if finding.rule:
        flagged = ", flagged by jaxlint" if finding.predicted else ""
        parts.append(f"{finding.rule} ({finding.rule_name}{flagged})" if finding.rule_name else finding.rule)
    return ": ".join([*parts, finding.message])
