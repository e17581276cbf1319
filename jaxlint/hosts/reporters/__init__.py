"""Output formats. Each reporter turns diagnostics into text for one audience."""

from __future__ import annotations

from collections.abc import Callable

from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.hosts.reporters.github import render_github
from jaxlint.hosts.reporters.json_format import render_json
from jaxlint.hosts.reporters.json_lines import render_json_lines
from jaxlint.hosts.reporters.sarif import render_sarif
from jaxlint.hosts.reporters.text import render_text

Renderer = Callable[[list[Diagnostic], dict[str, list[str]]], str]

FORMATS: dict[str, Renderer] = {
    "text": render_text,
    "json": render_json,
    "json-lines": render_json_lines,
    "sarif": render_sarif,
    "github": render_github,
}

# The formats that carry each finding's fix; the others never compute one (a fix is computed only
# where it is shown or applied: these formats, `--diff`, `--fix`, an editor's code action).
FIX_CARRYING_FORMATS = frozenset({"json", "json-lines", "sarif"})

__all__ = ["FIX_CARRYING_FORMATS", "FORMATS", "Renderer", "render_json", "render_text"]
