"""Small facts about ``ast`` node positions."""

from __future__ import annotations

import ast

Position = tuple[int, int]


def span(node: ast.AST) -> tuple[Position, Position]:
    """``((row, col), (end_row, end_col))`` of a node that has a position."""
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    end = (getattr(node, "end_lineno", None) or start[0], getattr(node, "end_col_offset", None) or start[1])
    return start, end


def encloses(outer: ast.AST, inner: ast.AST) -> bool:
    """Whether ``inner``'s text lies within ``outer``'s (a node encloses itself)."""
    (outer_start, outer_end), (inner_start, inner_end) = span(outer), span(inner)
    return outer_start <= inner_start and inner_end <= outer_end


def callee_leaf(call: ast.Call) -> str | None:
    """The last name of a call's callee (``exp`` in ``np.exp(x)``): a cheap gate before resolving."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None
