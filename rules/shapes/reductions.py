"""How a value is consumed, for fixes that pad or fill it: a value whose every use is one
reduction (``y.sum()``) can be padded with that reduction's identity and give the same result."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context

IDENTITIES = {"sum": "0", "prod": "1"}  # the padding a reduction does not see


def only_reduction(ctx: Context, assign: ast.Assign) -> str | None:
    """The method every read of the name ``assign`` binds (once) calls: ``y = ...`` whose uses are
    all ``y.sum()`` gives ``"sum"``; None for any other use, or for several methods."""
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
        return None
    return name_reduction(ctx, assign.targets[0].id)


def name_reduction(ctx: Context, name: str) -> str | None:
    """The method every read of ``name`` (bound once in the function) calls, as
    :func:`only_reduction` says."""
    if ctx.function is None or ctx.function.scope.bound.get(name) != 1:
        return None
    uses = [
        n
        for n in ast.walk(ctx.function.node)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]
    methods = {reduction_of(ctx.function.node, use) or _function_reduction(ctx, use) for use in uses}
    if len(methods) != 1:
        return None
    return methods.pop()


def reduction_of(function: ast.AST, use: ast.expr) -> str | None:
    """``sum`` when ``use`` is read as ``use.sum()`` (a method called with no arguments)."""
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.value is use
            and not node.args
            and not node.keywords
        ):
            return node.func.attr
    return None


def reduction_called(ctx: Context, call: ast.Call, operand: ast.expr) -> str | None:
    """``sum`` when ``call`` is ``jnp.sum(operand)`` (or ``prod``/``max``/``min``), nothing else passed."""
    qualname = ctx.qualname(call.func) or ""
    name = qualname.removeprefix("jax.numpy.")
    if name != qualname and name in FUNCTION_REDUCTIONS and call.args == [operand] and not call.keywords:
        return name
    return None


def _function_reduction(ctx: Context, use: ast.Name) -> str | None:
    assert ctx.function is not None
    for node in ast.walk(ctx.function.node):
        if isinstance(node, ast.Call) and any(argument is use for argument in node.args):
            return reduction_called(ctx, node, use)
    return None


FUNCTION_REDUCTIONS = frozenset({"sum", "prod", "max", "min"})
