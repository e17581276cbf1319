"""jaxlint held against JAX: the CI sample of generated programs and its stored verdicts.

The fast tests need no JAX: the programs are regenerated from the seed, JAX's verdicts come from
``verdicts.json``, jaxlint runs once through its CLI over the whole sample. The slow test re-runs
a few programs with JAX and fails when a stored verdict is stale.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.groundtruth import agreement, known, verdicts
from tests.groundtruth.generator import parse_header, sample, universe

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def programs():
    return universe()


def test_generator_is_deterministic_and_never_imports_jax(programs):
    code = (
        "import sys; from tests.groundtruth.generator import universe; "
        "print(len(universe())); print('jax' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    count, imported = out.stdout.split()
    assert int(count) == len(programs)
    assert imported == "False"
    again = universe()
    assert [(p.id, p.digest) for p in again] == [(p.id, p.digest) for p in programs]


def test_every_program_parses_and_describes_itself(programs):
    for p in sample(programs, 400, 3):
        for name, source in p.files:
            ast.parse(source, filename=name)
        header = parse_header(p.source)
        assert header["id"] == p.id and header["lines"] == list(p.lines) and p.lines
        assert all(1 <= line <= len(p.source.splitlines()) for line in p.lines)


def test_stored_verdicts_are_for_these_programs(programs):
    data = verdicts.load()
    outdated = verdicts.stale(programs, data)
    assert not outdated, (
        f"{len(outdated)} programs have no stored verdict for their current source (e.g. {outdated[0].id}): "
        "run `python -m tests.groundtruth.verdicts --only-stale` (needs jax)"
    )
    assert data.get("jax"), "the stored verdicts must say which JAX made them"
    counts = [r["verdict"] for r in data["programs"].values()]
    assert counts.count("hazard") > 1000 and counts.count("clean") > 1000


def test_ci_sample_agrees_with_jax_except_the_known_disagreements():
    result = known.check()
    assert len(result.judged) + len(result.dropped) >= 500
    assert len(result.judged) >= 500
    problems = known.describe(result)
    assert not problems, (
        f"jaxlint vs JAX on the CI sample: {len(result.new)} new disagreements, {len(result.stale)} stale entries, "
        f"{len(result.unreviewed)} unreviewed in {known.PATH.name}; `python -m tests.groundtruth.known --update` "
        "rewrites the list (then file new entries under a cause):\n" + "\n".join(problems[:60])
    )


def test_benchmark_prints_the_summary_line():
    out = subprocess.run(
        [sys.executable, "bench/differential.py", "--count", "120", "--seed", "5"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("differential: programs=120 hazards=")
    assert " recall=" in last and " precision=" in last
    assert "== per family" in out.stdout and "== worst cells" in out.stdout


@pytest.mark.slow
def test_stored_verdicts_still_hold_with_this_jax(programs):
    """Re-run a small random sample with JAX: a stored verdict that JAX no longer gives is stale."""
    pytest.importorskip("jax")
    from tests.groundtruth.oracle import judge_all

    seed = int(os.environ.get("JAXLINT_GROUNDTRUTH_SEED", random.randrange(1 << 30)))
    stored = verdicts.load()["programs"]
    runnable = [
        p for p in programs if p.id in stored and all(importlib.util.find_spec(lib) for lib in p.requires)
    ]
    chosen = random.Random(seed).sample(runnable, 24)
    fresh = judge_all(chosen, workers=1)
    changed = [
        f"{p.id}: stored {stored[p.id]['verdict']} {stored[p.id].get('family', '')}, "
        f"now {fresh[p.id]['verdict']} {fresh[p.id].get('family', '')} {fresh[p.id].get('reason', '')}"
        for p in chosen
        if (fresh[p.id]["verdict"], fresh[p.id].get("family"))
        != (stored[p.id]["verdict"], stored[p.id].get("family"))
    ]
    assert not changed, (
        f"stale verdicts (JAXLINT_GROUNDTRUTH_SEED={seed}); regenerate with `python -m tests.groundtruth.verdicts`:\n"
        + "\n".join(changed)
    )


def test_agreement_counts_a_finding_only_on_the_hazard_line(programs):
    p = next(p for p in programs if p.id == "if.jit_decorator.arg")
    ok = next(p for p in programs if p.id == "if.jit_decorator.arg~ok")
    stored = {
        p.id: {"digest": p.digest, "verdict": "hazard", "family": "JAX5"},
        ok.id: {"digest": ok.digest, "verdict": "clean"},
    }
    line = p.lines[0]
    findings = {
        p.id: [agreement.Finding("JAX501", p.path, line + 1)],
        ok.id: [agreement.Finding("JAX101", ok.path, 1)],
    }
    judged, dropped = agreement.outcomes([p, ok], stored, findings)
    assert not dropped
    assert [o.kind for o in judged] == ["miss", "false-alarm"]
    findings[p.id] = [agreement.Finding("JAX501", p.path, line)]
    findings[ok.id] = []
    judged, _ = agreement.outcomes([p, ok], stored, findings)
    assert [o.kind for o in judged] == ["agree", "agree"]


@pytest.mark.parametrize(
    "message",
    [
        # JAX 0.10
        "Slice entries must be static integers. Got slice(None, JitTracer(~int32[]), None) at position 0",
        # JAX 0.11 (seen on the lent GPU machine, bench/gpu_check.sh)
        "Array slice indices must have static start/stop/step to be used with NumPy indexing syntax. "
        "Got slice(None, JitTracer(int32[]), None) at position 0",
    ],
)
def test_the_oracle_explains_a_traced_slice_bound_in_each_jax_version(message):
    pytest.importorskip("jax")
    from tests.groundtruth.oracle import _classify

    assert _classify(IndexError(message)) == frozenset({"JAX4"})
