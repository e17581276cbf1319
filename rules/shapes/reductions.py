"""How a value is consumed, for fixes that pad or fill it: a value whose every use is one
reduction (``y.sum()``) can be padded with that reduction's identity and give the same result."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context

IDENTITIES = {"sum": "0", "prod": "1"}  # the padding a reduction does not see


def reduced_by(node: ast.expr, ctx: Context, through_items: bool = False) -> str | None:
    """The one reduction the value of ``node`` meets: ``jnp.unique(x).sum()``, ``jnp.sum(jnp.unique(x))``,
    or ``u = jnp.unique(x)`` read only as ``u.sum()`` or ``jnp.sum(u)``. ``through_items``: of an
    item of the result too (``jnp.nonzero(m)[0].sum()``)."""
    result: ast.expr = node
    ancestors = list(ctx.ancestors())
    while (
        through_items
        and ancestors
        and isinstance(ancestors[0], ast.Subscript)
        and ancestors[0].value is result
    ):
        result = ancestors.pop(0)  # pyright: ignore[reportAssignmentType]
    parents = ancestors[:2]
    if len(parents) == 2 and isinstance(parents[0], ast.Attribute) and isinstance(parents[1], ast.Call):
        return reduction_of(parents[1], result)
    if parents and isinstance(parents[0], ast.Call):
        return reduction_called(ctx, parents[0], result)
    if parents and isinstance(parents[0], ast.Assign) and parents[0].value is result:
        targets = parents[0].targets
        if through_items and len(targets) == 1 and isinstance(targets[0], (ast.Tuple, ast.List)):
            # `(idx,) = jnp.where(m)`: each item, read only through the same reduction
            names = [t.id if isinstance(t, ast.Name) else None for t in targets[0].elts]
            found = {name_reduction(ctx, n) if n is not None else None for n in names}
            return found.pop() if len(found) == 1 else None
        return only_reduction(ctx, parents[0])
    return None


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
