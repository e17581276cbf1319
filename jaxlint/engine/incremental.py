"""Incremental linting for the editor: after an edit, parse and walk only the statements it touched.

A module-level statement starts at column 0, at bracket depth 0, right after the previous
statement's last line, where the tokenizer is in the state it has at the start of a file. So text
that parses alone parses to the same nodes inside the file, provided what follows it is an
unchanged statement that was already a statement of its own (it cannot begin with ``else``,
``except`` and the like, which are never statements). The parser splits the last version into
*regions*, each a run of top-level statements with the comments and blank lines after them, parses
the regions an edit touched (padded with blank lines, so positions come out as in the whole file)
and splices the result between the untouched statements, whose nodes are reused: when the edit
added or removed lines, those after it are moved in place (cheaper than parsing them again, and
the scope walk can still replay them), so a tree is valid only until the next version is parsed.
Whenever the argument might not hold (an edit of the first region, which holds any
``__future__`` import, or a region that does not parse alone) the whole file is parsed. The
scope walk then replays what it found in each statement the parser reused
(:class:`~jaxlint.semantic.scopes.ScopeCache`); the rest of the model and the rules run on the
whole module, as they always do.
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass
from typing import Any

from jaxlint.engine.astutil import parse_quietly
from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.linter import parse, split_lines
from jaxlint.semantic.scopes import ScopeCache, child_fields


@dataclass(frozen=True)
class _Version:
    """A parsed version of the document: its physical lines (without their ends) and its tree."""

    lines: list[str]
    tree: ast.Module


@dataclass(frozen=True)
class _Regions:
    """Where the regions of a tree start (1-based lines) and their first statements' indices."""

    starts: list[int]
    first_statements: list[int]


class Incremental:
    """One open document's state between lints, so that the next lint redoes only what an edit
    touched: its parser, and its scope walk's cache (the walk replays the statements the parser
    reused)."""

    def __init__(self) -> None:
        self.parser = IncrementalParser()
        self.scopes = ScopeCache()


class IncrementalParser:
    """Parses successive versions of one document, reusing the statements an edit left alone
    (each call may move the nodes of the tree it returned last: keep only the latest)."""

    def __init__(self) -> None:
        self._last: _Version | None = None

    def parse(self, source: str, path: str) -> ast.Module | Diagnostic:
        """The tree of ``source`` (exactly what ``ast.parse`` gives), or its syntax error."""
        lines = split_lines(source)
        last = self._last
        tree = _reparse_edited(last, lines) if last is not None else None
        if tree is None:
            parsed = parse(source, path)
            if isinstance(parsed, Diagnostic):
                return parsed  # the last good version stays the base of the next edit
            tree = parsed
        self._last = _Version(lines, tree)
        return tree


def _reparse_edited(last: _Version, lines: list[str]) -> ast.Module | None:
    """``lines`` parsed by re-parsing only the regions of ``last`` they changed; None when that
    is not possible (the whole file must be parsed)."""
    old = last.lines
    same_start = _common_prefix(old, lines)
    if same_start == len(old) == len(lines):
        return last.tree
    same_end = _common_suffix(old, lines, limit=min(len(old), len(lines)) - same_start)
    first_changed = same_start + 1  # 1-based, in both versions
    last_changed = len(old) - same_end  # 1-based, in the old version; first_changed - 1: an insertion
    regions = _regions(last.tree)
    first = _region_of(regions, max(min(first_changed, last_changed), 1))
    final = _region_of(regions, max(last_changed, first_changed - 1, 1))
    if first == 0:
        return None  # leading comments, the docstring and future imports: parse the whole file
    moved = len(lines) - len(old)
    keeps_tail = final + 1 < len(regions.starts)
    start = regions.starts[first]
    end = regions.starts[final + 1] - 1 + moved if keeps_tail else len(lines)
    edited = _parse_at(lines, start, end)
    if edited is None:
        return None  # (nothing was moved: the last version stays intact)
    body = last.tree.body
    head = body[: regions.first_statements[first]]
    tail = body[regions.first_statements[final + 1] :] if keeps_tail else []
    if moved:
        _move(tail, moved)
    return ast.Module(body=[*head, *edited.body, *tail], type_ignores=[])


def _parse_at(lines: list[str], start: int, end: int) -> ast.Module | None:
    """Lines ``start``..``end`` (1-based, inclusive) parsed alone, with their positions in the file."""
    text = "\n" * (start - 1) + "\n".join(lines[start - 1 : end]) + ("\n" if end < len(lines) else "")
    return parse_quietly(text)


def _move(statements: list[ast.stmt], lines: int) -> None:
    """Move ``statements``, and every node in them, ``lines`` lines down (up when negative)."""
    stack: list[Any] = list(statements)
    pop, push, node_class = stack.pop, stack.append, ast.AST
    while stack:
        node = pop()
        kind = type(node)
        if "end_lineno" in kind._attributes:
            node.lineno += lines
            if node.end_lineno is not None:
                node.end_lineno += lines
        for name in child_fields(kind):
            value: Any = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, node_class):
                        push(item)
            elif isinstance(value, node_class):
                push(value)


def _regions(tree: ast.Module) -> _Regions:
    """Region 0 starts at line 1; each other region starts at a statement that begins on a line
    after the previous statement ends (statements sharing a line stay in one region)."""
    starts, first_statements = [1], [0]
    previous_end = 0
    for index, statement in enumerate(tree.body):
        begin = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
        if index > 0 and begin > previous_end:
            starts.append(begin)
            first_statements.append(index)
        previous_end = max(previous_end, statement.end_lineno or statement.lineno)
    first_statements.append(len(tree.body))  # the end of the last region
    return _Regions(starts, first_statements)


def _region_of(regions: _Regions, line: int) -> int:
    """The index of the region holding ``line``."""
    return bisect.bisect_right(regions.starts, line) - 1


def _common_prefix(old: list[str], new: list[str]) -> int:
    count = 0
    for old_line, new_line in zip(old, new):
        if old_line != new_line:
            break
        count += 1
    return count


def _common_suffix(old: list[str], new: list[str], limit: int) -> int:
    count = 0
    while count < limit and old[-1 - count] == new[-1 - count]:
        count += 1
    return count
