"""jaxlint's positions, diagnostics and edits in LSP terms.

jaxlint's ``Location`` counts rows from 1 and columns from 1 in characters (code points); the
LSP counts lines from 0 and columns in the code units of the negotiated position encoding,
UTF-16 unless the client offers another. Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` for both.
"""

from __future__ import annotations

import re

from lsprotocol import types

from jaxlint.engine.diagnostics import Diagnostic, Edit, Location

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
SOURCE = "jaxlint"
SEVERITIES = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}


def code_units(text: str, encoding: str) -> int:
    """The length of ``text`` in the code units of an LSP position encoding."""
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def to_position(location: Location, lines: list[str], encoding: str) -> types.Position:
    """A jaxlint location as an LSP position; past the last line, the end of the document."""
    if location.row > len(lines):
        last = len(lines) - 1
        return types.Position(line=max(last, 0), character=code_units(lines[last], encoding) if lines else 0)
    line = lines[location.row - 1]
    return types.Position(line=location.row - 1, character=code_units(line[: location.column - 1], encoding))


def to_range(start: Location, end: Location, lines: list[str], encoding: str) -> types.Range:
    return types.Range(
        start=to_position(start, lines, encoding), end=to_position(max(start, end), lines, encoding)
    )


def to_lsp_diagnostic(diagnostic: Diagnostic, lines: list[str], encoding: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=to_range(diagnostic.location, diagnostic.end_location, lines, encoding),
        message=diagnostic.message,
        severity=SEVERITIES.get(diagnostic.severity, types.DiagnosticSeverity.Warning),
        code=diagnostic.code,
        code_description=types.CodeDescription(href=diagnostic.url) if diagnostic.url else None,
        source=SOURCE,
    )


def to_text_edit(edit: Edit, lines: list[str], encoding: str) -> types.TextEdit:
    return types.TextEdit(
        range=to_range(edit.location, edit.end_location, lines, encoding), new_text=edit.content
    )


def replacement_edit(before: str, after: str, lines: list[str], encoding: str) -> types.TextEdit:
    """One edit turning ``before`` into ``after``: the span between their common prefix and suffix."""
    limit = min(len(before), len(after))
    prefix = 0
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    if prefix > 0 and before[prefix - 1 : prefix + 1] == "\r\n":  # never split a CRLF pair
        prefix -= 1
    end = len(before) - suffix
    if before[end - 1 : end + 1] == "\r\n":
        end += 1
        suffix -= 1
    start_location, end_location = offset_to_location(before, prefix), offset_to_location(before, end)
    edit = Edit(after[prefix : len(after) - suffix], start_location, end_location)
    return to_text_edit(edit, lines, encoding)


def offset_to_location(text: str, offset: int) -> Location:
    """The location of a character offset (``\\r\\n``, ``\\r`` and ``\\n`` end a line)."""
    starts = [0] + [match.end() for match in _LINE_BREAK.finditer(text, 0, offset)]
    return Location(len(starts), offset - starts[-1] + 1)
