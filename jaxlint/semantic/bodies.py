"""The bodies of lax loops: which parameter is the carry, how the body unpacks it, and which
value differs on every step (a ``fori_loop`` index, a ``while_loop`` counter)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from jaxlint.semantic.functions import FunctionInfo

# lax loops whose body runs once per step: which parameter is the carry, and which element of
# the body's result is the new carry (None: the whole result; carry None: the body has no carry)
LOOPING_BODIES: dict[str, tuple[int | None, int | None]] = {
    "jax.lax.fori_loop": (1, None),
    "jax.lax.while_loop": (0, None),
    "jax.lax.scan": (0, 0),
    "flax.nnx.scan": (0, 0),
    "jax.lax.map": (None, None),
}

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_NESTED_TYPES = frozenset(_NESTED)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}  # each node type's fields, last first


def carry_parameter(info: FunctionInfo) -> str | None:
    """The parameter of a lax loop body that receives the carry."""
    position = LOOPING_BODIES.get(info.repeated_by or "", (None, None))[0]
    names = info.body_params()
    return names[position] if position is not None and position < len(names) else None


def carry_unpacking(body: list[ast.stmt], carry: str) -> list[ast.expr] | None:
    """The targets of ``a, b, c = carry``, the first top-level statement of ``body`` unpacking
    the carry, when nothing in the body binds ``carry`` again."""
    if stores(body, carry) > 0:
        return None
    for statement in body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Tuple)
            and isinstance(statement.value, ast.Name)
            and statement.value.id == carry
        ):
            return statement.targets[0].elts
    return None


def step_counter(info: FunctionInfo) -> str | None:
    """The name that differs on every step of a lax loop body and that the body never
    rebinds: a ``fori_loop`` body's index, or the counter a ``while_loop`` body unpacks from its
    carry and hands back as ``count + k`` (``k`` a nonzero integer) from every ``return``."""
    node = info.node
    positions = info.body_params()
    if isinstance(node, ast.Lambda):  # its parameters cannot be rebound
        return positions[0] if info.repeated_by == "jax.lax.fori_loop" and len(positions) == 2 else None
    if not isinstance(node, ast.FunctionDef):
        return None
    if info.repeated_by == "jax.lax.fori_loop" and len(positions) == 2:
        return positions[0] if stores(node.body, positions[0]) == 0 else None
    if info.repeated_by == "jax.lax.while_loop" and len(positions) == 1:
        return _while_counter(node.body, positions[0])
    return None


def _while_counter(body: list[ast.stmt], carry: str) -> str | None:
    unpacked = carry_unpacking(body, carry)
    returns = [n for n in own_nodes(body) if isinstance(n, ast.Return)]
    if unpacked is None or not returns:
        return None
    for position, target in enumerate(unpacked):
        if (
            isinstance(target, ast.Name)
            and all(_steps(r.value, position, target.id, len(unpacked)) for r in returns)
            and stores(body, target.id) == 1  # the unpacking only
        ):
            return target.id
    return None


def _steps(value: ast.expr | None, position: int, name: str, length: int) -> bool:
    """Whether ``value`` is a tuple of ``length`` whose item ``position`` is ``name ± k``."""
    if not isinstance(value, ast.Tuple) or len(value.elts) != length:
        return False
    item = value.elts[position]
    return (
        isinstance(item, ast.BinOp)
        and isinstance(item.op, (ast.Add, ast.Sub))
        and isinstance(item.left, ast.Name)
        and item.left.id == name
        and isinstance(item.right, ast.Constant)
        and type(item.right.value) is int
        and item.right.value != 0
    )


def stores(body: list[ast.stmt], name: str) -> int:
    """How many times the body (not the functions nested in it) binds ``name``."""
    return sum(
        (isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load))
        or (isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name)
        for n in own_nodes(body)
    )


def own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of ``body``, not descending into nested functions or classes, in the order of
    a depth-first walk by ``ast.iter_child_nodes`` (which this inlines: it is most of the cost)."""
    stack: list[ast.AST] = list(reversed(body))
    pop, push, node_class, fields_of = stack.pop, stack.append, ast.AST, _CHILD_FIELDS
    while stack:
        node = pop()
        yield node
        kind = type(node)
        if kind in _NESTED_TYPES:
            continue
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(reversed(kind._fields))
        for name in fields:
            value: Any = getattr(node, name, None)
            if value.__class__ is list:
                for item in reversed(value):
                    if isinstance(item, node_class):
                        push(item)
            elif isinstance(value, node_class):
                push(value)


def returned_expressions(node: ast.AST) -> list[ast.expr]:
    """The values a function returns, one per ``return`` (a lambda's body): empty when some
    ``return`` has no value, when there is none, or for a generator."""
    if isinstance(node, ast.Lambda):
        return [node.body]
    body = getattr(node, "body", [])
    nodes = list(own_nodes(body if isinstance(body, list) else []))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return []
    returns = [n for n in nodes if isinstance(n, ast.Return)]
    if any(r.value is None for r in returns):
        return []
    return [r.value for r in returns if r.value is not None]
