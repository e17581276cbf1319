"""How a value is reached from a name: plain paths (a name, its fields, its constant items) and
the name they start from."""

from __future__ import annotations

import ast


def plain_path(node: ast.expr) -> bool:
    """A name, field or constant item: reading it twice reads the same value, with no effect."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def path_root(node: ast.expr) -> str | None:
    """The name a field or item path starts from: ``batch`` of ``batch.keys[0]``."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None
