"""Run ``jaxlint_runtime.verify`` on every case of a labelled corpus and measure agreement.

Usage: python tools/verify_corpus.py [--json OUT.json] [--timeout SECONDS] CASES_DIR_OR_FILE...

A case file starts with ``# jaxlint-case: bug|clean`` and ``# category: ...`` and defines
``jaxlint_case_inputs() -> (func, args, kwargs)``. Each case runs in its own process. A bug case
agrees when ``verify`` flags it (a mismatch, or any finding, warnings included); a clean case
agrees when ``verify`` reports a match with no finding at all. For flagged bug cases the script
also checks that the rule ``verify`` names belongs to the case's family (purity -> JAX1xx, ...).
The case's own ``jaxlint_case_check()`` hook is not used: only ``verify`` decides.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HEADER = re.compile(r"^#\s*(jaxlint-case|category)\s*:\s*(\S+)", re.MULTILINE)
FAMILIES = {"purity": "JAX1", "inplace": "JAX2", "prng": "JAX3", "shapes": "JAX4", "control-flow": "JAX5"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--json", help="write per-case results here")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per case")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(verify_case(args.one)))
        return 0
    cases = discover(args.paths)
    if not cases:
        parser.error("no case files found")
    results = [run_case(path, args.timeout) for path in cases]
    summarise(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0 if all(result["agrees"] for result in results) else 1


def discover(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        candidates = sorted(path.glob("*.py")) if path.is_dir() else [path]
        found.extend(
            p for p in candidates if p.is_file() and "# jaxlint-case:" in p.read_text(encoding="utf-8")[:400]
        )
    return found


def run_case(path: Path, timeout: float) -> dict[str, Any]:
    header = dict(HEADER.findall(path.read_text(encoding="utf-8")))
    result: dict[str, Any] = {
        "name": path.name,
        "kind": header.get("jaxlint-case"),
        "category": header.get("category"),
    }
    try:
        process = subprocess.run(
            [sys.executable, __file__, "--one", str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        outcome = json.loads(process.stdout.strip().splitlines()[-1])
    except subprocess.TimeoutExpired:
        outcome = {"flagged": True, "clean": False, "rules": [], "why": f"timed out after {timeout:g} s"}
    except (ValueError, IndexError):
        outcome = {
            "flagged": False,
            "clean": False,
            "rules": [],
            "why": "verifier crashed: " + tail(process.stderr),
        }
    result.update(outcome)
    result["agrees"] = outcome["flagged"] if result["kind"] == "bug" else outcome["clean"]
    family = FAMILIES.get(result["category"] or "")
    result["rule_family_agrees"] = bool(family and any(rule.startswith(family) for rule in outcome["rules"]))
    verdict = "AGREE   " if result["agrees"] else "DISAGREE"
    print(
        f"{verdict} {result['kind']:<5} {result['category']:<12} {path.name:<46} {result['why']}", flush=True
    )
    return result


def verify_case(path: str) -> dict[str, Any]:
    """In a fresh process: import the case, verify its function, summarise the report."""
    import importlib.util
    import warnings

    warnings.filterwarnings("ignore")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    from jaxlint_runtime import verify

    spec = importlib.util.spec_from_file_location(f"corpus_case_{Path(path).stem.replace('-', '_')}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    function, args, kwargs = module.jaxlint_case_inputs()
    report = verify(function, *args, **dict(kwargs or {}))
    reasons = [f"{f.rule or '-'} {f.kind}" for f in report.findings]
    if report.mismatches:
        reasons.insert(0, f"mismatch at {report.mismatches[0].path}")
    return {
        "flagged": bool(report.findings) or report.matched is not True,
        "clean": report.ok and not report.findings,
        "rules": [f.rule for f in report.findings if f.rule],
        "why": "; ".join(reasons) or "eager == compiled, no finding",
    }


def tail(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def summarise(results: list[dict[str, Any]]) -> None:
    counts: Counter[tuple[str, str, bool]] = Counter((r["category"], r["kind"], r["agrees"]) for r in results)
    print(f"\n{'category':<14}{'bug agree/total':>17}{'clean agree/total':>19}")
    for category in sorted({r["category"] for r in results}):
        cells = []
        for kind in ("bug", "clean"):
            total = counts[(category, kind, True)] + counts[(category, kind, False)]
            cells.append(f"{counts[(category, kind, True)]}/{total}")
        print(f"{category:<14}{cells[0]:>17}{cells[1]:>19}")
    bugs = [r for r in results if r["kind"] == "bug"]
    clean = [r for r in results if r["kind"] == "clean"]
    flagged = [r for r in bugs if r["agrees"] and r["category"] in FAMILIES]
    print(
        f"SUMMARY: {len(results)} cases, {sum(r['agrees'] for r in results)} agree "
        f"(bug {sum(r['agrees'] for r in bugs)}/{len(bugs)}, clean {sum(r['agrees'] for r in clean)}/{len(clean)}); "
        f"rule family right for {sum(r['rule_family_agrees'] for r in flagged)}/{len(flagged)} flagged bug cases "
        "with a jaxlint family"
    )


if __name__ == "__main__":
    sys.exit(main())
