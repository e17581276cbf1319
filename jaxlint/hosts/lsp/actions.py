"""The edits behind the code actions: a finding's own fix, ``# noqa: CODE``, and fix-all."""

from __future__ import annotations

import io
import tokenize

from jaxlint.engine.astutil import parses
from jaxlint.engine.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
from jaxlint.engine.linter import split_lines
from jaxlint.engine.noqa import NOQA_RE

FIX_ALL_KIND = "source.fixAll.jaxlint"
FIX_ALL_TITLE = "Fix all safe jaxlint findings in file"


def quick_fix_title(diagnostic: Diagnostic, fix: Fix) -> str:
    title = f"{fix.message or diagnostic.fix_title or 'Fix'} ({diagnostic.code})"
    return title if fix.applicability is Applicability.SAFE else f"{title} (unsafe fix: review it)"


def applicable_fix(diagnostic: Diagnostic) -> Fix | None:
    """The fix a quick fix may apply: safe or unsafe (the user reads its title), never display-only."""
    fix = diagnostic.fix
    if fix is None or not fix.edits or fix.applicability is Applicability.DISPLAY_ONLY:
        return None
    return fix


def noqa_edit(source: str, diagnostic: Diagnostic) -> Edit | None:
    """Add ``diagnostic.code`` to the ``# noqa`` comment of its line, or add one; None if impossible."""
    lines = split_lines(source)
    row = diagnostic.noqa_row
    if row is None or not 0 < row <= len(lines):
        return None
    line = lines[row - 1]
    match = NOQA_RE.search(line)
    if match is not None and not match.group("codes"):
        return None  # a bare noqa comment already silences everything on the line
    if match is not None:
        column = match.end("codes") + 1
        edit = Edit(f", {diagnostic.code}", Location(row, column), Location(row, column))
    else:
        kept = len(line.rstrip())
        edit = Edit(f"  # noqa: {diagnostic.code}", Location(row, kept + 1), Location(row, len(line) + 1))
    changed = _apply(lines, edit)
    return edit if _noqa_comment_on(changed, row) and parses(changed) else None


def _apply(lines: list[str], edit: Edit) -> str:
    row = edit.location.row - 1
    line = lines[row]
    changed = line[: edit.location.column - 1] + edit.content + line[edit.end_location.column - 1 :]
    return "\n".join([*lines[:row], changed, *lines[row + 1 :]])


def _noqa_comment_on(text: str, row: int) -> bool:
    """Whether ``text`` has a ``# noqa`` comment token on ``row`` (not text inside a string)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and token.start[0] == row and NOQA_RE.search(token.string):
                return True
    except (tokenize.TokenError, SyntaxError):
        return False
    return False
