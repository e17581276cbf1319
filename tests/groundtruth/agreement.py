"""Hold jaxlint's findings against JAX's verdicts. No JAX here: jaxlint runs through its CLI.

Per program: JAX says *hazard of family F* or *clean* (stored verdicts, see ``verdicts.py``);
jaxlint agrees on a hazard when it reports a code of family F on one of the program's marked
lines, and on a clean program when it reports nothing at all. So a hazard program gives a true
positive or a miss, a clean program a true negative or a false alarm. Dropped programs (JAX's
verdict was not clear) are counted and left out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.groundtruth.generator import Program, write

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ("JAX1", "JAX2", "JAX3", "JAX4", "JAX5", "JAX6")
FAMILY_NAMES = {
    "JAX1": "purity",
    "JAX2": "mutation",
    "JAX3": "PRNG",
    "JAX4": "shapes",
    "JAX5": "control flow",
    "JAX6": "compile",
}


@dataclass(frozen=True)
class Finding:
    code: str
    path: str  # relative to the folder checked
    row: int


def lint_command(*extra: str) -> list[str]:
    """The jaxlint command line this module relies on."""
    return [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--isolated", *extra]


def lint(programs: Iterable[Program], jobs: int | None = None) -> dict[str, list[Finding]]:
    """jaxlint's findings per program id: one CLI call over a temporary folder of all of them."""
    programs = list(programs)
    root = Path(tempfile.mkdtemp(prefix="groundtruth-lint-"))
    try:
        write(programs, str(root))
        return lint_folder(programs, root, jobs)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def lint_folder(programs: list[Program], root: Path, jobs: int | None = None) -> dict[str, list[Finding]]:
    extra = ["--output-format", "json", "--exit-zero"]
    if jobs:
        extra += ["--jobs", str(jobs)]
    proc = subprocess.run(lint_command(*extra, str(root)), capture_output=True, text=True, cwd=root)
    if proc.returncode != 0:
        raise RuntimeError(f"jaxlint failed ({proc.returncode}): {proc.stderr[-2000:]}")
    owner: dict[str, str] = {}
    for p in programs:
        for name, _ in p.files:
            owner[name] = p.id
    found: dict[str, list[Finding]] = {p.id: [] for p in programs}
    for item in json.loads(proc.stdout or "[]"):
        rel = os.path.relpath(item["filename"], root).replace(os.sep, "/")
        pid = owner.get(rel)
        if pid is not None:
            found[pid].append(Finding(item["code"], rel, int(item["location"]["row"])))
    return found


@dataclass(frozen=True)
class Outcome:
    program: Program
    jax: str  # hazard | clean
    family: str
    jaxlint: bool  # jaxlint's verdict: reports the family at the site (hazard) / anything (clean)
    codes: tuple[str, ...]  # what jaxlint reported, all lines

    @property
    def kind(self) -> str:
        if self.jax == "hazard":
            return "agree" if self.jaxlint else "miss"
        return "false-alarm" if self.jaxlint else "agree"


def outcomes(
    programs: Iterable[Program], verdicts: dict[str, dict[str, Any]], findings: dict[str, list[Finding]]
) -> tuple[list[Outcome], list[Program]]:
    """The outcome of every judged program, and the programs JAX's verdict left out."""
    judged, dropped = [], []
    for p in programs:
        v = verdicts.get(p.id)
        if v is None or v.get("digest") != p.digest or v["verdict"] not in ("hazard", "clean"):
            dropped.append(p)
            continue
        seen = findings.get(p.id, [])
        if v["verdict"] == "hazard":
            family = v["family"]
            hit = any(f.code.startswith(family) and f.path == p.path and _at_hazard(p, f.row) for f in seen)
        else:
            family = p.family
            hit = bool(seen)
        codes = tuple(sorted({f"{f.code}@{f.row}" for f in seen}))
        judged.append(Outcome(p, v["verdict"], family, hit, codes))
    return judged, dropped


@dataclass
class Cell:
    tp: int = 0
    fn: int = 0
    fp: int = 0
    tn: int = 0

    def add(self, o: Outcome) -> None:
        if o.jax == "hazard":
            if o.jaxlint:
                self.tp += 1
            else:
                self.fn += 1
        elif o.jaxlint:
            self.fp += 1
        else:
            self.tn += 1

    @property
    def n(self) -> int:
        return self.tp + self.fn + self.fp + self.tn

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def agreement(self) -> float:
        return (self.tp + self.tn) / self.n if self.n else 1.0


@dataclass
class Table:
    rows: dict[str, Cell] = field(default_factory=lambda: defaultdict(Cell))

    def add(self, key: str, o: Outcome) -> None:
        self.rows[key].add(o)


def tables(judged: list[Outcome]) -> dict[str, Table]:
    out = {
        name: Table() for name in ("family", "context", "flow", "hazard", "family x context", "family x flow")
    }
    for o in judged:
        p = o.program
        out["family"].add(o.family, o)
        out["context"].add(p.context, o)
        out["flow"].add(p.flow, o)
        out["hazard"].add(p.hazard, o)
        out["family x context"].add(f"{o.family} {p.context}", o)
        out["family x flow"].add(f"{o.family} {p.flow}", o)
    return out


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def format_table(title: str, table: Table, order: Iterable[str] | None = None) -> list[str]:
    keys = list(order) if order is not None else sorted(table.rows)
    lines = [
        f"{title:<28} {'n':>5} {'haz':>5} {'TP':>5} {'miss':>5} {'FA':>5} {'recall':>7} {'precis':>7} {'agree':>7}"
    ]
    for key in keys:
        c = table.rows.get(key)
        if c is None or not c.n:
            continue
        label = f"{key} {FAMILY_NAMES[key]}" if key in FAMILY_NAMES else key
        lines.append(
            f"{label:<28} {c.n:>5} {c.tp + c.fn:>5} {c.tp:>5} {c.fn:>5} {c.fp:>5} "
            f"{_pct(c.recall):>7} {_pct(c.precision):>7} {_pct(c.agreement):>7}"
        )
    return lines


def worst(table: Table, count: int = 15, minimum: int = 6) -> list[str]:
    cells = [(k, c) for k, c in table.rows.items() if c.n >= minimum]
    cells.sort(key=lambda kc: (kc[1].agreement, -(kc[1].fn + kc[1].fp)))
    return [k for k, _ in cells[:count]]


def totals(judged: list[Outcome]) -> Cell:
    total = Cell()
    for o in judged:
        total.add(o)
    return total


def disagreements(judged: list[Outcome]) -> dict[tuple[str, str], Outcome]:
    """(kind, program id) for every program where jaxlint and JAX disagree."""
    return {(o.kind, o.program.id): o for o in judged if o.kind != "agree"}


def report(judged: list[Outcome], dropped: list[Program], total_programs: int) -> list[str]:
    t = tables(judged)
    lines = ["", "== per family", *format_table("family", t["family"], FAMILIES)]
    lines += ["", "== per tracing context", *format_table("context", t["context"])]
    lines += ["", "== per value flow", *format_table("flow", t["flow"])]
    lines += ["", "== per hazard form", *format_table("hazard", t["hazard"])]
    lines += ["", "== worst cells (family x context, family x flow; at least 6 programs)"]
    lines += format_table("cell", t["family x context"], worst(t["family x context"]))
    lines += format_table("cell", t["family x flow"], worst(t["family x flow"], 10))
    reasons: dict[str, int] = defaultdict(int)
    for p in dropped:
        reasons[p.family] += 1
    total = totals(judged)
    hazards = total.tp + total.fn
    lines += [
        "",
        f"judged {len(judged)} of {total_programs} programs ({len(dropped)} dropped: JAX's verdict was not clear); "
        f"{hazards} hazards, {total.tn + total.fp} clean; {total.fn} misses, {total.fp} false alarms",
        f"differential: programs={total_programs} hazards={hazards} recall={_pct(total.recall).strip()} "
        f"precision={_pct(total.precision).strip()}",
    ]
    return lines


def _at_hazard(program: Program, row: int) -> bool:
    """Whether a finding on ``row`` is at the program's hazard. A near miss that JAX still judges a
    hazard has it somewhere other than the construct that replaced the intended one (a key
    handed back unsplit in a loop carry, say): a finding of the family anywhere in the file counts."""
    return program.near_miss or row in program.lines
