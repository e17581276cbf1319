"""Differential benchmark: jaxlint's verdicts against JAX's, on generated programs.

Usage: python bench/differential.py [--count N] [--seed S] [--fix [--safe-only] [--fix-report FILE]] [--jobs J] [--workers W]

Draws N programs (default 5,000) with seed S from the ground-truth universe
(``tests/groundtruth/generator.py``: hazards x tracing contexts x value flows, each with its near
miss), runs jaxlint once over all of them (``jaxlint check --output-format json``), and holds its
findings against JAX's stored verdicts (``tests/groundtruth/verdicts.json``; no JAX needed). It
prints recall and precision per family, tracing context, value flow and hazard form, the worst
cells, and a last line ``differential: programs=N hazards=H recall=R precision=P``.

``--fix`` (needs JAX) also copies every hazard program whose rule has a fix, applies
``jaxlint check --fix --unsafe-fixes`` and asks JAX whether each fixed program is now correct:
it must run cleanly under jit with no hazard left (the oracle's verdict on it is *clean*), and
for hazards that raise, its output must match the original's eager output. It prints
``fix_ok=F/T``; with ``--safe-only``, only the safe fixes are applied (``--fix`` alone) and it
prints ``safe_fix_ok=F/T``; ``--fix-report FILE`` writes each program's outcome, its reason and the fixed
files as JSON, to read what the fixes got wrong.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.groundtruth import agreement, known, verdicts  # noqa: E402
from tests.groundtruth.generator import Program, sample, universe, write  # noqa: E402


def fixable_rules() -> set[str]:
    """Rules whose fix availability is not "none", from ``jaxlint rule --all``."""
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "rule", "--all", "--output-format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(proc.stdout)
    rules = data if isinstance(data, list) else data.get("rules", [])
    out = set()
    for rule in rules:
        availability = str(rule.get("fix_availability") or rule.get("fix") or "none").lower()
        if availability not in ("none", "never"):
            out.add(rule["code"])
    return out


def run_fix(
    programs: list[Program],
    stored: dict[str, dict],
    reported: set[str],
    workers: int,
    jobs: int | None,
    report: Path | None = None,
    unsafe: bool = True,
) -> tuple[int, int, Counter, set[str]]:
    from tests.groundtruth.oracle import judge_fixes

    fixable = fixable_rules()
    targets = [
        p
        for p in programs
        if stored.get(p.id, {}).get("verdict") == "hazard"
        and set(p.rules) & fixable
        and stored[p.id].get("digest") == p.digest
    ]
    root = Path(tempfile.mkdtemp(prefix="groundtruth-fix-"))
    try:
        write(targets, str(root))
        flags = ["--fix", "--unsafe-fixes"] if unsafe else ["--fix"]
        cmd = agreement.lint_command(*flags, "--exit-zero", "-q")
        if jobs:
            cmd += ["--jobs", str(jobs)]
        subprocess.run([*cmd, str(root)], capture_output=True, text=True, cwd=root)
        fixed: dict[str, tuple[tuple[str, str], ...]] = {}
        for p in targets:
            files = tuple((name, (root / name).read_text()) for name, _ in p.files)
            if files != p.files:
                fixed[p.id] = files
    finally:
        shutil.rmtree(root, ignore_errors=True)
    results = judge_fixes([p for p in targets if p.id in fixed], fixed, stored, workers=workers)
    why: Counter = Counter()
    ok = 0
    rows = []
    for p in targets:
        if p.id not in fixed:
            reason = (
                "reported, but --fix changed nothing"
                if p.id in reported
                else "not reported (a miss): nothing to fix"
            )
        else:
            record = results.get(p.id, {})
            reason = "" if record.get("fix_ok") else record.get("why", "no result")
        ok += not reason
        if reason:
            why[reason] += 1
        rows.append({"id": p.id, "rules": list(p.rules), "why": reason, "fixed": dict(fixed.get(p.id, ()))})
    if report is not None:
        report.write_text(json.dumps(rows, indent=1))
    return ok, len(targets), why, {row["id"] for row in rows if row["why"]}


def deliberate_ids(judged: list[agreement.Outcome]) -> set[str]:
    """The programs whose miss is a silence by design (see :func:`deliberate_line`)."""
    return {
        o.program.id
        for o in judged
        if o.kind == "miss" and known.propose("miss", o).startswith("deliberate:")
    }


def deliberate_line(judged: list[agreement.Outcome]) -> str:
    """How many misses are silences by design (a print or store of static values, the trace-time
    idiom: see ``tests/groundtruth/known.py``), and the recall on the other hazards."""
    by_design = [o for o in judged if o.kind == "miss" and known.propose("miss", o).startswith("deliberate:")]
    total = agreement.totals(judged)
    hazards = total.tp + total.fn - len(by_design)
    recall = total.tp / hazards if hazards else 1.0
    return (
        f"by design: {len(by_design)} misses are deliberate silences (static values printed or stored "
        f"while tracing); recall on the other {hazards} hazards: {100 * recall:.1f}%"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fix", action="store_true", help="also check the fixes with JAX (needs jax)")
    parser.add_argument("--jobs", type=int, help="jaxlint worker processes (default: all cores)")
    parser.add_argument("--workers", type=int, default=2, help="JAX processes for --fix (default 2)")
    parser.add_argument(
        "--safe-only", action="store_true", help="with --fix: apply the safe fixes alone (no --unsafe-fixes)"
    )
    parser.add_argument("--list", action="store_true", help="list every disagreement")
    parser.add_argument(
        "--fix-report",
        type=Path,
        metavar="FILE",
        help="with --fix: each program's outcome and fixed files, as JSON",
    )
    args = parser.parse_args(argv)

    start = time.monotonic()
    everything = universe()
    programs = sample(everything, args.count, args.seed)
    data = verdicts.load()
    stored = data.get("programs", {})
    findings = agreement.lint(programs, jobs=args.jobs)
    lint_s = time.monotonic() - start
    judged, dropped = agreement.outcomes(programs, stored, findings)
    outdated = len(verdicts.stale(programs, data))
    print(
        f"{len(programs)} programs of {len(everything)} (seed {args.seed}); verdicts of JAX {data.get('jax', '?')}"
        + (
            f"; {outdated} without a current stored verdict (run python -m tests.groundtruth.verdicts --only-stale)"
            if outdated
            else ""
        )
    )
    print(f"jaxlint checked them in {lint_s:.1f} s")
    if args.list:
        for (kind, pid), o in sorted(agreement.disagreements(judged).items()):
            print(f"  {kind:<11} {pid:<60} jaxlint: {' '.join(o.codes) or '-'}")
    lines = agreement.report(judged, dropped, len(programs))
    lines.insert(-1, deliberate_line(judged))
    if args.fix:
        fix_start = time.monotonic()
        reported = {o.program.id for o in judged if o.jax == "hazard" and o.jaxlint}
        unsafe = not args.safe_only
        ok, total, why, failed = run_fix(
            programs, stored, reported, args.workers, args.jobs, args.fix_report, unsafe
        )
        lines.insert(-1, "")
        lines.insert(
            -1,
            f"== fixes ({time.monotonic() - fix_start:.0f} s): {ok} of {total} hazard programs with a fixable rule "
            f"are correct after --fix{' --unsafe-fixes' if unsafe else ' (safe fixes alone)'}",
        )
        for reason, n in why.most_common():
            lines.insert(-1, f"  {n:>5}  {reason}")
        silent = failed & deliberate_ids(judged)
        if silent:
            lines.insert(
                -1,
                f"  ({len(silent)} of those are deliberate silences; without them: {ok}/{total - len(silent)})",
            )
        lines.insert(-1, f"{'fix_ok' if unsafe else 'safe_fix_ok'}={ok}/{total}")
    print("\n".join(lines))
    print(f"(total {time.monotonic() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
