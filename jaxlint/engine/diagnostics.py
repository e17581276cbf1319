"""Diagnostics and fixes: the data every reporter, integration and fixer exchanges.

A finding a rule can fix carries a typed :class:`FixRequest` (what the analysis found, for the
fixer) and a :class:`Site` (where in the syntax tree it is); neither leaves the process.
"""

from __future__ import annotations

import ast
import enum
import functools
import importlib.metadata
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jaxlint.semantic.scopes import Scope

RULES_DOC = "docs/rules.md"  # in the repository; `jaxlint rule CODE` prints the same text


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


@dataclass(frozen=True)
class FixRequest:
    """What a rule hands its fixer: the facts its analysis found (which names a rewrite carries,
    whether the rewrite is safe here, ...). Subclass it as a frozen dataclass per kind of rewrite,
    next to the rule that builds it; the fixer declares the type it takes (``Fixer[MyRequest]``),
    so pyright checks that both sides agree. The fixer does syntax only, never analysis."""


@dataclass(frozen=True)
class Site:
    """Where a finding is in the syntax tree: the node reported, the innermost statement holding
    it (the node itself when it is a statement) and the scope it is in."""

    node: ast.AST
    statement: ast.stmt | None
    scope: Scope


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
    file_row: int | None = None  # for a notebook finding, the row of the .ipynb file it is on
    # for the fixer: where the finding is and what the rule computed (never serialised)
    site: Site | None = field(default=None, compare=False, repr=False)
    request: FixRequest | None = field(default=None, compare=False, repr=False)

    @property
    def url(self) -> str | None:
        return rule_url(self.code, self.name)

    def detached(self) -> Diagnostic:
        """This diagnostic without its links into the syntax tree (for other processes, caches)."""
        return replace(self, site=None, request=None)

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.filename, self.cell or 0, self.location.row, self.location.column, self.code)


def rule_url(code: str, name: str) -> str | None:
    """The web address of one rule's documentation: its anchor in ``docs/rules.md`` of the
    repository the installed jaxlint declares (``[project.urls]``); None when it declares none,
    rather than an address that is not this project's (``jaxlint rule CODE`` always works)."""
    repository = repository_url()
    if repository is None:
        return None
    anchor = f"{code}-{name}".lower() if name else code.lower()
    return f"{repository}/blob/main/{RULES_DOC}#{anchor}"


@functools.cache
def repository_url() -> str | None:
    """The ``Repository`` (or ``Source``/``Homepage``) URL of the installed distribution."""
    try:
        entries = importlib.metadata.metadata("jaxlint").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    urls = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        urls[label.strip().lower()] = url.strip().rstrip("/")
    for label in ("repository", "source", "homepage"):
        if urls.get(label, "").startswith("https://"):
            return urls[label]
    return None
