"""The README's first command, `jaxlint check examples/`, shows a finding of every family,
and stays silent on the corrected `*_fixed` versions next to each hazard."""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT


def fixed_function_lines() -> set[tuple[str, int]]:
    lines = set()
    for path in (ROOT / "examples").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_fixed"):
                end = node.end_lineno or node.lineno
                lines |= {(path.name, row) for row in range(node.lineno, end + 1)}
    return lines


@pytest.mark.slow
def test_examples_show_every_family(jaxlint_cmd: list[str]) -> None:
    result = subprocess.run(
        [*jaxlint_cmd, "check", "--output-format", "json", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    diagnostics = json.loads(result.stdout)
    assert {d["code"][:4] for d in diagnostics} >= {"JAX1", "JAX2", "JAX3", "JAX4", "JAX5", "JAX6"}
    flagged = {(Path(d["filename"]).name, d["location"]["row"]) for d in diagnostics}
    assert not flagged & fixed_function_lines()
