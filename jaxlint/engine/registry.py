"""Rule discovery: every ``jaxNNN_*`` module of ``jaxlint.rules`` (in any family folder) defines
one rule; there is no central list to edit. Fixers are found the same way (:func:`discover`)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import cache
from typing import TypeVar

from jaxlint.engine.rule import FixAvailability, Rule

RULES_PACKAGE = "jaxlint.rules"
_CHECK_MODULE = re.compile(r"^jax\d{3}_")

T = TypeVar("T")


def discover(package_name: str, base: type[T]) -> list[type[T]]:
    """The subclasses of ``base`` defined in the ``jaxNNN_*`` modules under ``package_name``
    (family folders included; helper modules are left to the modules that use them)."""
    package = importlib.import_module(package_name)
    found: list[type[T]] = []
    for module_info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
        if module_info.ispkg or not _CHECK_MODULE.match(module_info.name.rpartition(".")[2]):
            continue
        module = importlib.import_module(module_info.name)
        found.extend(
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, base)
            and value is not base
            and value.__module__ == module.__name__
        )
    return found


@cache
def all_rules() -> tuple[type[Rule], ...]:
    """Every rule class, sorted by code. Raises if two rules share a code or a name."""
    found = discover(RULES_PACKAGE, Rule)
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
