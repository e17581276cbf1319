"""Fixers: before/after pairs. ``cases/NAME.in.py`` is fixed and compared with ``NAME.out.py``.

The first line of an input says which fixes apply: ``# fix: safe`` (``--fix``) or
``# fix: unsafe`` (``--fix --unsafe-fixes``). Lines marked ``# no fix`` keep their finding: no fix
may be offered there. Every output must parse, lose every other finding of the fixed rules, and be
a fixed point (fixing it again changes nothing). Regenerate the expected outputs with
``python -m pytest tests/fixers --update-snapshots`` (and review the diff).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from jaxlint.engine.linter import RuleSet, lint_source
from jaxlint.engine.registry import all_rules, fixable_codes, rule_codes
from jaxlint.fixing.applier import fix_source
from jaxlint.fixing.fixer import fixers

CASES = Path(__file__).parent / "cases"
INPUTS = sorted(CASES.glob("*.in.py"))
RULES = RuleSet.from_codes(rule_codes())


def unsafe_of(source: str) -> bool:
    first = source.splitlines()[0]
    assert first in ("# fix: safe", "# fix: unsafe"), "first line must be `# fix: safe|unsafe`"
    return first == "# fix: unsafe"


@pytest.mark.parametrize("case", INPUTS, ids=lambda p: p.name.removesuffix(".in.py"))
def test_fixer_case(case: Path, update_snapshots: bool) -> None:
    source = case.read_text(encoding="utf-8")
    unsafe = unsafe_of(source)
    result = fix_source(source, str(case), RULES, unsafe=unsafe)
    expected_path = case.with_name(case.name.replace(".in.py", ".out.py"))
    if update_snapshots:
        expected_path.write_text(result.fixed, encoding="utf-8")
    assert expected_path.exists(), (
        f"no {expected_path.name}: run `python -m pytest tests/fixers --update-snapshots`"
    )
    assert result.fixed == expected_path.read_text(encoding="utf-8"), (
        "the fix differs from the expected output; if the change is meant, run "
        "`python -m pytest tests/fixers --update-snapshots` and review the diff"
    )
    ast.parse(result.fixed)
    assert result.problems == []
    fixed_codes = set(result.applied)
    lines = result.fixed.splitlines()
    for diagnostic in lint_source(result.fixed, str(case), RULES):
        marked = "# no fix" in lines[diagnostic.location.row - 1]
        assert marked or diagnostic.code not in fixed_codes, f"still reported: {diagnostic}"
    again = fix_source(result.fixed, str(case), RULES, unsafe=unsafe)
    assert again.fixed == result.fixed, "a second --fix changed the file"


@pytest.mark.parametrize("rule", [r for r in all_rules() if r.code in fixers()], ids=lambda r: r.code)
def test_every_fixer_has_cases(rule) -> None:
    names = [p.name for p in INPUTS]
    assert any(name.startswith(rule.code) for name in names), f"add cases/{rule.code}_*.in.py"


def test_fix_availability_is_declared_truthfully() -> None:
    """A rule declares a fix exactly when a fixer is paired with it."""
    assert set(fixers()) == set(fixable_codes())
    for rule in all_rules():
        assert bool(rule.fix_title) == (rule.code in fixers()), rule.code


REQUEST_SOURCES = sorted((CASES.parent.parent / "rules" / "cases").glob("*.py")) + INPUTS


@pytest.mark.parametrize("case", REQUEST_SOURCES, ids=lambda p: p.name)
def test_rules_hand_their_fixers_the_requests_they_take(case: Path) -> None:
    """The typed rule -> fixer contract, at run time: every fix request a rule builds is of a type
    its fixer declares (pyright checks the fields; this checks the pairing), with a site."""
    available = fixers()
    for diagnostic in lint_source(case.read_text(encoding="utf-8"), str(case), RULES):
        if diagnostic.request is None:
            continue
        assert diagnostic.code in available, f"{diagnostic.code} builds fix requests but has no fixer"
        assert isinstance(diagnostic.request, available[diagnostic.code].request_types())
        assert diagnostic.site is not None


@pytest.mark.parametrize("code", sorted(fixers()))
def test_every_fixer_says_what_it_rewrites_and_how_safe_that_is(code: str) -> None:
    fixer = type(fixers()[code])
    assert fixer.__doc__ and "safe" in fixer.__doc__.lower(), (
        f"{fixer.__name__} needs a docstring on its safety"
    )
    module = sys.modules[fixer.__module__]
    assert module.__doc__ and module.__doc__.startswith(f"{code} fix:"), (
        "the module docstring says what it rewrites"
    )
