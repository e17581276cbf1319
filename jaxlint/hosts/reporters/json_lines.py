"""JSON Lines: one diagnostic per line in the ``json`` format's schema (ruff's ``json-lines``)."""

from __future__ import annotations

import json

from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.hosts.reporters.json_format import ruff_json


def render_json_lines(diagnostics: list[Diagnostic], lines: dict[str, list[str]] | None = None) -> str:
    return "".join(json.dumps(ruff_json(d)) + "\n" for d in diagnostics)
