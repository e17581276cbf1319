"""Breadth tests: each file under cases/ marks the lines that must be flagged with
``# error: CODE``; every other line must stay silent (the near misses are tests too).

Each case file also has a snapshot under snapshots/ that pins every finding's position, code,
fix and message text. After changing a message on purpose, rewrite the snapshots with
``python -m pytest tests/rules --update-snapshots`` and review the diff.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.linter import RuleSet, analyze, lint_source
from jaxlint.engine.registry import all_rules, rule_codes
from jaxlint.fixing.fixer import attach_fixes

CASES = Path(__file__).parent / "cases"
SNAPSHOTS = Path(__file__).parent / "snapshots"
MARKER = re.compile(r"#\s*error:\s*(?P<codes>JAX\d{3}(?:\s*,\s*JAX\d{3})*)")
RULES = RuleSet.from_codes(rule_codes())
CASE_FILES = sorted(CASES.glob("*.py"))


def expected_findings(source: str) -> set[tuple[int, str]]:
    found = set()
    for number, line in enumerate(source.splitlines(), start=1):
        match = MARKER.search(line)
        if match:
            found |= {(number, code.strip()) for code in match.group("codes").split(",")}
    return found


def actual_findings(source: str, path: str) -> set[tuple[int, str]]:
    return {(d.location.row, d.code) for d in lint_source(source, path, RULES)}


@pytest.mark.parametrize("case", CASE_FILES, ids=lambda p: p.stem)
def test_case_file(case: Path) -> None:
    source = case.read_text(encoding="utf-8")
    expected = expected_findings(source)
    actual = actual_findings(source, str(case))
    missing = sorted(expected - actual)
    unexpected = sorted(actual - expected)
    assert not missing and not unexpected, f"missing: {missing}\nunexpected: {unexpected}"


def snapshot_line(diagnostic: Diagnostic) -> str:
    """``row:col-end_row:end_col CODE [fix] message``; ``[fix]`` is the applicability of the fix
    offered (``[safe fix]``, ``[unsafe fix]``) or nothing."""
    start, end = diagnostic.location, diagnostic.end_location
    fix = f" [{diagnostic.fix.applicability.value} fix]" if diagnostic.fix and diagnostic.fix.edits else ""
    return f"{start.row}:{start.column}-{end.row}:{end.column} {diagnostic.code}{fix} {diagnostic.message}"


def snapshot(source: str, path: str) -> str:
    analysis = analyze(source, path, RULES)
    errors = attach_fixes(analysis.diagnostics, source, analysis.model)
    return "".join(snapshot_line(d) + "\n" for d in [*analysis.diagnostics, *errors])


@pytest.mark.parametrize("case", CASE_FILES, ids=lambda p: p.stem)
def test_findings_match_their_snapshot(case: Path, update_snapshots: bool) -> None:
    """Positions, codes, fixes and message texts are pinned: a changed message shows in review."""
    actual = snapshot(case.read_text(encoding="utf-8"), f"cases/{case.name}")
    stored = SNAPSHOTS / f"{case.stem}.txt"
    if update_snapshots:
        stored.write_text(actual, encoding="utf-8")
    assert stored.exists(), "no snapshot yet: run `python -m pytest tests/rules --update-snapshots`"
    expected = stored.read_text(encoding="utf-8")
    assert actual == expected, (
        "findings differ from their snapshot; if the change is meant, run "
        "`python -m pytest tests/rules --update-snapshots` and review the diff"
    )


def test_every_snapshot_belongs_to_a_case_file() -> None:
    assert {p.stem for p in SNAPSHOTS.glob("*.txt")} == {p.stem for p in CASE_FILES}


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_every_rule_has_bad_and_good_cases(rule) -> None:
    case = CASES / f"{rule.code}.py"
    assert case.exists(), f"add {case} with flagged lines and near misses"
    source = case.read_text(encoding="utf-8")
    assert any(code == rule.code for _, code in expected_findings(source))
    assert "near misses" in source, "each case file needs a near-miss section that must stay silent"


def test_split_advice_never_names_the_key_twice() -> None:
    """optax's tests reuse a key named `subkey`: `subkey, subkey = split(subkey)` would be nonsense."""
    source = (
        "import jax\n\n\ndef f(key):\n    key, subkey = jax.random.split(key)\n"
        "    return jax.random.normal(subkey, (2,)) + jax.random.normal(subkey, (2,))\n"
    )
    (finding,) = lint_source(source, "case.py", RULES)
    assert finding.code == "JAX301"
    assert "`subkey, subkey_2 = jax.random.split(subkey)`" in finding.message


def test_a_slice_as_static_argument_is_unhashable_before_python_312() -> None:
    """`slice` objects became hashable in Python 3.12 (measured with JAX 0.10.2 on 3.11:
    `ValueError: Non-hashable static arguments`); the claim follows the Python linting."""
    source = (
        "from functools import partial\n\nimport jax\n\n\n"
        '@partial(jax.jit, static_argnames=("window",))\ndef window_mean(x, window):\n'
        "    return x[window].mean()\n\n\n"
        "a = window_mean(jax.numpy.ones(10), window=slice(2, 6))\n"
        "b = window_mean(jax.numpy.ones(10), window=(2, 6))\n"
    )
    found = actual_findings(source, "case.py")
    assert found == ({(11, "JAX606")} if sys.version_info < (3, 12) else set())
