"""The layer construction a called expression stands for (``nn.Dropout(0.1)(x)``, ``drop(x)``,
``self.drop(x)``), for the rules about how library layers are called (JAX627, JAX632) and the linen module
run (JAX628, JAX629)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.engine.context import Context
from jaxlint.semantic.api import LAYER_MODE_KEYWORDS as MODE_KEYWORDS
from jaxlint.semantic.scopes import Scope


def called_construction(
    ctx: Context,
    func: ast.expr,
    scope: Scope | None = None,
    self_class: Callable[[str], ast.ClassDef | None] | None = None,
) -> tuple[ast.Call, Scope] | None:
    """The layer construction a called expression is: the construction itself
    (``nn.Dropout(0.1)(x)``), a name bound once to one, or ``self.attr`` that ``setup`` (or
    ``__init__``) alone stores one in; with the scope it is written in. ``scope`` is where
    ``func`` is written (the current one by default); ``self_class`` says which class a name
    is the instance of (by default, the first parameter of the method around ``scope``)."""
    scope = scope or ctx.scope
    if isinstance(func, ast.Call):
        return func, scope
    if isinstance(func, ast.Name):
        found = scope.bound_value(func.id)
        value, owner = found if found is not None else (None, scope)
        return (value, owner) if isinstance(value, ast.Call) else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        name = func.value.id
        cls = self_class(name) if self_class is not None else ctx.model.class_of_self(scope, name)
        held = None if cls is None else ctx.model.held_value(cls, func.attr)
        if held is None:
            return None
        method, value = held
        written = ctx.model.index.scopes.get(method, ctx.model.index.module)
        return (value, written) if isinstance(value, ast.Call) else None
    return None


def dropout_training(construction: ast.Call) -> bool:
    """Whether the construction leaves the layer in training mode with a rate above zero:
    no mode given (or ``False``), a literal positive rate (or the default)."""
    if any(k.arg is None for k in construction.keywords) or any(
        isinstance(a, ast.Starred) for a in construction.args
    ):
        return False
    given = {k.arg: k.value for k in construction.keywords}
    mode = [given.get(m) for m in MODE_KEYWORDS] + construction.args[1:2]
    if any(m is not None and not (isinstance(m, ast.Constant) and m.value is False) for m in mode):
        return False
    rate = given.get("p", construction.args[0] if construction.args else None)
    if rate is None:
        return True  # the default, 0.5
    value = rate.value if isinstance(rate, ast.Constant) else None
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
