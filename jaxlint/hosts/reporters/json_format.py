"""ruff's ``--output-format json`` schema, so tools that read ruff's JSON read ours."""

from __future__ import annotations

import json
import os
from typing import Any

from jaxlint.engine.diagnostics import Diagnostic, Fix, Location


def _location(location: Location) -> dict[str, int]:
    return {"column": location.column, "row": location.row}


def fix_to_json(fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability.value,
        "edits": [
            {
                "content": edit.content,
                "end_location": _location(edit.end_location),
                "location": _location(edit.location),
            }
            for edit in fix.edits
        ],
        "message": fix.message,
    }


def ruff_json(diagnostic: Diagnostic) -> dict[str, Any]:
    """One diagnostic in ruff's JSON schema."""
    return {
        "cell": diagnostic.cell,
        "code": diagnostic.code,
        "end_location": _location(diagnostic.end_location),
        "filename": os.path.abspath(diagnostic.filename),
        "fix": fix_to_json(diagnostic.fix),
        "location": _location(diagnostic.location),
        "message": diagnostic.message,
        "name": diagnostic.name,
        "noqa_row": diagnostic.noqa_row,
        "severity": diagnostic.severity,
        "url": diagnostic.url,
    }


def render_json(diagnostics: list[Diagnostic], lines: dict[str, list[str]] | None = None) -> str:
    return json.dumps([ruff_json(d) for d in diagnostics], indent=2) + "\n"
