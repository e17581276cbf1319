"""Diagnostics and fixes: the data every reporter, integration and fixer exchanges."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

DOCS_URL = "https://github.com/jaxlint/jaxlint/blob/main/docs/rules.md"


class Applicability(enum.Enum):
    """How safe a fix is to apply without review (ruff's applicability levels)."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, order=True)
class Location:
    """A position in a file: 1-based row, 1-based column counted in characters."""

    row: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between two locations with ``content``."""

    content: str
    location: Location
    end_location: Location


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]
    isolation: str | None = field(default=None, compare=False)  # one fix per pass per key


@dataclass
class Diagnostic:
    """One finding: a rule code at a span of a file, with its message and optional fix."""

    code: str
    name: str
    message: str
    filename: str
    location: Location
    end_location: Location
    severity: str = "error"
    fix: Fix | None = None
    fix_title: str | None = None
    noqa_row: int | None = None
    cell: int | None = None  # the notebook cell (1-based) the location is in
    # for fixers: what the rule computed (never serialised)
    fix_data: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    node: Any = field(default=None, compare=False, repr=False)
    scope: Any = field(default=None, compare=False, repr=False)
    statement: Any = field(default=None, compare=False, repr=False)

    @property
    def url(self) -> str:
        return rule_url(self.code, self.name)

    def detached(self) -> Diagnostic:
        """This diagnostic without its links into the syntax tree (for other processes, caches)."""
        return replace(self, fix_data=None, node=None, scope=None, statement=None)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.filename, self.location.row, self.location.column, self.code)


def rule_url(code: str, name: str) -> str:
    """The documentation anchor of one rule."""
    anchor = f"{code}-{name}".lower() if name else code.lower()
    return f"{DOCS_URL}#{anchor}"
