"""Output formats. Each reporter turns diagnostics into text for one audience."""

from __future__ import annotations

from collections.abc import Callable

from jaxlint.diagnostics import Diagnostic
from jaxlint.reporters.json_format import render_json
from jaxlint.reporters.text import render_text

Renderer = Callable[[list[Diagnostic], dict[str, list[str]]], str]

FORMATS: dict[str, Renderer] = {
    "text": render_text,
    "json": render_json,
}

__all__ = ["FORMATS", "Renderer", "render_json", "render_text"]
