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

__all__ = ["FORMATS", "Renderer", "render_json", "render_text"]
