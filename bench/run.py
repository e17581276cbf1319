"""Benchmark jaxlint against flake8, pylint, ruff and the bare ``ast.parse`` floor, in one run.

Usage: python bench/run.py [--corpus DIR] [--repeat N] [--slow-repeat N] [--skip TOOL ...]

The corpus defaults to the pinned real-world sources of ../shared/bench (flax, optax, equinox,
chex, brax and jax itself), materialised into .corpus/ by ``corpus.sh``. Every tool runs as its
own process over the same files; each timing is the median of several runs, with the peak
memory of the process. Ratios are taken within this run: absolute times on shared machines
drift. Results go to bench/results/latest.{md,json}.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
SHARED_CORPUS_SCRIPT = ROOT.parent / "shared" / "bench" / "corpus.sh"
BIN = Path(sys.executable).parent

# Runs a command and prints its peak resident memory (KiB) on stderr's last line.
PEAK = (
    "import resource, subprocess, sys\n"
    "code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(code)\n"
)
PARSE_FLOOR = (
    "import ast, sys, warnings\n"
    "warnings.simplefilter('ignore')\n"
    "for path in open(sys.argv[1]).read().split('\\n'):\n"
    "    if path:\n"
    "        try:\n"
    "            ast.parse(open(path, 'rb').read())\n"
    "        except (SyntaxError, ValueError):\n"
    "            pass\n"
)


@dataclass
class Timing:
    tool: str
    command: str
    seconds: list[float] = field(default_factory=list)
    peak_mib: float = 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, help="folder of Python sources (default: the pinned corpus)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per fast tool")
    parser.add_argument("--slow-repeat", type=int, default=1, help="runs for flake8 and pylint")
    parser.add_argument("--skip", nargs="*", default=[], help="tools to leave out (e.g. pylint)")
    parser.add_argument("--lsp-edits", type=int, default=100, help="keystrokes in the editor latency test")
    args = parser.parse_args(argv)
    corpus = args.corpus or materialise_corpus()
    files = python_files(corpus)
    lines = sum(count_lines(f) for f in files)
    print(f"corpus: {corpus} ({len(files)} files, {lines} lines)", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        listing = Path(scratch) / "files.txt"
        listing.write_text("\n".join(str(f) for f in files), encoding="utf-8")
        timings = run_all(corpus, listing, Path(scratch), args)
    editor = measure_editor_latency(corpus, args.lsp_edits) if "lsp" not in args.skip else None
    report = build_report(corpus, files, lines, timings, editor)
    write_report(report)
    print((RESULTS / "latest.md").read_text(encoding="utf-8"))
    return 0


def materialise_corpus() -> Path:
    target = ROOT / ".corpus"
    if not SHARED_CORPUS_SCRIPT.exists():
        raise SystemExit(f"bench: no corpus given and {SHARED_CORPUS_SCRIPT} is missing (pass --corpus DIR)")
    subprocess.run(["bash", str(SHARED_CORPUS_SCRIPT), str(target)], check=True, stdout=subprocess.DEVNULL)
    return target


def python_files(corpus: Path) -> list[Path]:
    return sorted(p for p in corpus.rglob("*.py") if "wheels" not in p.parts and p.is_file())


def count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


def run_all(corpus: Path, listing: Path, scratch: Path, args: argparse.Namespace) -> list[Timing]:
    jaxlint = [str(BIN / "jaxlint"), "check", "--exit-zero", "-q"]
    cache = scratch / "cache"
    plans: list[tuple[str, list[str], int, str | None]] = [
        ("ast.parse floor", [sys.executable, "-c", PARSE_FLOOR, str(listing)], args.repeat, None),
        ("jaxlint cold, 1 process", [*jaxlint, "--no-cache", "--jobs", "1", str(corpus)], args.repeat, None),
        ("jaxlint cold, all cores", [*jaxlint, "--no-cache", str(corpus)], args.repeat, None),
        ("jaxlint warm cache", [*jaxlint, "--cache-dir", str(cache), str(corpus)], args.repeat, "warm"),
        (
            "jaxlint --fix (copy)",
            [*jaxlint, "--no-cache", "--fix", str(scratch / "copy")],
            args.repeat,
            "copy",
        ),
        (
            "ruff",
            [str(BIN / "ruff"), "check", "--no-cache", "--isolated", "--exit-zero", "-q", str(corpus)],
            args.repeat,
            None,
        ),
        (
            "flake8 -j1",
            [str(BIN / "flake8"), "-j1", "--exit-zero", "-q", str(corpus)],
            args.slow_repeat,
            None,
        ),
        (
            "pylint (errors, warnings)",
            [
                str(BIN / "pylint"),
                "--disable=all",
                "--enable=E,W",
                "--exit-zero",
                "--recursive=y",
                "-sn",
                str(corpus),
            ],
            args.slow_repeat,
            None,
        ),
    ]
    timings = []
    for tool, command, repeat, setup in plans:
        if tool.split()[0] in args.skip or tool in args.skip:
            continue
        if shutil.which(command[0]) is None and not Path(command[0]).exists():
            print(f"skipping {tool}: {command[0]} not found", flush=True)
            continue
        if setup == "warm":
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        timing = Timing(tool, " ".join(Path(c).name if i == 0 else c for i, c in enumerate(command)))
        for _ in range(max(1, repeat)):
            if setup == "copy":
                shutil.rmtree(scratch / "copy", ignore_errors=True)
                shutil.copytree(corpus, scratch / "copy", ignore=shutil.ignore_patterns("wheels"))
            seconds, peak = timed(command)
            timing.seconds.append(seconds)
            timing.peak_mib = max(timing.peak_mib, peak)
        print(
            f"{tool:<28} {timing.median:8.2f} s  (runs: {', '.join(f'{s:.2f}' for s in timing.seconds)})",
            flush=True,
        )
        timings.append(timing)
    return timings


def timed(command: list[str]) -> tuple[float, float]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", PEAK, *command], capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    peak_kib = int(result.stderr.strip().splitlines()[-1]) if result.stderr.strip() else 0
    return seconds, peak_kib / 1024


# ---------------------------------------------------------------------------- editor latency


def measure_editor_latency(corpus: Path, edits: int) -> dict[str, float] | None:
    """p50/p95 from a keystroke in a 2,000-line file to its new diagnostics, over the LSP."""
    sys.path.insert(0, str(ROOT / "bench"))
    from lsp_latency import measure

    source = two_thousand_lines(corpus)
    try:
        return measure([str(BIN / "jaxlint"), "server"], source, edits)
    except Exception as error:  # the benchmark reports what it could measure
        print(f"editor latency not measured: {error}", flush=True)
        return None


def two_thousand_lines(corpus: Path) -> str:
    """A real module of about 2,000 lines from the corpus (the closest one in size)."""
    candidates = [(abs(count_lines(p) - 2000), p) for p in python_files(corpus)]
    _, path = min(candidates)
    return path.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- report


def build_report(
    corpus: Path, files: list[Path], lines: int, timings: list[Timing], editor: dict[str, float] | None
) -> dict:
    by_tool = {t.tool: t for t in timings}
    floor = by_tool.get("ast.parse floor")
    flake8 = by_tool.get("flake8 -j1")
    rows = []
    for timing in timings:
        rows.append(
            {
                **asdict(timing),
                "median_s": timing.median,
                "lines_per_s": lines / timing.median,
                "speed_vs_flake8": flake8.median / timing.median if flake8 else None,
                "time_vs_parse_floor": timing.median / floor.median if floor else None,
            }
        )
    return {
        "corpus": str(corpus),
        "files": len(files),
        "lines": lines,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "timings": rows,
        "editor_latency_ms": editor,
    }


def write_report(report: dict) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    out = [
        f"Corpus: {report['files']} files, {report['lines']:,} lines; Python {report['python']}, {report['machine']}.",
        "",
        "| tool | median s | lines/s | peak MiB | speed vs flake8 -j1 | time vs ast.parse |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in report["timings"]:
        versus_flake8 = f"{row['speed_vs_flake8']:.1f}x" if row["speed_vs_flake8"] else "n/a"
        versus_floor = f"{row['time_vs_parse_floor']:.2f}x" if row["time_vs_parse_floor"] else "n/a"
        out.append(
            f"| {row['tool']} | {row['median_s']:.2f} | {row['lines_per_s']:,.0f} | {row['peak_mib']:.0f} "
            f"| {versus_flake8} | {versus_floor} |"
        )
    editor = report["editor_latency_ms"]
    if editor:
        out += [
            "",
            f"Editor (LSP, {editor['lines']:.0f} lines, {editor['edits']:.0f} keystrokes typed mid-file, "
            f"one Enter in ten, incremental sync, no debounce): "
            f"p50 {editor['p50']:.1f} ms, p95 {editor['p95']:.1f} ms.",
        ]
    (RESULTS / "latest.md").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
