"""What the calls of a function of this module pass it."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.scopes import Scope

from .blocks import name_loads
from .explain import argument_expression


def passed_arguments(
    model: SemanticModel, function: FunctionInfo, name: str
) -> list[tuple[ast.expr, Scope]] | None:
    """What every call in sight of ``function`` passes for its parameter ``name``, which it never
    rebinds, each with the scope of the call (``model.calls_in_sight``). None when a call leaves
    it out, or some use of the function is out of sight."""
    if function.scope.bound.get(name) != 1 or all(p.arg != name for p in function.param_nodes()):
        return None
    calls = model.calls_in_sight(function)
    if calls is None:
        return None
    passed = []
    for call, scope in calls:
        argument = argument_expression(call, function.positional_names(), name)
        if argument is None:
            return None
        passed.append((argument, scope))
    return passed


def passes_a_string(model: SemanticModel, function: FunctionInfo, name: str) -> bool:
    """Whether some call in sight of ``function`` passes a string literal for ``name``: JAX
    raises there, at the call of the jitted function (JAX611 says so)."""
    calls = model.calls_in_sight(function) or []
    for call, _ in calls:
        argument = argument_expression(call, function.positional_names(), name)
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            return True
    return False


def local_function(ctx: Context, expr: ast.expr) -> ast.FunctionDef | ast.Lambda | None:
    """The lambda ``expr`` is, or the def of this module the name ``expr`` binds once."""
    if isinstance(expr, ast.Lambda):
        return expr
    if not isinstance(expr, ast.Name):
        return None
    owner = ctx.scope.lookup(expr.id)
    node = owner.single_def(expr.id) if owner is not None else None
    return node if isinstance(node, ast.FunctionDef) else None


ORIGIN_DEPTH = 4  # names followed to their binding, or to what the calls in sight pass


def origins(
    ctx: Context, expr: ast.expr, scope: Scope, depth: int = 0
) -> list[tuple[ast.expr, Scope]] | None:
    """What ``expr`` holds, written out, each with the scope it is written in: ``expr`` itself
    where it is not a name; for a name bound once, what it is bound to; for a parameter, what
    every call in sight passes (:func:`passed_arguments`); each followed the same way. None
    where some name is none of these (bound several times, or called out of sight)."""
    if not isinstance(expr, ast.Name):
        return [(expr, scope)]
    if depth >= ORIGIN_DEPTH:
        return None
    bound = scope.bound_value(expr.id)
    if bound is not None:
        return origins(ctx, bound[0], bound[1], depth + 1)
    owner = scope.lookup(expr.id)
    function = ctx.model.function_of(owner) if owner is not None and owner.kind == "function" else None
    passed = passed_arguments(ctx.model, function, expr.id) if function is not None else None
    if not passed:
        return None
    found: list[tuple[ast.expr, Scope]] = []
    for argument, where in passed:
        more = origins(ctx, argument, where, depth + 1)
        if more is None:
            return None
        found.extend(more)
    return found


def calls_of_result(ctx: Context, vmapped: ast.Call) -> list[ast.Call]:
    """The calls of what ``jax.vmap(...)`` returns: at once, or through the one name bound to it."""
    parent = ctx.parent
    if isinstance(parent, ast.Call) and parent.func is vmapped:
        return [parent]
    if not (
        isinstance(parent, ast.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Name)
    ):
        return []
    name = parent.targets[0].id
    if ctx.scope.bound.get(name) != 1:
        return []
    return [
        holder for use, holder in name_loads(ctx, name) if isinstance(holder, ast.Call) and holder.func is use
    ]
