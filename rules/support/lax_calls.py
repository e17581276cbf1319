"""How a ``lax`` control-flow call is written (JAX405, JAX511, JAX637)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.engine.astutil import call_argument
from jaxlint.engine.context import Context
from jaxlint.semantic.bodies import own_nodes, returned_expressions
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


def branch_arguments(ctx: Context, call: ast.Call, qualname: str) -> list[ast.expr] | None:
    """The branch functions a ``lax.cond`` (its two) or ``lax.switch`` (a list written there or
    bound once to a name nothing changes in place) is given; None when not written out."""
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if qualname == "jax.lax.cond":
        if len(call.args) == 5 or len(call.args) < 3:
            return None  # the old `cond(pred, true_operand, true_fun, false_operand, false_fun)`
        return list(call.args[1:3])
    if qualname == "jax.lax.switch" and len(call.args) > 1:
        table = _branch_table(ctx, call.args[1])
        return list(table.elts) if isinstance(table, (ast.List, ast.Tuple)) else None
    return None


def _branch_table(ctx: Context, expr: ast.expr) -> ast.expr:
    """The list of branches ``lax.switch`` is given: written there, or bound once to a name
    (``branches = [relu, tanh]``) that nothing changes in place."""
    found = ctx.scope.bound_value(expr.id) if isinstance(expr, ast.Name) else None
    if found is None or any(
        isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == expr.id  # pyright: ignore[reportAttributeAccessIssue]
        for n in ast.walk(found[1].node)
    ):
        return expr  # `branches.append(...)`: changed in place
    return found[0]


def raise_on_every_path(function: FunctionInfo) -> ast.stmt | None:
    """The top-level ``raise`` (or ``assert False``) a def reaches on every run: no statement
    before it can return or yield. None when some run may return."""
    body = function.node.body
    if not isinstance(body, list):
        return None
    for statement in body:
        if isinstance(statement, ast.Raise) or (
            isinstance(statement, ast.Assert)
            and isinstance(statement.test, ast.Constant)
            and not statement.test.value
        ):
            return statement
        if any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) for n in own_nodes([statement])):
            return None
    return None
