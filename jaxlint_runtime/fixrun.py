"""Verify the fix of one function in this process (``verify_fix`` runs this in a worker)."""

from __future__ import annotations

from typing import Any

from jaxlint_runtime.fixes import FAILED, MISMATCH, UNVERIFIED, VERIFIED, FixRequest, FixVerdict
from jaxlint_runtime.inputs import InputError, Inputs, as_inputs, synthesise
from jaxlint_runtime.report import Report
from jaxlint_runtime.rulemap import describe_error
from jaxlint_runtime.targets import TargetError, UserCodeError, load_module_from_source, resolve
from jaxlint_runtime.verification import compare_inputs, options_from


def verify_function(request: FixRequest, name: str, given: Any) -> FixVerdict:
    """Import both sources afresh, find ``name`` in each and compare original-eager/fixed-compiled."""
    try:
        original_module = load_module_from_source(
            request.original_source, f"{request.path} (before fix)", "original"
        )
    except UserCodeError as error:
        return FixVerdict(
            name, UNVERIFIED, f"the original source raises on import: {describe_error(error.error)}"
        )
    try:
        fixed_module = load_module_from_source(request.fixed_source, request.path, "fixed")
    except UserCodeError as error:
        return FixVerdict(name, FAILED, f"the fixed source raises on import: {describe_error(error.error)}")
    try:
        original = resolve(original_module, name, "the original source")
    except TargetError as error:
        return FixVerdict(name, UNVERIFIED, str(error))
    try:
        fixed = resolve(fixed_module, name, "the fixed source")
    except TargetError as error:
        return FixVerdict(name, FAILED, str(error))
    if request.options.get("reference") == "fixed":  # the fix changes results on purpose
        return _compare(name, fixed, fixed, given, request)
    return _compare(name, original, fixed, given, request)


def _compare(name: str, original: Any, fixed: Any, given: Any, request: FixRequest) -> FixVerdict:
    try:
        inputs = _inputs(fixed, given, request.seed)
    except InputError as error:
        return FixVerdict(name, UNVERIFIED, f"no inputs: {error}")
    except Exception as error:
        return FixVerdict(name, UNVERIFIED, f"making its inputs raised {describe_error(error)}")
    options = {key: value for key, value in request.options.items() if key != "reference"}
    report = compare_inputs(original, fixed, inputs, options_from(options))
    status = VERIFIED if report.ok else MISMATCH if report.matched is False else FAILED
    return FixVerdict(name, status, summarise(report), report, inputs.synthesised)


def _inputs(function: Any, given: Any, seed: int) -> Inputs:
    if given is None:
        return synthesise(function, seed)
    return as_inputs(given() if callable(given) else given)


def summarise(report: Report) -> str:
    """One line: why the verdict is what it is."""
    if report.ok:
        return f"the fixed function compiled matches the original run eagerly (gradients: {report.gradient})"
    if report.mismatches:
        first = report.mismatches[0]
        more = len(report.mismatches) - 1
        return f"the fix changes results: {first.describe()}" + (f" (and {more} more)" if more else "")
    first_error = report.errors[0]
    return f"{first_error.location() + ': ' if first_error.path else ''}{first_error.message}"
