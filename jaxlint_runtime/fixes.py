"""Verify automatic fixes: each changed function, original run eagerly against fixed compiled.

``jaxlint check --fix --verify`` needs one call per fixed file: ``verify_fix(original_source,
fixed_source, path, changed_functions(original_source, fixed_source), inputs)``; a verdict whose
``rollback`` is true means the fix must not be written. Both sources are executed as scratch
modules (user code runs), each function in its own subprocess by default, so a hang or crash
costs that function's verdict only. This module imports neither jax nor user code.
"""

from __future__ import annotations

import ast
import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jaxlint.engine.astutil import MODULE_CODE, definition_codes
from jaxlint_runtime.isolation import run_worker
from jaxlint_runtime.report import Report

VERIFIED, MISMATCH, FAILED, UNVERIFIED = "verified", "mismatch", "failed", "unverified"


@dataclass
class FixVerdict:
    """What verification says about the fix of one function."""

    function: str
    status: str  # "verified", "mismatch", "failed" or "unverified"
    reason: str
    report: Report | None = None
    synthesised_inputs: bool = False

    @property
    def rollback(self) -> bool:
        """The fix changed results or broke the function: keep the original code."""
        return self.status in (MISMATCH, FAILED)

    def to_dict(self) -> dict[str, Any]:
        return {
            "function": self.function,
            "status": self.status,
            "reason": self.reason,
            "rollback": self.rollback,
            "synthesised_inputs": self.synthesised_inputs,
            "report": self.report.to_dict() if self.report else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FixVerdict:
        report = Report.from_dict(data["report"]) if data.get("report") else None
        return cls(
            data["function"], data["status"], data["reason"], report, data.get("synthesised_inputs", False)
        )


InputsLike = Any  # Inputs, a tuple of positional arguments, or a callable returning either


@dataclass
class FixRequest:
    original_source: str
    fixed_source: str
    path: str
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)


def verify_fix(
    original_source: str,
    fixed_source: str,
    path: str,
    function_names: list[str],
    inputs: Mapping[str, InputsLike],
    *,
    seed: int = 0,
    isolate: bool = True,
    timeout: float = 300.0,
    options: Mapping[str, Any] | None = None,
) -> list[FixVerdict]:
    """One verdict per function: the original eagerly against the fixed version compiled.

    ``inputs`` maps a function name to its inputs; functions without an entry get inputs
    synthesised from their annotations, or are reported unverified. ``options`` holds
    ``Options`` fields (``rtol``, ``static_argnames``, ...) as plain values.
    """
    request = FixRequest(original_source, fixed_source, path, seed, dict(options or {}))
    if not isolate:
        from jaxlint_runtime.fixrun import verify_function

        return [verify_function(request, name, inputs.get(name)) for name in function_names]
    return [_isolated(request, name, inputs.get(name), timeout) for name in function_names]


def changed_functions(original_source: str, fixed_source: str) -> list[str]:
    """Module-level functions and methods (``Class.method``) whose code differs between the sources
    and that exist in both: the functions a fix changed and ``verify_fix`` can compare."""
    before, after = function_codes(original_source), function_codes(fixed_source)
    return [
        name
        for name, code in after.items()
        if name != MODULE_CODE and name in before and before[name] != code
    ]


def function_codes(source: str) -> dict[str, str]:
    """``definition_codes`` of ``source``; empty when it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    return definition_codes(tree)


def _isolated(request: FixRequest, name: str, given: InputsLike | None, timeout: float) -> FixVerdict:
    try:
        attachment = pickle.dumps(given)
    except Exception as error:
        return FixVerdict(
            name, UNVERIFIED, f"its inputs cannot be sent to the verification process ({error})"
        )
    payload = {
        "mode": "fix",
        "function": name,
        "original_source": request.original_source,
        "fixed_source": request.fixed_source,
        "path": request.path,
        "seed": request.seed,
        "options": request.options,
    }
    result = run_worker(payload, timeout, attachment)
    if result.data is not None and "verdict" in result.data:
        return FixVerdict.from_dict(result.data["verdict"])
    reason = result.failure or (result.data or {}).get("usage_error", "the verification process failed")
    return FixVerdict(name, FAILED, reason)
