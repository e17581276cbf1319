"""Rule discovery: every module of ``jaxlint.rules`` defines one rule; no central list to edit."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from jaxlint.rule import FixAvailability, Rule

RULES_PACKAGE = "jaxlint.rules"


@cache
def all_rules() -> tuple[type[Rule], ...]:
    """Every rule class, sorted by code. Raises if two rules share a code or a name."""
    package = importlib.import_module(RULES_PACKAGE)
    found: list[type[Rule]] = []
    for module_info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{RULES_PACKAGE}.{module_info.name}")
        found.extend(
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, Rule)
            and value is not Rule
            and value.__module__ == module.__name__
        )
    _check_unique(found)
    return tuple(sorted(found, key=lambda rule: rule.code))


def _check_unique(rules: list[type[Rule]]) -> None:
    for attribute in ("code", "name"):
        seen: dict[str, type[Rule]] = {}
        for rule in rules:
            value = getattr(rule, attribute)
            if value in seen:
                raise RuntimeError(
                    f"rules {seen[value].__name__} and {rule.__name__} share {attribute} {value}"
                )
            seen[value] = rule


def rule_by_code(code: str) -> type[Rule] | None:
    for rule in all_rules():
        if rule.code == code.upper():
            return rule
    return None


def rule_codes() -> list[str]:
    return [rule.code for rule in all_rules()]


@cache
def fixable_codes() -> frozenset[str]:
    """Codes of the rules that declare a fix (their fixers are imported only when needed)."""
    return frozenset(r.code for r in all_rules() if r.fix_availability is not FixAvailability.NONE)
