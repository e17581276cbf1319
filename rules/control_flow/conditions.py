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
