"""Sweep real code for crashes and broken fixes: the pinned corpus and the standard library.

Usage: python bench/sweep.py [--corpus DIR] [--targets corpus stdlib] [--pretend-traced] [--jobs N]

For each target, on a copy in a temporary folder, the real CLI runs ``check`` (JSON), then
``check --fix --unsafe-fixes`` twice: every changed file must still parse, and the second fix must
change nothing. Meta diagnostics are counted: JAX002 (an internal error) is a crash; JAX000/JAX001
on a file that Python itself cannot parse or decode (test data such as ``badsyntax_*.py``) is
expected, anywhere else it is a bug.

``--pretend-traced`` adds a stress sweep in-process, with every function of every file jitted
(:func:`jaxlint.semantic.cross_module.trace_everything`), so that every rule and fixer meets code that
was never written for JAX: each crash is reported with its file and traceback, and each fixed
file must parse and be a fixed point. Results go to bench/results/sweep.{md,json}.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import traceback
import warnings
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import BIN, RESULTS, count_lines, materialise_corpus

META = ("JAX000", "JAX001", "JAX002")
TEXT_DIAGNOSTIC = re.compile(r"^(?P<path>.+?):(?:cell \d+:)?\d+:\d+: (?P<code>JAX\d{3}) (?P<message>.*)$")
FIX_SUMMARY = re.compile(r"(?P<files>\d+) files? checked(?: \((?P<fixed>\d+) fixed)?")
SKIPPED_FOLDERS = frozenset({"site-packages", "__pycache__", "wheels"})


@dataclass
class Crash:
    path: str
    stage: str
    detail: str


@dataclass
class Row:
    """What one sweep of one target found."""

    target: str
    mode: str
    files: int = 0
    lines: int = 0
    checked: int = 0  # files the CLI checked (its default excludes skip a few, e.g. `venv/`)
    codes: Counter[str] = field(default_factory=Counter)
    crashes: list[Crash] = field(default_factory=list)
    unexpected_meta: list[str] = field(default_factory=list)  # JAX000/JAX001 on code Python reads
    expected_meta: int = 0  # JAX000/JAX001 on files Python cannot parse or decode either
    fixed_files: int = 0
    fixes_applied: int = 0
    unparsable_fixes: list[str] = field(default_factory=list)
    refixed: list[str] = field(default_factory=list)  # files a second fix changed
    fix_problems: list[str] = field(default_factory=list)  # fixes rolled back or discarded
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not (self.crashes or self.unexpected_meta or self.unparsable_fixes or self.refixed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="folder of Python sources (default: the pinned corpus)")
    parser.add_argument("--targets", nargs="+", choices=("corpus", "stdlib"), default=["corpus", "stdlib"])
    parser.add_argument("--pretend-traced", action="store_true", help="also sweep with every function jitted")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args(argv)
    targets = {
        "corpus": lambda: args.corpus or materialise_corpus(),
        "stdlib": lambda: Path(sysconfig.get_paths()["stdlib"]),
    }
    rows: list[Row] = []
    for name in args.targets:
        root = targets[name]()
        files = python_files(root)
        print(f"{name}: {root} ({len(files)} files)", flush=True)
        rows.append(sweep_cli(name, root, files, args.jobs))
        print(summary_line(rows[-1]), flush=True)
        if args.pretend_traced:
            rows.append(sweep_traced(name, files, args.jobs))
            print(summary_line(rows[-1]), flush=True)
    write_report(rows)
    print((RESULTS / "sweep.md").read_text(encoding="utf-8"))
    return 0 if all(row.clean for row in rows) else 1


def python_files(root: Path) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*.py")
        if path.is_file() and not SKIPPED_FOLDERS.intersection(path.relative_to(root).parts)
    )


# ---------------------------------------------------------------------------- the real CLI


def sweep_cli(name: str, root: Path, files: list[Path], jobs: int) -> Row:
    """check, then --fix --unsafe-fixes twice, with the real CLI on a copy of ``files``."""
    row = Row(name, "cli", len(files), sum(count_lines(p) for p in files))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / name
        for path in files:
            target = copy / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        for diagnostic in json.loads(jaxlint(copy, jobs, "--output-format", "json").stdout):
            row.codes[diagnostic["code"]] += 1
            record_meta(row, diagnostic["code"], diagnostic["filename"], diagnostic["message"], copy)
        before = digests(copy)
        row.fixes_applied, row.checked = fix(row, copy, jobs, "fix")
        fixed = digests(copy)
        changed = [path for path, digest in fixed.items() if before.get(path) != digest]
        row.fixed_files = len(changed)
        row.unparsable_fixes = [str(Path(p).relative_to(copy)) for p in changed if not parses_file(p)]
        fix(row, copy, jobs, "second fix")
        row.refixed = [str(Path(p).relative_to(copy)) for p, d in digests(copy).items() if fixed.get(p) != d]
    row.seconds = time.perf_counter() - start
    return row


def jaxlint(folder: Path, jobs: int, *options: str) -> subprocess.CompletedProcess[str]:
    command = [str(BIN / "jaxlint"), "check", "--no-cache", "--isolated", "--exit-zero", "--jobs", str(jobs)]
    result = subprocess.run([*command, *options, str(folder)], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"sweep: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    return result


def fix(row: Row, copy: Path, jobs: int, stage: str) -> tuple[int, int]:
    """Run ``--fix --unsafe-fixes``, recording its crashes and problems; how many fixes it applied
    in how many files checked."""
    result = jaxlint(copy, jobs, "--fix", "--unsafe-fixes")
    for line in result.stdout.splitlines():
        found = TEXT_DIAGNOSTIC.match(line)
        if found and found["code"] == "JAX002":
            record_meta(row, found["code"], found["path"], found["message"], copy, stage)
    row.fix_problems += [line for line in result.stderr.splitlines() if line.startswith("jaxlint: warning")]
    summary = FIX_SUMMARY.search(result.stdout)
    return (int(summary["fixed"] or 0), int(summary["files"])) if summary else (0, 0)


def record_meta(row: Row, code: str, filename: str, message: str, copy: Path, stage: str = "check") -> None:
    if code not in META:
        return
    where = str(Path(filename).relative_to(copy))
    if code == "JAX002":
        row.crashes.append(Crash(where, stage, message))
    elif parses_file(filename):
        row.unexpected_meta.append(f"{where}: {code} {message}")
    else:
        row.expected_meta += 1


def digests(folder: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*.py"))}


def parses_file(path: str | Path) -> bool:
    """Whether Python itself reads and parses the file (its encoding declaration honoured)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(Path(path).read_bytes())
    except (SyntaxError, ValueError, RecursionError, MemoryError, OSError):
        return False
    return True


# ---------------------------------------------------------------------------- every function traced


@dataclass
class FileSweep:
    lines: int
    codes: Counter[str] = field(default_factory=Counter)
    crash: Crash | None = None
    fixed: bool = False
    applied: int = 0
    parses: bool = True
    refixed: bool = False
    problems: list[str] = field(default_factory=list)


def sweep_traced(name: str, files: list[Path], jobs: int) -> Row:
    """Check and fix every file in-process with every function jitted (nothing is written)."""
    row = Row(name, "every function traced", len(files))
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs, initializer=raise_internal_errors) as pool:
        for path, result in zip(files, pool.map(sweep_file, files, chunksize=8), strict=True):
            row.lines += result.lines
            row.codes.update(result.codes)
            if result.crash is not None:
                row.crashes.append(result.crash)
            row.fixed_files += result.fixed
            row.fixes_applied += result.applied
            if not result.parses:
                row.unparsable_fixes.append(str(path))
            if result.refixed:
                row.refixed.append(str(path))
            row.fix_problems += result.problems
    row.expected_meta = row.codes["JAX000"] + row.codes["JAX001"]
    row.seconds = time.perf_counter() - start
    return row


def raise_internal_errors() -> None:
    """In a worker: a crash in a rule or the model raises, with its traceback (no JAX002)."""
    os.environ["JAXLINT_RAISE_INTERNAL_ERRORS"] = "1"


def sweep_file(path: Path) -> FileSweep:
    from jaxlint.engine.astutil import parses
    from jaxlint.engine.linter import RuleSet, analyze
    from jaxlint.engine.registry import rule_codes
    from jaxlint.fixing.applier import fix_source
    from jaxlint.project.files import read_source
    from jaxlint.semantic.cross_module import module_name, trace_everything

    rules = RuleSet.from_codes(rule_codes())
    result = FileSweep(count_lines(path))
    source = read_source(str(path)).text
    if source is None:
        result.codes["JAX001"] += 1
        return result
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        result.codes["JAX000"] += 1
        return result
    view = trace_everything(tree, module_name(str(path))[0])
    stage = "check"
    try:
        result.codes.update(d.code for d in analyze(source, str(path), rules, project=view).diagnostics)
        stage = "fix"
        fixed = fix_source(source, str(path), rules, unsafe=True, project=view)
        result.fixed, result.applied = fixed.changed, sum(fixed.applied.values())
        result.problems = fixed.problems
        result.parses = not fixed.changed or parses(fixed.fixed)
        if fixed.changed and result.parses:
            stage = "second fix"
            result.refixed = fix_source(fixed.fixed, str(path), rules, unsafe=True, project=view).changed
    except Exception:
        result.crash = Crash(str(path), stage, traceback.format_exc())
    return result


# ---------------------------------------------------------------------------- report


def summary_line(row: Row) -> str:
    return (
        f"  {row.mode}: {row.files} files, {row.lines:,} lines, {len(row.crashes)} crashes, "
        f"{row.fixed_files} fixed, {len(row.unparsable_fixes)} unparsable, {len(row.refixed)} re-fixed, "
        f"{row.seconds:.0f} s"
    )


def write_report(rows: list[Row]) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    data = [{**asdict(row), "codes": dict(sorted(row.codes.items())), "clean": row.clean} for row in rows]
    (RESULTS / "sweep.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    out = [
        "| target | mode | files | checked | lines | crashes | JAX000/1 unexpected | JAX000/1 expected "
        "| fixed files | fixes | unparsable fixes | changed by a 2nd fix | rolled back | wall s |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        out.append(
            f"| {row.target} | {row.mode} | {row.files:,} | {row.checked or row.files:,} | {row.lines:,} | {len(row.crashes)} "
            f"| {len(row.unexpected_meta)} | {row.expected_meta} | {row.fixed_files} | {row.fixes_applied} "
            f"| {len(row.unparsable_fixes)} | {len(row.refixed)} | {len(row.fix_problems)} | {row.seconds:.0f} |"
        )
    out.append("")
    for row in rows:
        codes = ", ".join(f"{code} {count}" for code, count in sorted(row.codes.items())) or "none"
        out.append(f"Diagnostics, {row.target} ({row.mode}): {codes}.")
    for row in rows:
        findings = [
            *(f"crash ({c.stage}) in {c.path}:\n\n```\n{c.detail.rstrip()}\n```" for c in row.crashes),
            *(f"unexpected meta diagnostic: {m}" for m in row.unexpected_meta),
            *(f"fixed output does not parse: {p}" for p in row.unparsable_fixes),
            *(f"a second fix changed: {p}" for p in row.refixed),
            *(f"fix rolled back: {p}" for p in row.fix_problems),
        ]
        if findings:
            out += ["", f"### {row.target} ({row.mode})", "", *(f"- {f}" for f in findings)]
    (RESULTS / "sweep.md").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
