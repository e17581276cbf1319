"""Jupyter notebooks: their code cells are checked as one module, findings reported per cell.

IPython magics (``%timeit``, ``!pip``, ``?obj``) are not Python: each such line becomes a comment
of the same indentation, so rows stay aligned. Notebooks are checked, not fixed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from jaxlint.engine.diagnostics import Diagnostic, Location

_MAGIC = re.compile(r"^(\s*)([%!?]|.*\?\s*$)")


@dataclass
class Notebook:
    """The code cells of a notebook as one Python source, and where each cell starts in it."""

    source: str
    starts: list[tuple[int, int]]  # (first row in ``source``, cell number, 1-based among all cells)

    def locate(self, row: int) -> tuple[int, int]:
        """The cell number and the row within that cell of a row of ``source``."""
        cell, first = 1, 1
        for start, number in self.starts:
            if start > row:
                break
            first, cell = start, number
        return cell, row - first + 1

    def to_cells(self, diagnostic: Diagnostic) -> Diagnostic:
        cell, row = self.locate(diagnostic.location.row)
        shift = diagnostic.location.row - row
        end = diagnostic.end_location
        return replace(
            diagnostic,
            cell=cell,
            location=Location(row, diagnostic.location.column),
            end_location=Location(end.row - shift, end.column),
            noqa_row=None if diagnostic.noqa_row is None else diagnostic.noqa_row - shift,
            fix=None,
        )


class NotebookError(ValueError):
    """The file is not a readable notebook (the message says why, in one line)."""


def read_notebook(raw: bytes) -> Notebook:
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise NotebookError(f"not a valid notebook: {error}") from None
    if not isinstance(data, dict):
        raise NotebookError("not a valid notebook: the top level is not a JSON object")
    cells = data.get("cells")
    if not isinstance(cells, list):
        raise NotebookError("not a valid notebook: `cells` is missing or not a list")
    lines: list[str] = []
    starts: list[tuple[int, int]] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = cell.get("source", "")
        if isinstance(text, list) and all(isinstance(part, str) for part in text):
            text = "".join(text)
        elif not isinstance(text, str):
            raise NotebookError(f"not a valid notebook: the source of cell {number} is not text")
        starts.append((len(lines) + 1, number))
        lines.extend(_neutralise(line) for line in text.splitlines())
        lines.append("")  # a blank line between cells
    return Notebook("\n".join(lines) + "\n", starts)


def _neutralise(line: str) -> str:
    match = _MAGIC.match(line)
    if match is None or line.lstrip().startswith("#"):
        return line
    return f"{match.group(1)}# {line.lstrip()}"
