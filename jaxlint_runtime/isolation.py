"""Run user code in a worker process, so a hang, a crash or exhausted memory becomes a report.

The parent side imports neither jax nor user code. The worker (``python -m
jaxlint_runtime.worker REQUEST ANSWER [ATTACHMENT]``) reads a JSON request and writes a JSON
answer; anything the user code prints stays in the worker's captured output.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

from jaxlint_runtime.report import Finding, Report

KILLED_BY = {
    int(signal.SIGKILL): "SIGKILL, often the out-of-memory killer",
    int(signal.SIGSEGV): "SIGSEGV, a crash",
}


@dataclass
class WorkerResult:
    """The worker's JSON answer, or why there is none (``failure``, of ``kind`` timeout/crash/...)."""

    data: dict[str, Any] | None
    failure: str | None = None
    kind: str | None = None


def run_worker(request: dict[str, Any], timeout: float, attachment: bytes | None = None) -> WorkerResult:
    """Run one request in a fresh Python process, killing it (and its children) after ``timeout``."""
    # removed in every outcome, even when something the code started still writes there
    with tempfile.TemporaryDirectory(prefix="jaxlint-verify-", ignore_cleanup_errors=True) as folder:
        request_path = os.path.join(folder, "request.json")
        answer_path = os.path.join(folder, "answer.json")
        with open(request_path, "w", encoding="utf-8") as handle:
            json.dump(request, handle)
        command = [sys.executable, "-m", "jaxlint_runtime.worker", request_path, answer_path]
        if attachment is not None:
            attachment_path = os.path.join(folder, "inputs.pickle")
            with open(attachment_path, "wb") as handle:
                handle.write(attachment)
            command.append(attachment_path)
        failure = _run(command, timeout, os.path.join(folder, "stderr.txt"))
        if failure is not None:
            return failure
        return _read_answer(answer_path)


def _run(command: list[str], timeout: float, stderr_path: str) -> WorkerResult | None:
    """Run the worker in its own process group, its output in a file (no pipe that a process it
    started in the background could hold open), for at most ``timeout`` seconds; whatever is
    left of its group afterwards is killed."""
    with open(stderr_path, "wb") as errors:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            start_new_session=True,
        )
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            return WorkerResult(
                None, f"did not finish within {timeout:g} s: the code hangs or is too slow", "timeout"
            )
        finally:
            _kill_group(process)
    with open(stderr_path, "rb") as errors:
        stderr = errors.read()
    if process.returncode < 0:
        number = -process.returncode
        why = KILLED_BY.get(number) or _signal_name(number)
        kind = "out-of-memory" if number == signal.SIGKILL else "crash"
        return WorkerResult(None, f"the verification process was killed by signal {number} ({why})", kind)
    if process.returncode != 0:
        return WorkerResult(None, f"the verification process failed: {_last_line(stderr)}", "crash")
    return None


def _kill(process: subprocess.Popen[bytes]) -> None:
    _kill_group(process)
    process.wait()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the worker's process group (the worker and what it started there)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _read_answer(path: str) -> WorkerResult:
    try:
        with open(path, encoding="utf-8") as handle:
            return WorkerResult(json.load(handle))
    except (OSError, ValueError) as error:
        return WorkerResult(None, f"the verification process gave no answer ({error})", "crash")


def _last_line(stderr: bytes) -> str:
    lines = [line for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no error message"


def failure_report(function: str, result: WorkerResult) -> Report:
    """A report for a verification that never finished."""
    message = result.failure or "the verification process failed"
    return Report(function=function, findings=[Finding(kind=result.kind or "crash", message=message)])
