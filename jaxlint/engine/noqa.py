"""``# noqa`` suppression comments, flake8-compatible: bare, or with codes matched as prefixes."""

from __future__ import annotations

import re

from jaxlint.engine.diagnostics import Diagnostic

NOQA_RE = re.compile(
    r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*))?",
    re.IGNORECASE,
)
_SPLIT_RE = re.compile(r"[,\s]+")


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """The codes a line's ``# noqa`` comment names; ``()`` for a bare noqa, None for none."""
    if "noqa" not in line.lower():
        return None
    match = NOQA_RE.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    if not codes:
        return ()
    return tuple(code.upper() for code in _SPLIT_RE.split(codes) if code)


def is_suppressed(diagnostic: Diagnostic, lines: list[str]) -> bool:
    row = diagnostic.noqa_row
    if row is None or not 0 < row <= len(lines):
        return False
    codes = noqa_codes(lines[row - 1])
    if codes is None:
        return False
    return not codes or any(diagnostic.code.startswith(code) for code in codes)


def apply_noqa(diagnostics: list[Diagnostic], lines: list[str]) -> list[Diagnostic]:
    return [d for d in diagnostics if not is_suppressed(d, lines)]
