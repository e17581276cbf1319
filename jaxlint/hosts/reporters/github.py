"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request.

``::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::message``, with the escaping the
Actions runner expects (``%``, CR and LF in the message; also ``:`` and ``,`` in properties).
"""

from __future__ import annotations

import os

from jaxlint.engine.diagnostics import Diagnostic, Location

COMMANDS = {"error": "error", "warning": "warning"}


def render_github(diagnostics: list[Diagnostic], lines: dict[str, list[str]] | None = None) -> str:
    return "".join(annotation(d) + "\n" for d in diagnostics)


def annotation(diagnostic: Diagnostic) -> str:
    start, end = diagnostic.location, diagnostic.end_location
    prefix = ""
    if diagnostic.cell is not None:  # a notebook: annotate the .ipynb row, say the cell
        prefix = f"cell {diagnostic.cell}, line {start.row}: "
        row = diagnostic.file_row or start.row
        start, end = Location(row, start.column), Location(row, max(end.column, start.column))
    properties = {
        "file": display_path(diagnostic.filename),
        "line": str(start.row),
        "col": str(start.column),
        "endLine": str(max(end.row, start.row)),
        "endColumn": str(end.column),
        "title": f"jaxlint ({diagnostic.code} {diagnostic.name})",
    }
    if end.row != start.row:
        del properties["endColumn"]  # GitHub accepts endColumn only on one-line annotations
    joined = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items())
    command = COMMANDS.get(diagnostic.severity, "warning")
    see = diagnostic.url or f"jaxlint rule {diagnostic.code}"
    message = f"{prefix}{diagnostic.code} {diagnostic.message}\n{see}"
    return f"::{command} {joined}::{escape_data(message)}"


def display_path(filename: str) -> str:
    """The path relative to the working directory (the checkout on a runner) when inside it."""
    absolute = os.path.abspath(filename)
    relative = os.path.relpath(absolute)
    return filename if relative.startswith("..") else relative.replace(os.sep, "/")


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")
