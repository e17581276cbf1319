"""What the calls of a function of this module pass it."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.scopes import Scope

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
