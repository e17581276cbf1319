"""Suppression comments, flake8- and ruff-compatible.

``# noqa`` (every code) or ``# noqa: JAX101, JAX5`` (codes matched as prefixes) on the line a
finding starts on; ``# jaxlint: noqa`` or ``# jaxlint: noqa: JAX101`` on a line of its own, for
the whole file. Only real comments count (found with ``tokenize``), never text in a string.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from jaxlint.engine.diagnostics import Diagnostic

NOQA_RE = re.compile(
    r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*))?",
    re.IGNORECASE,
)
FILE_NOQA_RE = re.compile(
    r"^#\s*jaxlint:\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*))?\s*$",
    re.IGNORECASE,
)
_SPLIT_RE = re.compile(r"[,\s]+")


@dataclass
class Suppression:
    """One suppression comment: where it is, the codes it names (``()``: every code), and which
    of them silenced a finding."""

    row: int
    column: int
    end_column: int
    codes: tuple[str, ...]
    file_wide: bool = False
    used: set[str] = field(default_factory=set)

    def silences(self, diagnostic: Diagnostic) -> bool:
        if not self.file_wide and diagnostic.noqa_row != self.row:
            return False
        if not self.codes:
            return True
        matched = [code for code in self.codes if diagnostic.code.startswith(code)]
        self.used.update(matched)
        return bool(matched)


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """The codes a line's ``# noqa`` comment names; ``()`` for a bare noqa, None for none."""
    if "noqa" not in line.lower():
        return None
    match = NOQA_RE.search(line)
    if match is None:
        return None
    return _codes(match.group("codes"))


def _codes(text: str | None) -> tuple[str, ...]:
    return tuple(code.upper() for code in _SPLIT_RE.split(text) if code) if text else ()


def find_suppressions(source: str) -> list[Suppression]:
    """The suppression comments of ``source`` (none when it names no ``noqa``)."""
    if "noqa" not in source.lower():
        return []
    found: list[Suppression] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT and "noqa" in token.string.lower():
                found.extend(_suppression(token))
    except (tokenize.TokenError, SyntaxError, ValueError):
        pass  # the comments up to the problem are kept; the parse reports the rest
    return found


def _suppression(token: tokenize.TokenInfo) -> list[Suppression]:
    row, column = token.start
    end = column + len(token.string) + 1
    whole_file = FILE_NOQA_RE.match(token.string)
    if whole_file is not None and not token.line[:column].strip():
        return [Suppression(row, column + 1, end, _codes(whole_file.group("codes")), file_wide=True)]
    match = NOQA_RE.search(token.string)
    if match is None:
        return []
    return [Suppression(row, column + 1 + match.start(), end, _codes(match.group("codes")))]


def apply_noqa(diagnostics: list[Diagnostic], suppressions: list[Suppression]) -> list[Diagnostic]:
    """The diagnostics no suppression silences (recording, per suppression, the codes used)."""
    if not suppressions:
        return diagnostics
    by_row: dict[int, list[Suppression]] = {}
    for suppression in suppressions:
        by_row.setdefault(-1 if suppression.file_wide else suppression.row, []).append(suppression)
    kept = []
    for diagnostic in diagnostics:
        candidates = [*by_row.get(-1, ()), *by_row.get(diagnostic.noqa_row or 0, ())]
        silenced = [s for s in candidates if s.silences(diagnostic)]  # all of them: each records use
        if not silenced:
            kept.append(diagnostic)
    return kept
