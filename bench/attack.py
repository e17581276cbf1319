"""Attack jaxlint the way issue 17 did and say, promise by promise, whether it held.

Usage: python bench/attack.py [--kills N] [--races N] [--only AREA ...] [--keep]

Every attack drives the real program as a subprocess with a time bound, in a temporary folder:
hostile files, kills, races with the user's editor, corrupt caches, hostile configurations, a
misbehaving LSP client, and code that misbehaves under ``--verify``. Each checks one promise:
nothing the user wrote is lost, nothing hangs, bad input gets one line (exit 2) and never a
traceback, a cache never serves another version's findings, no process outlives jaxlint, and
``check`` never runs the user's code. The table goes to standard output and to
``bench/results/attack.md``; the exit status is 1 if any promise broke.

The races are real: another process edits the file, or swaps a symbolic link in, at a random
moment of a ``--fix`` run (``--races`` trials each); ``--kills`` SIGKILLs land at random moments
of a ``--fix`` run over a tree. The project's tests reproduce each item deterministically
(``tests/test_reliability.py``, ``tests/test_hostile.py``); this script is the attack itself,
too slow and too random for CI.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
JAXLINT = [sys.executable, "-m", "jaxlint"]
BOUND_S = 120  # no single run may take longer: past it, the promise "never hang" broke

BUGGY = "import jax\n\n\n@jax.jit\ndef step(x):\n    print(x)\n    return x\n"
FIXED = BUGGY.replace("print(x)", 'jax.debug.print("{}", x)')
MANY = "import jax\n" + "".join(
    f"\n\n@jax.jit\ndef f{i}(x):\n    print(x)\n    y = x.at[0].set(1.0)\n    y[0] = x\n    return y\n"
    for i in range(300)
)


@dataclass
class Outcome:
    area: str
    attack: str
    promise: str
    held: bool | None  # None: could not be tried here (said in ``detail``)
    detail: str


@dataclass
class Run:
    code: int | None  # None: killed at the bound
    out: str
    err: str
    seconds: float


def jaxlint(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, stdin: bytes | None = None
) -> Run:
    """The real CLI, bounded: a run that outlives ``BOUND_S`` is killed and reported as a hang."""
    start = time.monotonic()
    try:
        done = subprocess.run(
            [*JAXLINT, *args],
            cwd=cwd,
            env={**os.environ, **(env or {})},
            input=stdin,
            capture_output=True,
            timeout=BOUND_S,
            check=False,
        )
    except subprocess.TimeoutExpired as hung:
        return Run(None, _text(hung.stdout), _text(hung.stderr), time.monotonic() - start)
    return Run(done.returncode, _text(done.stdout), _text(done.stderr), time.monotonic() - start)


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def clean(run: Run, codes: tuple[int, ...] = (0, 1)) -> tuple[bool, str]:
    """Finished in time, with one of ``codes``, and no traceback anywhere."""
    if run.code is None:
        return False, f"hung: killed after {BOUND_S} s"
    if "Traceback" in run.out + run.err:
        return False, "printed a traceback: " + run.err.strip().splitlines()[-1][:120]
    if run.code not in codes:
        return False, f"exit {run.code}: {run.err.strip()[:120]}"
    return True, f"exit {run.code} in {run.seconds:.1f} s"


def one_line_error(run: Run, needle: str = "") -> tuple[bool, str]:
    """Exit 2 with exactly one line on stderr (saying ``needle``) and no traceback."""
    held, detail = clean(run, (2,))
    lines = run.err.strip().splitlines()
    if held and len(lines) != 1:
        return False, f"{len(lines)} lines on stderr"
    if held and needle not in run.err:
        return False, f"the line does not say `{needle}`: {run.err.strip()[:120]}"
    return held, run.err.strip()[:100] if held else detail


# --- files ---------------------------------------------------------------------------------------


def fifo_in_the_tree(work: Path) -> tuple[bool, str]:
    (work / "ok.py").write_text(BUGGY)
    os.mkfifo(work / "a.py")
    results = [jaxlint("check", str(work)), jaxlint("check", "--fix", str(work / "a.py"))]
    for run in results:
        held, detail = clean(run, (0, 1, 2))
        if not held:
            return held, detail
    said = (results[0].err + results[1].err).strip().splitlines()
    return True, "skipped with a message, in a folder and named: " + (said[0][:70] if said else "(none)")


def binary_and_null_bytes(work: Path) -> tuple[bool, str]:
    (work / "binary.py").write_bytes(os.urandom(4096))
    (work / "nulls.py").write_bytes(b"import jax\n\x00\x00x = 1\n")
    run = jaxlint("check", "--output-format", "json", str(work))
    held, detail = clean(run)
    if held:
        codes = sorted(d["code"] for d in json.loads(run.out))
        held, detail = codes == ["JAX000", "JAX000"] or codes == ["JAX000", "JAX001"], f"reported as {codes}"
    return held, detail


def undecodable_name_in_sarif(work: Path) -> tuple[bool, str]:
    name = os.fsencode(work) + b"/mod\xff.py"
    with open(name, "w") as handle:
        handle.write(BUGGY)
    run = jaxlint("check", "--output-format", "sarif", str(work))
    held, detail = clean(run)
    if held:
        results = json.loads(run.out)["runs"][0]["results"]
        held, detail = len(results) == 1, f"{len(results)} SARIF result(s), the name percent-encoded"
    return held, detail


def terminal_that_cannot_show_the_path(work: Path) -> tuple[bool, str]:
    (work / "modèle.py").write_text(BUGGY)
    return clean(jaxlint("check", str(work), env={"PYTHONIOENCODING": "ascii"}))


def symlink_loop(work: Path) -> tuple[bool, str]:
    (work / "loop").symlink_to(work)
    (work / "a.py").symlink_to(work / "b.py")
    (work / "b.py").symlink_to(work / "a.py")
    return clean(jaxlint("check", str(work)), (0, 1, 2))


def deep_expression_in_traced_code(work: Path) -> tuple[bool, str]:
    deep = " + ".join(["x"] * 2992)
    (work / "deep.py").write_text(
        f"import jax\n\n\n@jax.jit\ndef f(x):\n    y = {deep}\n    print(y)\n    if y > 0:\n        return y\n"
        "    return x\n"
    )
    run = jaxlint("check", "--output-format", "json", str(work))
    held, detail = clean(run)
    if held:
        codes = [d["code"] for d in json.loads(run.out)]
        held, detail = codes == ["JAX101", "JAX501"], f"findings {codes}"
    return held, detail


def twenty_megabytes(work: Path) -> tuple[bool, str]:
    line = "x = [" + ", ".join(["1"] * 200) + "]\n"
    (work / "big.py").write_text("import jax\n" + line * (20 * 2**20 // len(line)))
    return clean(jaxlint("check", str(work)))


def notebook_of_the_wrong_shape(work: Path) -> tuple[bool, str]:
    for number, text in enumerate(['{"cells": 5}', "[1, 2]", "{" * 100000, '{"cells": [{"source": 7}]}']):
        (work / f"n{number}.ipynb").write_text(text)
    run = jaxlint("check", "--output-format", "json", str(work))
    held, detail = clean(run)
    if held:
        codes = sorted({d["code"] for d in json.loads(run.out)})
        held, detail = codes == ["JAX001"], f"reported as {codes}"
    return held, detail


def user_code_never_runs(work: Path) -> tuple[bool, str]:
    canary = work / "PWNED"
    payload = f"import os\nopen({str(canary)!r}, 'w').close()\n"
    (work / "evil.py").write_text(payload + BUGGY)
    (work / "conftest.py").write_text(payload)
    (work / "pyproject.toml").write_text('[tool.jaxlint]\ntraced-decorators = ["evil.step"]\n')
    runs = [jaxlint("check", str(work)), jaxlint("check", "--fix", "--diff", str(work))]
    for run in runs:
        held, detail = clean(run)
        if not held:
            return held, detail
    return not canary.exists(), "no module of the user's was imported" if not canary.exists() else "code ran"


# --- kills ---------------------------------------------------------------------------------------


def killed_fix_leaves_files_whole(work: Path, kills: int) -> tuple[bool, str]:
    reference = work / "reference.py"
    reference.write_text(MANY)
    jaxlint("check", "--no-cache", "--fix", "--unsafe-fixes", "-q", str(reference))
    expected = reference.read_text()
    command = [*JAXLINT, "check", "--no-cache", "--fix", "--unsafe-fixes", "-q", "-j", "2"]
    start = time.monotonic()
    tree = _tree(work / "tree", 24, MANY)
    subprocess.run([*command, str(tree)], capture_output=True, check=False, timeout=BOUND_S * 5)
    whole = time.monotonic() - start
    half_way = 0
    for _ in range(kills):
        tree = _tree(work / "tree", 24, MANY)
        process = subprocess.Popen(
            [*command, str(tree)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(random.uniform(0.2, 1.0) * whole)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        states = [path.read_text() for path in tree.rglob("*.py")]
        if not set(states) <= {MANY, expected}:
            return False, "a file was left neither original nor fully fixed"
        half_way += 0 < states.count(expected) < len(states)
    return True, f"{kills} SIGKILLs, {half_way} of them mid-write: every file original or fully fixed"


def _tree(root: Path, files: int, text: str) -> Path:
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    for number in range(files):
        (root / f"m{number}.py").write_text(text)
    return root


def workers_die_with_jaxlint(work: Path, how: signal.Signals) -> tuple[bool, str]:
    tree = _tree(work / "tree", 40, MANY)
    process = subprocess.Popen(
        [*JAXLINT, "check", "--no-cache", "-j", "2", str(tree)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
        workers = _children(process.pid)
    if not workers:
        return False, "no pool started: nothing was attacked"
    process.send_signal(how)
    _, errors = process.communicate(timeout=BOUND_S)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(worker) for worker in workers):
        time.sleep(0.2)
    left = [worker for worker in workers if _alive(worker)]
    if left:
        return False, f"{len(left)} worker(s) still running"
    if b"Traceback" in errors:
        return False, "printed a traceback"
    return True, f"{len(workers)} workers ended with it"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def killed_cache_writes_leave_nothing(work: Path, kills: int) -> tuple[bool, str]:
    cache = work / "cache"
    for trial in range(kills):
        tree = _tree(work / "tree", 40, MANY + f"# {trial}\n")
        process = subprocess.Popen(
            [*JAXLINT, "check", "--cache-dir", str(cache), "-j", "2", str(tree)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(random.uniform(0.5, 3.0))
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    left_by_kills = len(list(cache.rglob(".tmp-*")))
    (work / "new.py").write_text(BUGGY + "# new\n")
    held, detail = clean(jaxlint("check", "--cache-dir", str(cache), str(work / "new.py")))
    left = list(cache.rglob(".tmp-*"))
    if not held:
        return held, detail
    return not left, f"{left_by_kills} left by {kills} kills, {len(left)} after the next run"


# --- races ---------------------------------------------------------------------------------------


def race(
    work: Path, trials: int, meddle: Callable[[Path], None], kept: Callable[[Path], bool]
) -> tuple[int, int]:
    """``trials`` runs of ``--fix`` on a large file while ``meddle`` strikes at a random moment;
    returns (trials where ``kept`` failed, trials where jaxlint did fix the file)."""
    broken = fixed = 0
    path = work / "model.py"
    path.write_text(MANY)
    start = time.monotonic()
    jaxlint("check", "--no-cache", "--fix", str(path))
    whole = time.monotonic() - start
    for _ in range(trials):
        for leftover in work.iterdir():
            if leftover.is_file() or leftover.is_symlink():
                leftover.unlink()
        path.write_text(MANY)
        process = subprocess.Popen(
            [*JAXLINT, "check", "--no-cache", "--fix", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(random.uniform(0.3, 1.1) * whole)
        meddle(path)
        process.wait(timeout=BOUND_S)
        broken += not kept(path)
        fixed += "jax.debug.print" in (path.read_text() if path.exists() else "")
    return broken, fixed


def edit_during_fix(work: Path, trials: int) -> tuple[bool, str]:
    line = "# saved by the user's editor\n"

    def append(path: Path) -> None:
        with open(path, "a") as handle:
            handle.write(line)

    broken, fixed = race(work, trials, append, lambda path: path.read_text().endswith(line))
    return broken == 0, f"{trials} edits at random moments: {broken} lost ({fixed} runs fixed the file)"


def symlink_swapped_in_during_fix(work: Path, trials: int) -> tuple[bool, str]:
    victim = work.parent / "victim.txt"
    victim.write_text("not yours\n")

    def swap(path: Path) -> None:
        aside = path.with_suffix(".aside")
        path.rename(aside)
        path.symlink_to(victim)

    broken, _ = race(work, trials, swap, lambda path: victim.read_text() == "not yours\n")
    return broken == 0, f"{trials} swaps at random moments: the link's target written {broken} times"


def file_changed_during_a_cached_run(work: Path, trials: int) -> tuple[bool, str]:
    cache = work / "cache"
    tree = _tree(work / "tree", 30, MANY)
    target = tree / "m29.py"
    stale = 0
    for trial in range(trials):
        target.write_text(MANY)
        process = subprocess.Popen(
            [*JAXLINT, "check", "--cache-dir", str(cache), "-j", "1", "--output-format", "json", str(tree)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(random.uniform(0.2, 2.0))
        target.write_text(BUGGY + f"# trial {trial}\n")  # one finding where there were 1,200
        process.wait(timeout=BOUND_S)
        cached = jaxlint("check", "--cache-dir", str(cache), "--output-format", "json", str(target))
        fresh = jaxlint("check", "--no-cache", "--output-format", "json", str(target))
        stale += cached.out != fresh.out
    return stale == 0, f"{trials} edits during a cached run: {stale} later runs served the other version"


# --- caches --------------------------------------------------------------------------------------


def corrupt_cache_entries(work: Path) -> tuple[bool, str]:
    (work / "model.py").write_text(BUGGY)
    cache = work / "cache"
    first = jaxlint("check", "--cache-dir", str(cache), "--output-format", "json", str(work / "model.py"))
    entries = ['{"diagnostics": 1}', "[" * 100000, '{"diagnostics": [1e400]}', "", "\x00\xff", "null"]
    for entry in entries:
        for stored in cache.rglob("*.json"):
            stored.write_text(entry, errors="surrogateescape")
        again = jaxlint("check", "--cache-dir", str(cache), "--output-format", "json", str(work / "model.py"))
        held, detail = clean(again)
        if not held or again.out != first.out:
            return False, f"entry {entry[:20]!r}: {detail if not held else 'other findings'}"
    return True, f"{len(entries)} kinds of corrupt entry: each a miss"


def unusable_cache_folder(work: Path) -> tuple[bool, str]:
    (work / "model.py").write_text(BUGGY)
    (work / "cache").write_text("a file, not a folder")
    return clean(jaxlint("check", "--cache-dir", str(work / "cache"), str(work / "model.py")))


# --- configurations ------------------------------------------------------------------------------


def hostile_configurations(work: Path) -> tuple[bool, str]:
    (work / "model.py").write_text(BUGGY)
    cases = {
        b"# caf\xe9\n[tool.jaxlint]\nselect = ['JAX1']\n": "not UTF-8",
        b"[tool.jaxlint]\nselect = " + b"[" * 5000 + b"]" * 5000 + b"\n": "nested",
        b"[tool.jaxlint]\nselect = 5\n": "select",
        b"[tool.jaxlint\nselect = 1\n": "TOML",
        b"[tool.jaxlint]\nselct = ['JAX1']\n": "selct",
    }
    for text, needle in cases.items():
        (work / "pyproject.toml").write_bytes(text)
        held, detail = one_line_error(jaxlint("check", str(work / "model.py")), needle)
        if not held:
            return False, f"{text[:30]!r}: {detail}"
    (work / "pyproject.toml").write_text('tool = "x"\n')
    held, detail = clean(jaxlint("check", str(work / "model.py")))
    return held, f"{len(cases)} broken files: one line and exit 2 each; `tool` as a string: defaults"


def every_spelling_of_the_table(work: Path) -> tuple[bool, str]:
    (work / "model.py").write_text(BUGGY)
    spellings = [
        "[tool.jaxlint]\nignore = ['JAX101']\n",
        "[ tool.jaxlint ]\nignore = ['JAX101']\n",
        '["tool".jaxlint]\nignore = ["JAX101"]\n',
        "[tool]\njaxlint.ignore = ['JAX101']\n",
        "tool = { jaxlint = { ignore = ['JAX101'] } }\n",
    ]
    for text in spellings:
        (work / "pyproject.toml").write_text(text)
        run = jaxlint("check", str(work / "model.py"))
        if run.code != 0:
            return False, f"{text.splitlines()[0]!r} was not applied"
    return True, f"{len(spellings)} spellings, each applied"


# --- LSP -----------------------------------------------------------------------------------------


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def lsp_misbehaving_client(work: Path) -> tuple[bool, str]:
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    stream = (
        _frame(initialize)
        + b"Content-Length: abc\r\n\r\n{garbage}"
        + b"Content-Length: 99999999999\r\n\r\n"
        + _frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"bogus": 1}})
        + b"Content-Length: 5\r\n\r\n[1,2]"
        + b"Content-Length: 1\r\n\r\n7"
        + _frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
        + _frame({"jsonrpc": "2.0", "method": "exit"})
    )
    run = jaxlint("server", stdin=stream, cwd=work)
    if run.code is None:
        return False, "the server hung"
    answered = run.out.count('"id": 2') + run.out.count('"id":2')
    shut = '"id": 3' in run.out or '"id":3' in run.out
    invalid = run.out.count("-32600")
    held = run.code == 0 and answered >= 1 and invalid == 2 and shut and "Traceback" not in run.err
    return held, (
        f"exit {run.code}; invalid params answered: {bool(answered)}; not-a-request answered: {invalid} of 2;"
        f" shutdown answered: {shut}; traceback in the log: {'Traceback' in run.err}"
    )


def lsp_exit_whatever_came_before(work: Path) -> tuple[bool, str]:
    stream = b"Content-Length: 12\r\n\r\nnot json!!!!" + _frame({"jsonrpc": "2.0", "method": "exit"})
    run = jaxlint("server", stdin=stream, cwd=work)
    return run.code is not None, f"exit {run.code} in {run.seconds:.1f} s"


# --- --verify ------------------------------------------------------------------------------------

MISBEHAVING = """\
import subprocess, sys


def start_a_daemon(x: float):
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
    return x


def hang(x: float):
    start_a_daemon(x)
    while True:
        pass


def grow(x: float):
    hoard = []
    while True:
        hoard.append(b"x" * 50 * 2**20)
"""


def verify_misbehaving_code(work: Path) -> tuple[bool, str]:
    if not _jax_importable():
        return False, "JAX is not installed: not tried"
    (work / "model.py").write_text(MISBEHAVING)
    scratch = work / "tmp"
    scratch.mkdir()
    env = {"TMPDIR": str(scratch)}
    daemon = jaxlint("verify", "model.py::start_a_daemon", cwd=work, env=env)
    hung = jaxlint("verify", "model.py::hang", "--timeout", "5", cwd=work, env=env)
    grown = jaxlint(
        "verify", "model.py::grow", "--memory-limit", "1500", "--timeout", "60", cwd=work, env=env
    )
    problems = []
    if daemon.code != 0 or daemon.seconds > 60:
        problems.append(f"a background process held the run ({daemon.seconds:.0f} s, exit {daemon.code})")
    if "did not finish within 5 s" not in hung.out or hung.seconds > 60:
        problems.append("the timeout did not hold")
    if "memory limit" not in grown.out:
        problems.append("the memory limit did not hold")
    if list(scratch.iterdir()):
        problems.append("temporary folders left behind")
    if problems:
        return False, "; ".join(problems)
    return (
        True,
        f"daemon: {daemon.seconds:.0f} s, hang: {hung.seconds:.0f} s, memory: {grown.seconds:.0f} s; no files left",
    )


def _jax_importable() -> bool:
    found = subprocess.run([sys.executable, "-c", "import jax"], capture_output=True, check=False)
    return found.returncode == 0


def verify_usage_errors(work: Path) -> tuple[bool, str]:
    (work / "model.py").write_text(MISBEHAVING)
    for args in (["nowhere.py::f"], ["model.py"], ["model.py::grow", "--timeout", "0"]):
        held, detail = one_line_error(jaxlint("verify", *args, cwd=work))
        if not held:
            return False, f"{args}: {detail}"
    return True, "one line and exit 2 each"


# --- the table -----------------------------------------------------------------------------------


def attacks(kills: int, races: int) -> list[tuple[str, str, str, Callable[[Path], tuple[bool, str]]]]:
    return [
        ("files", "a FIFO named a.py, in a folder and named", "never hang", fifo_in_the_tree),
        ("files", "binary data and NUL bytes in a .py", "one finding, no traceback", binary_and_null_bytes),
        ("files", "a file name that is not UTF-8, SARIF output", "no traceback", undecodable_name_in_sarif),
        (
            "files",
            "PYTHONIOENCODING=ascii, a non-ASCII path",
            "no traceback",
            terminal_that_cannot_show_the_path,
        ),
        ("files", "symbolic link loops", "never hang", symlink_loop),
        (
            "files",
            "a 2,992-term expression in traced code",
            "analysed, not skipped",
            deep_expression_in_traced_code,
        ),
        ("files", "a 20 MB file", "finishes, no traceback", twenty_megabytes),
        (
            "files",
            "notebooks of the wrong shape",
            "JAX001, not an internal error",
            notebook_of_the_wrong_shape,
        ),
        ("files", "module code that writes a file", "check never runs user code", user_code_never_runs),
        (
            "kills",
            f"{kills} SIGKILLs during --fix -j 2",
            "every file original or fully fixed",
            lambda work: killed_fix_leaves_files_whole(work, kills),
        ),
        (
            "kills",
            "SIGKILL of jaxlint -j 2",
            "no orphaned worker",
            lambda w: workers_die_with_jaxlint(w, signal.SIGKILL),
        ),
        (
            "kills",
            "SIGTERM of jaxlint -j 2",
            "no orphaned worker",
            lambda w: workers_die_with_jaxlint(w, signal.SIGTERM),
        ),
        (
            "kills",
            "SIGKILLs during cache writes",
            "no temporary file left",
            lambda work: killed_cache_writes_leave_nothing(work, max(3, kills // 4)),
        ),
        (
            "races",
            "the user saves during --fix",
            "the edit is kept",
            lambda work: edit_during_fix(work, races),
        ),
        (
            "races",
            "a symlink swapped in during --fix",
            "never written through",
            lambda work: symlink_swapped_in_during_fix(work, races),
        ),
        (
            "races",
            "the file changes during a cached run",
            "no stale findings later",
            lambda work: file_changed_during_a_cached_run(work, max(3, races // 2)),
        ),
        (
            "caches",
            "corrupt, deep, 1e400, empty, binary entries",
            "a miss, same findings",
            corrupt_cache_entries,
        ),
        ("caches", "the cache folder is a file", "checked anyway", unusable_cache_folder),
        (
            "configs",
            "pyproject not UTF-8, too deep, wrong types, bad TOML",
            "one line, exit 2",
            hostile_configurations,
        ),
        (
            "configs",
            "every TOML spelling of [tool.jaxlint]",
            "applied, never ignored",
            every_spelling_of_the_table,
        ),
        (
            "LSP",
            "malformed and huge Content-Length, invalid params, JSON that is no request",
            "answers, shuts down",
            lsp_misbehaving_client,
        ),
        ("LSP", "garbage, then exit", "exits", lsp_exit_whatever_came_before),
        ("--verify", "a daemon, a hang, growing memory", "bounded, nothing left", verify_misbehaving_code),
        ("--verify", "bad targets and options", "one line, exit 2", verify_usage_errors),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=40, help="SIGKILLs during --fix (default 40)")
    parser.add_argument("--races", type=int, default=20, help="trials of each race (default 20)")
    parser.add_argument("--only", nargs="+", metavar="AREA", help="only these areas (files, kills, ...)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    outcomes = []
    for area, attack, promise, run in attacks(args.kills, args.races):
        if args.only and area not in args.only:
            continue
        with tempfile.TemporaryDirectory(prefix="jaxlint-attack-") as folder:
            work = Path(folder) / "work"
            work.mkdir()
            start = time.monotonic()
            try:
                held, detail = run(work)
            except Exception as error:  # the attack itself failed: say so, never count it as held
                held, detail = False, f"the attack failed: {type(error).__name__}: {error}"
            outcomes.append(Outcome(area, attack, promise, held, detail))
            print(
                f"{'held' if held else 'BROKEN':6} {area:8} {attack} ({time.monotonic() - start:.0f} s)",
                file=sys.stderr,
            )
    table = render(outcomes)
    print(table)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "attack.md").write_text(table)
    return 0 if all(outcome.held for outcome in outcomes) else 1


def render(outcomes: list[Outcome]) -> str:
    rows = ["| area | attack | promise | held | what happened |", "| --- | --- | --- | --- | --- |"]
    for o in outcomes:
        rows.append(f"| {o.area} | {o.attack} | {o.promise} | {'yes' if o.held else '**no**'} | {o.detail} |")
    broken = sum(not o.held for o in outcomes)
    rows.append("")
    rows.append(f"{len(outcomes) - broken} of {len(outcomes)} promises held.")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    sys.exit(main())
