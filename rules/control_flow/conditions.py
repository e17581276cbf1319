"""When Python calls ``bool()`` on a condition, and whether that hits a tracer."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.fixing.plans import MarkStatic
from jaxlint.semantic.values import is_container, is_traced

from ..support.explain import static_request


def converts_tracer(ctx: Context, test: ast.expr) -> ast.expr | None:
    """The part of an ``if``/``while``/``assert`` condition that ``bool()`` would call on a tracer.

    ``a and b`` and ``not a`` convert each operand; anything else is converted as a whole.
    """
    if isinstance(test, ast.BoolOp):
        for operand in test.values:
            found = converts_tracer(ctx, operand)
            if found is not None:
                return found
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return converts_tracer(ctx, test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) > 1:
        return test if any(is_traced(ctx.value(part)) for part in [test.left, *test.comparators]) else None
    value = ctx.value(test)
    return test if is_traced(value) and not is_container(value) else None


def static_flag_parameter(ctx: Context, expr: ast.expr) -> MarkStatic | None:
    """A jitted parameter whose traced value is used as a flag (here, or passed on to this helper
    by its jitted caller): it belongs in static_argnames."""
    return static_request(ctx, expr.id) if isinstance(expr, ast.Name) else None


def compared_with_strings(ctx: Context, test: ast.expr) -> ast.Name | None:
    """The traced name ``test`` compares with string constants (``kind == "relu"``, ``mode in
    ("a", "b")``), alone or as part of ``and``/``or``/``not``: the callers pass a Python string
    there, which no transformation can trace."""
    if isinstance(test, ast.BoolOp):
        return next(filter(None, (compared_with_strings(ctx, v) for v in test.values)), None)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return compared_with_strings(ctx, test.operand)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, right = test.left, test.comparators[0]
    name, other = (left, right) if isinstance(left, ast.Name) else (right, left)
    if not isinstance(name, ast.Name) or not is_traced(ctx.value(name)) or not _strings(other):
        return None
    return name


def _strings(expr: ast.expr) -> bool:
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return bool(expr.elts) and all(_strings(e) for e in expr.elts)
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str)
