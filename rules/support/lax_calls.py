"""How a ``lax`` control-flow call is written (JAX405, JAX637)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.engine.astutil import call_argument
from jaxlint.engine.context import Context
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.functions import FunctionInfo

WHILE_LOOP = "jax.lax.while_loop"


def swapped_while_functions(ctx: Context, call: ast.Call) -> tuple[FunctionInfo, FunctionInfo] | None:
    """For ``lax.while_loop(body, cond, init)``: the function given as ``cond_fun`` and the one
    given as ``body_fun``, when they are the other way round: the body's place holds a
    function whose every return is a comparison (a loop condition), and the condition's place
    one whose every return is not (a new carry)."""
    if ctx.qualname(call.func) != WHILE_LOOP:
        return None
    given = [call_argument(call, 0, "cond_fun"), call_argument(call, 1, "body_fun")]
    found = [ctx.model.resolve_function(f, ctx.scope) if f is not None else None for f in given]
    if found[0] is None or found[1] is None or found[0][1] or found[1][1]:
        return None
    as_cond, as_body = found[0][0], found[1][0]
    if _all_returns(as_body, _compares) and _all_returns(as_cond, lambda r: not _compares(r)):
        return as_cond, as_body
    return None


def _compares(value: ast.expr) -> bool:
    """A comparison, or ``and``/``or``/``not`` of some: a loop condition's value."""
    return isinstance(value, (ast.Compare, ast.BoolOp)) or (
        isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not)
    )


def _all_returns(function: FunctionInfo, test: Callable[[ast.expr], bool]) -> bool:
    values = returned_expressions(function.node)
    return bool(values) and all(test(v) for v in values)
