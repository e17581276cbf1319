"""``jaxlint check --add-noqa``: a ``# noqa: CODE`` comment on each line that has a finding.

Codes join an existing ``# noqa: ...`` comment; a bare ``# noqa`` already silences everything.
Files are rewritten as fixes are (atomically, only if they still hold what was read, and only
with text that still parses). Notebooks and files that do not parse are left alone.
"""

from __future__ import annotations

import ast
from collections import defaultdict

from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.linter import META_CODES
from jaxlint.engine.noqa import NOQA_RE, noqa_codes
from jaxlint.project.files import NOTEBOOK_SUFFIX, WriteError, read_source, write_source


def add_noqa_comments(diagnostics: list[Diagnostic]) -> tuple[int, list[str]]:
    """Add the comments for ``diagnostics``; the number added and one line per file not written."""
    wanted: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for diagnostic in diagnostics:
        if diagnostic.code in META_CODES or diagnostic.noqa_row is None or diagnostic.cell is not None:
            continue
        if diagnostic.filename.endswith(NOTEBOOK_SUFFIX):
            continue
        wanted[diagnostic.filename][diagnostic.noqa_row].add(diagnostic.code)
    added, problems = 0, []
    for path, rows in sorted(wanted.items()):
        source = read_source(path)
        if source.text is None:
            problems.append(f"{path}: noqa not added: {source.error}")
            continue
        lines = source.text.splitlines(keepends=True)
        count = 0
        for row, codes in rows.items():
            if 0 < row <= len(lines):
                lines[row - 1], changed = _with_codes(lines[row - 1], codes)
                count += changed
        text = "".join(lines)
        if not count:
            continue
        if not _same_code(source.text, text):
            problems.append(f"{path}: noqa not added: a comment there would change the code")
            continue
        try:
            write_source(path, text, source.encoding, read=source)
        except WriteError as error:
            problems.append(str(error))
            continue
        added += count
    return added, problems


def _with_codes(line: str, codes: set[str]) -> tuple[str, int]:
    """``line`` with ``codes`` in its noqa comment, and whether it changed."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    present = noqa_codes(body)
    if present == ():
        return line, 0  # a bare noqa silences every code already
    if present is None:
        return f"{body}  # noqa: {', '.join(sorted(codes))}{ending}", 1
    missing = sorted(code for code in codes if not any(code.startswith(p) for p in present))
    if not missing:
        return line, 0
    match = NOQA_RE.search(body)
    assert match is not None
    merged = ", ".join([*present, *missing])
    return f"{body[: match.start()]}# noqa: {merged}{body[match.end() :]}{ending}", 1


def _same_code(before: str, after: str) -> bool:
    """Whether ``after`` parses to the same program (the comments went where comments go, not
    into a string or after a line continuation)."""
    try:
        return ast.dump(ast.parse(before)) == ast.dump(ast.parse(after))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
