"""SARIF 2.1.0, the format GitHub code scanning and other CI dashboards read.

One run with every rule in ``tool.driver.rules``, one result per diagnostic, and the fix (when
there is one) as ``fixes[].artifactChanges``. Columns count Unicode code points, as jaxlint's do,
which the run declares with ``columnKind``. Paths under the working directory are relative URIs
against ``%SRCROOT%``, so code scanning maps them onto the repository.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jaxlint import __version__
from jaxlint.engine.diagnostics import Diagnostic, Fix, Location, repository_url, rule_url
from jaxlint.engine.linter import META_CODES, META_DOCS
from jaxlint.engine.registry import all_rules
from jaxlint.hosts.reporters.github import display_path

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SOURCE_ROOT = "%SRCROOT%"
LEVELS = {"error": "error", "warning": "warning"}
FINGERPRINT = "jaxlint/v1"  # partialFingerprints key: rule, file and the line's text, not its number


def render_sarif(diagnostics: list[Diagnostic], lines: dict[str, list[str]] | None = None) -> str:
    rules = rule_descriptors()
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    run = {
        "tool": {
            "driver": {
                "name": "jaxlint",
                "version": __version__,
                "semanticVersion": __version__,
                **({"informationUri": repository_url()} if repository_url() else {}),
                "rules": rules,
            }
        },
        "originalUriBaseIds": {SOURCE_ROOT: {"uri": Path.cwd().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [
            sarif_result(d, index, fingerprint) for d, fingerprint in fingerprints(diagnostics, lines or {})
        ],
    }
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2) + "\n"


def rule_descriptors() -> list[dict[str, Any]]:
    """Every rule (and the meta codes for unreadable or unparsable files) as SARIF descriptors."""
    descriptors = [
        _descriptor(code, name, META_DOCS[code][0], "error", None)
        for code, name in sorted(META_CODES.items())
    ]
    for rule in all_rules():
        what = rule.docs().get("What it does", rule.message)
        descriptors.append(_descriptor(rule.code, rule.name, rule.message, rule.severity, what))
    return descriptors


def _descriptor(code: str, name: str, summary: str, severity: str, what: str | None) -> dict[str, Any]:
    url = rule_url(code, name)
    see = url or f"`jaxlint rule {code}`"
    descriptor: dict[str, Any] = {
        "id": code,
        "name": name,
        "shortDescription": {"text": summary},
        "help": {
            "text": f"{what or summary}\n\nSee {see}",
            "markdown": f"{what or summary}\n\n" + (f"[{code}]({url})" if url else see),
        },
        "defaultConfiguration": {"level": LEVELS.get(severity, "warning")},
        "properties": {"tags": ["jax"]},
    }
    if url:
        descriptor["helpUri"] = url
    if what:
        descriptor["fullDescription"] = {"text": what}
    return descriptor


def fingerprints(diagnostics: list[Diagnostic], lines: dict[str, list[str]]) -> list[tuple[Diagnostic, str]]:
    """Each diagnostic with a fingerprint that survives lines moving: its rule, file and the
    text of its line (and how many times that triple came before), hashed."""
    seen: Counter[str] = Counter()
    paired = []
    for diagnostic in diagnostics:
        rows = lines.get(diagnostic.filename, [])
        row = diagnostic.file_row or diagnostic.location.row
        text = rows[row - 1].strip() if 0 < row <= len(rows) else str(row)
        where = f"{diagnostic.code}\0{display_path(diagnostic.filename)}\0{diagnostic.cell}\0{text}"
        digest = hashlib.sha256(where.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        seen[digest] += 1
        paired.append((diagnostic, f"{digest}:{seen[digest]}"))
    return paired


def sarif_result(diagnostic: Diagnostic, rule_index: dict[str, int], fingerprint: str = "") -> dict[str, Any]:
    artifact = artifact_location(diagnostic.filename)
    start, end = diagnostic.location, diagnostic.end_location
    message = diagnostic.message
    if diagnostic.cell is not None:  # a notebook: the region is in the .ipynb file, the cell is said
        message = f"cell {diagnostic.cell}, line {start.row}: {message}"
        row = diagnostic.file_row or start.row
        start, end = Location(row, start.column), Location(row, max(end.column, start.column))
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "level": LEVELS.get(diagnostic.severity, "warning"),
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": region(start, end)}}],
    }
    if fingerprint:
        result["partialFingerprints"] = {FINGERPRINT: fingerprint}
    if diagnostic.cell is not None:
        result["properties"] = {"cell": diagnostic.cell, "cellLine": diagnostic.location.row}
    if diagnostic.code in rule_index:
        result["ruleIndex"] = rule_index[diagnostic.code]
    # a notebook fix's edits are in cell rows, which a SARIF replacement in the .ipynb cannot say
    if diagnostic.fix is not None and diagnostic.fix.edits and diagnostic.cell is None:
        result["fixes"] = [sarif_fix(diagnostic.fix, artifact)]
    return result


def sarif_fix(fix: Fix, artifact: dict[str, str]) -> dict[str, Any]:
    replacements = [
        {"deletedRegion": region(edit.location, edit.end_location), "insertedContent": {"text": edit.content}}
        for edit in fix.edits
    ]
    description = f"{fix.message} ({fix.applicability.value} fix)"
    return {
        "description": {"text": description},
        "artifactChanges": [{"artifactLocation": artifact, "replacements": replacements}],
    }


def region(start: Location, end: Location) -> dict[str, int]:
    """A SARIF region; an empty span (an insertion) keeps ``endColumn == startColumn``."""
    end = max(end, start)
    return {
        "startLine": start.row,
        "startColumn": start.column,
        "endLine": end.row,
        "endColumn": end.column,
    }


def artifact_location(filename: str) -> dict[str, str]:
    """A relative URI under ``%SRCROOT%`` (the working directory), else an absolute ``file:`` URI.
    The name's bytes are percent-encoded as the file system has them (a name that is not UTF-8
    keeps its bytes)."""
    absolute = Path(os.path.abspath(filename))
    try:
        relative = absolute.relative_to(Path.cwd())
    except ValueError:
        return {"uri": "file://" + quote(os.fsencode(absolute.as_posix()))}
    return {"uri": quote(os.fsencode(relative.as_posix())), "uriBaseId": SOURCE_ROOT}
