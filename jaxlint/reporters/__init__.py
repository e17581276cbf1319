"""Output formats. Each reporter turns diagnostics into text for one audience."""

from __future__ import annotations

from collections.abc import Callable

from jaxlint.diagnostics import Diagnostic
from jaxlint.reporters.github import render_github
from jaxlint.reporters.json_format import render_json
from jaxlint.reporters.json_lines import render_json_lines
from jaxlint.reporters.sarif import render_sarif
from jaxlint.reporters.text import render_text

Renderer = Callable[[list[Diagnostic], dict[str, list[str]]], str]

FORMATS: dict[str, Renderer] = {
    "text": render_text,
    "json": render_json,
    "json-lines": render_json_lines,
    "sarif": render_sarif,
    "github": render_github,
}

__all__ = ["FORMATS", "Renderer", "render_json", "render_text"]
