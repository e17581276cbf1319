"""Jupyter notebooks: their code cells are checked as one module, findings reported per cell,
and fixed cell by cell (outputs, metadata and magics kept).

Cells are read the way IPython reads them before running them:

- a cell indented as a whole is dedented (IPython's ``leading_indent``);
- a cell magic (``%%bash``, ``%%html``, ``%%writefile``...) whose body is not Python leaves the
  cell out; ``%%time``, ``%%timeit``, ``%%capture``... keep their Python body;
- line magics and shell escapes (``%pip``, ``!ls``, ``x = !ls``, ``obj?``), at any indentation,
  stand for a statement that does nothing (``pass``), so an ``if IN_COLAB:`` block that only
  installs a package still parses;
- ``%timeit f(x)`` and ``%time f(x)`` are timings of ``f(x)`` (``timeit.timeit(lambda: f(x))``),
  so a jitted call timed without waiting for its result is reported like any other timing.

Every transformed line carries a ``# jaxlint-magic:N`` marker and every cell starts with a
``# jaxlint-cell:N`` line, so rows and columns map back to the cell, and a fixed module splits
back into its cells with the original magics restored.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field, replace
from functools import cached_property

from jaxlint.engine.diagnostics import Diagnostic, Edit, Fix, Location

PYTHON_CELL_MAGICS = frozenset(
    {"time", "timeit", "capture", "prun", "debug", "memit", "mprun", "tensorflow_version"}
)
_CELL_MARKER = re.compile(r"^# jaxlint-cell:(\d+)$")
_MAGIC_MARKER = re.compile(r"  # jaxlint-magic:(\d+)$|^# jaxlint-magic:(\d+)$")
_LINE_MAGIC = re.compile(r"^(\s*)(?:%|!|\?)")
_ASSIGNED_MAGIC = re.compile(r"^(\s*)([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*[%!]")
_HELP = re.compile(r"^(\s*)[\w.]+\?{1,2}\s*$")
_TIMING = re.compile(r"^(\s*)%(timeit|time)\b((?:\s+-[a-z](?:\s+\d+)?)*)\s+(\S.*)$")
TIMEIT_ALIAS = "__jaxlint_timeit__"
_LINE_REFERENCE = re.compile(r"\bline (\d+)\b")


@dataclass
class Timing:
    """A ``%timeit``/``%time`` line written as a ``timeit`` call: how to say it back."""

    generated: str  # the call as the module spells it
    original: str  # the magic as the cell spells it
    statement_column: int = 1  # where the timed statement starts in the (dedented) line
    magic_column: int = 1  # where the magic starts


@dataclass
class Notebook:
    """The code cells of a notebook as one Python module, and how its rows map back."""

    source: str
    rows: list[tuple[int, int]] = field(default_factory=list)  # module row - 1 -> (cell, row in cell)
    # module row of a timing magic -> (first column that moved, how far, the magic's own column)
    shifts: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    timings: dict[int, Timing] = field(default_factory=dict)  # module row -> the timing magic there
    originals: dict[int, str] = field(default_factory=dict)  # magic id -> the line it stands for
    indents: dict[int, str] = field(default_factory=dict)  # cell -> the indentation IPython strips
    file_rows: dict[tuple[int, int], int] = field(default_factory=dict)  # (cell, row) -> row in the file
    data: dict[str, object] = field(default_factory=dict)  # the notebook's JSON
    lists: dict[int, bool] = field(default_factory=dict)  # cell -> whether its source is a list
    raw: str = ""
    pending: list[Timing] = field(default_factory=list)  # timings not yet given their rows

    def locate(self, row: int) -> tuple[int, int]:
        """The cell number and the row within that cell of a row of ``source``."""
        if 0 < row <= len(self.rows):
            return self.rows[row - 1]
        return (self.rows[-1][0], self.rows[-1][1]) if self.rows else (1, row)

    def to_cells(self, diagnostic: Diagnostic) -> Diagnostic:
        """``diagnostic`` with its locations in cell coordinates, its message saying cells."""
        cell, row = self.locate(diagnostic.location.row)
        end_cell, end_row = self.locate(diagnostic.end_location.row)
        if end_cell != cell:
            end_row = row
        message = self._message(diagnostic, cell)
        noqa_row = None if diagnostic.noqa_row is None else self.locate(diagnostic.noqa_row)[1]
        return replace(
            diagnostic,
            message=message,
            cell=cell,
            location=Location(row, self._column(diagnostic.location, cell)),
            end_location=Location(end_row, self._column(diagnostic.end_location, end_cell)),
            noqa_row=noqa_row,
            file_row=self.file_rows.get((cell, row)),
            fix=self.cell_fix(diagnostic.fix, cell),
        )

    def cell_fix(self, fix: Fix | None, cell: int) -> Fix | None:
        """``fix`` with its edits in the coordinates of ``cell``, where every edit lies in that
        cell on rows it has as written: not a magic, a cell's first line marker or a cell that
        IPython dedents (``--fix`` rewrites those cells as a whole)."""
        if fix is None or self.indents.get(cell):
            return None
        edits = []
        for edit in fix.edits:
            start, end = edit.location, edit.end_location
            if not (self._as_written(start.row, cell) and self._as_written(end.row, cell)):
                return None
            edits.append(
                Edit(
                    edit.content,
                    Location(self.locate(start.row)[1], start.column),
                    Location(self.locate(end.row)[1], end.column),
                )
            )
        return replace(fix, edits=tuple(edits))

    @cached_property
    def _lines(self) -> list[str]:
        return self.source.split("\n")

    def _as_written(self, row: int, cell: int) -> bool:
        lines = self._lines
        if not 0 < row <= len(lines) or self.locate(row)[0] != cell:
            return False
        line = lines[row - 1]
        return row not in self.shifts and not _CELL_MARKER.match(line) and not _MAGIC_MARKER.search(line)

    def _column(self, location: Location, cell: int) -> int:
        """The column in the cell as written (before IPython's dedent and our timing rewrite)."""
        column = location.column
        shift = self.shifts.get(location.row)
        if shift is not None:
            start, delta, own = shift
            column = max(1, column - delta) if column >= start else own
        return column + len(self.indents.get(cell, ""))

    def _message(self, diagnostic: Diagnostic, cell: int) -> str:
        message = diagnostic.message
        timing = self.timings.get(diagnostic.location.row)
        if timing is not None:
            message = message.replace(timing.generated, timing.original).replace("time `lambda: ", "time `")

        def say_cell(match: re.Match[str]) -> str:
            target_cell, target_row = self.locate(int(match.group(1)))
            if target_cell == cell:
                return f"line {target_row}"
            return f"cell {target_cell}, line {target_row}"

        return _LINE_REFERENCE.sub(say_cell, message)

    def cells_from(self, fixed: str) -> str | None:
        """The notebook's JSON with its code cells replaced by the cells of ``fixed`` (this
        notebook's module after fixes), magics and indentation restored; None when the fixed
        module does not split back into the same cells."""
        cells: dict[int, list[str]] = {}
        current: list[str] | None = None
        for line in fixed.split("\n"):
            marker = _CELL_MARKER.match(line)
            if marker:
                current = cells.setdefault(int(marker.group(1)), [])
                continue
            if current is None:
                if line.strip():
                    return None  # a fix wrote above the first cell
                continue
            current.append(line)
        notebook_cells = self.data.get("cells")
        assert isinstance(notebook_cells, list)
        if set(cells) != set(self.lists):
            return None
        for number, lines in cells.items():
            cell = notebook_cells[number - 1]
            assert isinstance(cell, dict)
            while lines and not lines[-1].strip():
                lines.pop()
            text = "\n".join(self._restored(line, number) for line in lines)
            original = _cell_text(cell)
            if original.endswith("\n") and text:
                text += "\n"
            if text != original:
                cell["source"] = text.splitlines(keepends=True) if self.lists[number] else text
        return _dumps_like(self.data, self.raw)

    def _restored(self, line: str, cell: int) -> str:
        marker = _MAGIC_MARKER.search(line)
        if marker is not None:  # the line as the cell has it, indentation included
            return self.originals[int(marker.group(1) or marker.group(2))]
        indent = self.indents.get(cell, "")
        return indent + line if indent and line.strip() else line


class NotebookError(ValueError):
    """The file is not a readable notebook (the message says why, in one line)."""


def read_notebook(raw: bytes) -> Notebook:
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise NotebookError(f"not a valid notebook: {error}") from None
    if not isinstance(data, dict):
        raise NotebookError("not a valid notebook: the top level is not a JSON object")
    return notebook_from_data(data, text)


def notebook_from_data(data: dict[str, object], text: str = "") -> Notebook:
    """The notebook of already-parsed JSON ``data`` (``text``: the file it came from, for file
    rows and rewriting; empty for a notebook that lives only in an editor)."""
    cells = data.get("cells")
    if not isinstance(cells, list):
        raise NotebookError("not a valid notebook: `cells` is missing or not a list")
    notebook = Notebook("", data=data, raw=text)
    lines: list[str] = []
    source_rows = _source_rows(text)
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if not (
            isinstance(source, str) or (isinstance(source, list) and all(isinstance(p, str) for p in source))
        ):
            raise NotebookError(f"not a valid notebook: the source of cell {number} is not text")
        notebook.lists[number] = isinstance(source, list)
        lines.append(f"# jaxlint-cell:{number}")
        notebook.rows.append((number, 1))
        first_row = source_rows[number - 1] if number - 1 < len(source_rows) else None
        if first_row is not None and not _laid_out(text, first_row, source):
            first_row = None
        for row, line in enumerate(_cell_lines(notebook, number, _cell_text(cell)), start=1):
            lines.append(line)
            notebook.rows.append((number, row))
            if first_row is not None:
                notebook.file_rows[(number, row)] = first_row + (row if isinstance(source, list) else 0)
    notebook.source = "\n".join(lines) + "\n"
    _record_shifts(notebook, lines)
    return notebook


def _cell_text(cell: dict[str, object]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)  # pyright: ignore[reportUnknownArgumentType]


def _cell_lines(notebook: Notebook, cell: int, text: str) -> list[str]:
    """The cell's lines as Python (IPython's transforms; see the module docstring)."""
    raw_lines = text.splitlines()
    if raw_lines and raw_lines[0].startswith("%%"):
        magic = raw_lines[0][2:].split(maxsplit=1)[0] if raw_lines[0][2:].strip() else ""
        head = [_stand_in(notebook, raw_lines[0], "")]
        if magic not in PYTHON_CELL_MAGICS:
            return head + [_stand_in(notebook, line, "") for line in raw_lines[1:]]
        return head + _python_lines(notebook, cell, raw_lines[1:])
    return _python_lines(notebook, cell, raw_lines)


def _python_lines(notebook: Notebook, cell: int, raw_lines: list[str]) -> list[str]:
    first = next((line for line in raw_lines if line.strip()), "")
    indent = first[: len(first) - len(first.lstrip())]
    if indent and all(line.startswith(indent) or not line.strip() for line in raw_lines):
        notebook.indents[cell] = indent  # IPython dedents a cell indented as a whole
    else:
        indent = ""
    return [_python_line(notebook, line[len(indent) :], line) for line in raw_lines]


def _python_line(notebook: Notebook, line: str, original: str) -> str:
    stripped = line.lstrip()
    if not stripped or stripped.startswith("#"):
        return line
    indent = line[: len(line) - len(stripped)]
    timing = _TIMING.match(line)
    if timing is not None and _is_expression(timing.group(4)):
        return _timing_line(notebook, line, original, timing)
    assigned = _ASSIGNED_MAGIC.match(line)
    if assigned is not None:
        return _stand_in(notebook, original, f"{indent}{assigned.group(2)} = ...")
    if _LINE_MAGIC.match(line) or _HELP.match(line):
        return _stand_in(notebook, original, f"{indent}pass")
    return line


def _stand_in(notebook: Notebook, original: str, code: str) -> str:
    number = len(notebook.originals)
    notebook.originals[number] = original
    return f"{code}  # jaxlint-magic:{number}" if code else f"# jaxlint-magic:{number}"


def _timing_line(notebook: Notebook, line: str, original: str, timing: re.Match[str]) -> str:
    indent, statement = timing.group(1), timing.group(4).rstrip()
    call = f"{TIMEIT_ALIAS}.timeit(lambda: {statement})"
    notebook.pending.append(Timing(call, line.strip(), timing.start(4) + 1, len(indent) + 1))
    return _stand_in(notebook, original, f"{indent}import timeit as {TIMEIT_ALIAS}; {call}")


def _record_shifts(notebook: Notebook, lines: list[str]) -> None:
    """Where columns of a ``%timeit`` line moved, and which row each timing is on."""
    pending = list(notebook.pending)
    for row, line in enumerate(lines, start=1):
        if f"import timeit as {TIMEIT_ALIAS}; " not in line or not pending:
            continue
        timing = pending.pop(0)
        notebook.timings[row] = timing
        now = line.index("lambda: ") + len("lambda: ") + 1
        notebook.shifts[row] = (now, now - timing.statement_column, timing.magic_column)


def _is_expression(text: str) -> bool:
    try:
        ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return False
    return True


def _source_rows(text: str) -> list[int]:
    """For each cell (in order), the row of the file its ``"source"`` key is on, with the source
    lines one per row after it (as Jupyter writes notebooks)."""
    return [text.count("\n", 0, match.start()) + 1 for match in re.finditer(r'"source"\s*:', text)]


def _laid_out(text: str, row: int, source: str | list[str]) -> bool:
    """Whether the file has ``source``'s first line on the row after ``row`` (or a string source
    on ``row``), so file rows can be computed."""
    if isinstance(source, str) or not source:
        return True
    rows = text.split("\n", row + 1)
    return len(rows) > row and json.dumps(source[0])[1:-1][:40] in rows[row]


def _dumps_like(data: dict[str, object], raw: str) -> str | None:
    """``data`` as JSON in the layout of ``raw`` (Jupyter's: indent 1, UTF-8, final newline);
    None when that layout cannot be reproduced (then the notebook is not rewritten)."""
    second = raw.split("\n", 2)[1] if raw.count("\n") >= 2 else ""
    indent = len(second) - len(second.lstrip(" ")) or None
    trailing = "\n" if raw.endswith("\n") else ""
    original = json.loads(raw)
    for ascii_only in (False, True):
        if json.dumps(original, indent=indent, ensure_ascii=ascii_only) + trailing == raw:
            return json.dumps(data, indent=indent, ensure_ascii=ascii_only) + trailing
    return None
