"""Breadth tests: each file under cases/ marks the lines that must be flagged with
``# error: CODE``; every other line must stay silent (the near misses are tests too)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jaxlint.engine.linter import RuleSet, lint_source
from jaxlint.engine.registry import all_rules, rule_codes

CASES = Path(__file__).parent / "cases"
MARKER = re.compile(r"#\s*error:\s*(?P<codes>JAX\d{3}(?:\s*,\s*JAX\d{3})*)")


def expected_findings(source: str) -> set[tuple[int, str]]:
    found = set()
    for number, line in enumerate(source.splitlines(), start=1):
        match = MARKER.search(line)
        if match:
            found |= {(number, code.strip()) for code in match.group("codes").split(",")}
    return found


def actual_findings(source: str, path: str) -> set[tuple[int, str]]:
    ruleset = RuleSet.from_codes(rule_codes())
    return {(d.location.row, d.code) for d in lint_source(source, path, ruleset)}


@pytest.mark.parametrize("case", sorted(CASES.glob("*.py")), ids=lambda p: p.stem)
def test_case_file(case: Path) -> None:
    source = case.read_text(encoding="utf-8")
    expected = expected_findings(source)
    actual = actual_findings(source, str(case))
    missing = sorted(expected - actual)
    unexpected = sorted(actual - expected)
    assert not missing and not unexpected, f"missing: {missing}\nunexpected: {unexpected}"


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
    (finding,) = lint_source(source, "case.py", RuleSet.from_codes(rule_codes()))
    assert finding.code == "JAX301"
    assert "`subkey, subkey_2 = jax.random.split(subkey)`" in finding.message
