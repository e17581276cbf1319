"""The process that runs user code for ``jaxlint verify`` and ``verify_fix``.

Usage: ``python -m jaxlint_runtime.worker REQUEST.json ANSWER.json [INPUTS.pickle]``. The answer
is ``{"report": ...}``, ``{"verdict": ...}`` or ``{"usage_error": "one line"}``.
"""

from __future__ import annotations

import json
import os
import pickle
import sys
import warnings
from typing import Any

from jaxlint_runtime.inputs import InputError, Inputs, call_factory, synthesise
from jaxlint_runtime.report import Report
from jaxlint_runtime.rulemap import error_finding, function_span
from jaxlint_runtime.targets import TargetError, UserCodeError, load_factory, load_target


class _UserFailure(Exception):
    """User code raised before verification could start; ``report`` says what and where."""

    def __init__(self, report: Report) -> None:
        super().__init__(report.function)
        self.report = report


def main(argv: list[str]) -> int:
    request_path, answer_path, *attachment = argv
    with open(request_path, encoding="utf-8") as handle:
        request = json.load(handle)
    try:
        answer = handle_request(request, attachment[0] if attachment else None)
    except (TargetError, InputError) as error:
        answer = {"usage_error": str(error)}
    except _UserFailure as failure:
        answer = {"report": failure.report.to_dict()}
    except MemoryError as error:
        answer = {"report": _failure(request.get("target", "?"), error, "run").to_dict()}
    with open(answer_path, "w", encoding="utf-8") as handle:
        json.dump(answer, handle)
    return 0


def handle_request(request: dict[str, Any], attachment: str | None) -> dict[str, Any]:
    warnings.filterwarnings("ignore")
    if request["mode"] == "fix":
        return {"verdict": _verify_fix(request, attachment)}
    from jaxlint_runtime.execution import device_named
    from jaxlint_runtime.verification import compare_inputs, options_from, verify_inputs

    try:
        options = options_from(request.get("options", {}))
        device_named(options.reference_device)
    except ValueError as error:
        raise TargetError(str(error)) from None
    function = _load(request["target"])
    inputs = _inputs(request, function)
    if request["mode"] == "compare":
        report = compare_inputs(function, _load(request["fixed"]), inputs, options)
    else:
        report = verify_inputs(function, inputs, options)
    return {"report": report.to_dict()}


def _verify_fix(request: dict[str, Any], attachment: str | None) -> dict[str, Any]:
    from jaxlint_runtime.fixes import FixRequest
    from jaxlint_runtime.fixrun import verify_function

    given = None
    if attachment is not None:
        with open(attachment, "rb") as handle:
            given = pickle.load(handle)
    fix = FixRequest(
        request["original_source"],
        request["fixed_source"],
        request["path"],
        request["seed"],
        request["options"],
    )
    return verify_function(fix, request["function"], given).to_dict()


def _load(target: str) -> Any:
    try:
        return load_target(target)[0]
    except UserCodeError as error:
        raise _UserFailure(_failure(target, error.error, "import", error.path)) from None


def _inputs(request: dict[str, Any], function: Any) -> Inputs:
    spec = request.get("inputs")
    seed = int(request.get("seed", 0))
    if spec is None:
        return synthesise(function, seed, request.get("dims"))
    try:
        factory = load_factory(spec)
    except UserCodeError as error:
        raise _UserFailure(_failure(request["target"], error.error, "import", error.path)) from None
    try:
        return call_factory(factory, seed)
    except InputError:
        raise
    except Exception as error:
        raise _UserFailure(_failure(request["target"], error, "inputs", None, factory)) from None


def _failure(
    name: str, error: BaseException, stage: str, path: str | None = None, where: Any = None
) -> Report:
    span = function_span(where) if where is not None else None
    finding = error_finding(error, stage, span)
    if finding.path is None and path is not None and os.path.exists(path):
        finding.path = path
    return Report(function=name, findings=[finding])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
