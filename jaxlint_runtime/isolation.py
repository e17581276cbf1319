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
import time
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


def run_worker(
    request: dict[str, Any],
    timeout: float,
    attachment: bytes | None = None,
    memory_limit: int | None = None,
) -> WorkerResult:
    """Run one request in a fresh Python process, killing it (and its children) after ``timeout``
    seconds or once they hold more than ``memory_limit`` bytes of resident memory together."""
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
        failure = _run(command, timeout, os.path.join(folder, "stderr.txt"), memory_limit)
        if failure is not None:
            return failure
        return _read_answer(answer_path)


def _run(
    command: list[str], timeout: float, stderr_path: str, memory_limit: int | None = None
) -> WorkerResult | None:
    """Run the worker in its own process group, its output in a file (no pipe that a process it
    started in the background could hold open), for at most ``timeout`` seconds and, where
    ``memory_limit`` is given, ``memory_limit`` bytes of resident memory for the whole group;
    whatever is left of its group afterwards is killed."""
    with open(stderr_path, "wb") as errors:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            start_new_session=True,
        )
        try:
            if memory_limit is None:
                process.wait(timeout=timeout)
            elif _wait_within_memory(process, timeout, memory_limit):
                _kill(process)
                return WorkerResult(
                    None,
                    f"used more than the memory limit ({memory_limit // 2**20} MiB resident) and was stopped",
                    "out-of-memory",
                )
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


def _wait_within_memory(process: subprocess.Popen[bytes], timeout: float, limit: int) -> bool:
    """Wait for ``process`` as ``Popen.wait`` does, looking at its group's resident memory ten
    times a second; True as soon as the group holds more than ``limit`` bytes. A watch rather
    than ``RLIMIT_AS``: XLA reserves far more address space than it ever touches."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            process.wait(timeout=min(0.1, max(0.0, deadline - time.monotonic())))
            return False
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                raise
        if group_resident_bytes(process.pid) > limit:
            return True


def group_resident_bytes(group: int) -> int:
    """Resident memory of every process in process group ``group`` (Linux ``/proc``; 0 elsewhere)."""
    total = 0
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as handle:
                    fields = handle.read().rpartition(b")")[2].split()
            except OSError:
                continue  # ended meanwhile
            # after the command name: state ppid pgrp ...; rss is field 24 of stat (index 21 here)
            if len(fields) > 21 and int(fields[2]) == group:
                total += int(fields[21]) * page
    return total


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
