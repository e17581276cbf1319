"""Each rule documents itself from its docstring, and its examples are tests."""

from __future__ import annotations

import ast

import pytest

from jaxlint.engine.linter import RuleSet, lint_source
from jaxlint.engine.registry import all_rules
from jaxlint.engine.rule import SECTIONS, FixAvailability
from jaxlint.fixing.applier import fix_source
from jaxlint.fixing.fixer import fixers
from jaxlint.hosts.docs import main as docs_main
from jaxlint.hosts.docs import rules_markdown

RULES = all_rules()


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_docstring_has_every_section(rule) -> None:
    docs = rule.docs()
    assert list(docs) == list(SECTIONS), f"{rule.code} sections: {list(docs)}"
    assert all(docs.values())


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_example_fires_and_use_instead_is_silent(rule) -> None:
    bad, good = rule.examples()
    ast.parse(bad)
    ast.parse(good)
    ruleset = RuleSet.from_codes([rule.code])
    assert any(d.code == rule.code for d in lint_source(bad, "example.py", ruleset))
    assert lint_source(good, "use_instead.py", RuleSet.from_codes([r.code for r in RULES])) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_metadata(rule) -> None:
    assert rule.code.startswith("JAX") and len(rule.code) == 6
    assert rule.name == rule.name.lower() and " " not in rule.name
    assert rule.message and rule.outcome
    assert rule.severity in ("error", "warning")
    if rule.fix_availability is FixAvailability.NONE:
        assert rule.fix_title is None
    else:
        assert rule.fix_title


def test_codes_and_names_are_unique() -> None:
    assert len({r.code for r in RULES}) == len(RULES)
    assert len({r.name for r in RULES}) == len(RULES)


def test_every_family_of_the_core_is_present() -> None:
    families = {r.code[:4] for r in RULES}
    assert {"JAX1", "JAX2", "JAX3", "JAX4", "JAX5"} <= families


def test_docs_rules_md_is_current() -> None:
    assert docs_main(["--check"]) == 0, "run `python -m jaxlint.hosts.docs` to regenerate docs/rules.md"


def test_rules_md_lists_every_rule() -> None:
    text = rules_markdown()
    for rule in RULES:
        assert f"### {rule.code} {rule.name}" in text


@pytest.mark.parametrize("rule", [r for r in RULES if r.code in fixers()], ids=lambda r: r.code)
def test_the_fix_of_the_example_is_the_documented_fix(rule) -> None:
    """The documentation shows what the fix does: applied to the Example (unsafe fixes allowed),
    it gives the Fix safety section's code block, or the Use instead block when there is none."""
    bad, _ = rule.examples()
    result = fix_source(bad, "example.py", RuleSet.from_codes([rule.code]), unsafe=True)
    assert result.applied[rule.code] >= 1, "the fix does not apply to the Example"
    assert result.fixed == rule.documented_fix()
