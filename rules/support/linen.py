"""flax linen modules made in plain Python code: which construction an expression is, and
whether the module needs ``init``/``apply`` to be called (it has parameters)."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.semantic import measured
from jaxlint.semantic.scopes import Scope

COMPACT = frozenset({"flax.linen.compact", "flax.linen.module.compact"})


def linen_construction(ctx: Context, expr: ast.expr) -> ast.Call | None:
    """The ``Module(...)`` call ``expr`` is (or a name bound once to, in this scope or around
    it), when that module has parameters: a flax linen layer, or a linen module class of this
    file with a ``@nn.compact`` ``__call__`` or a ``setup``. Which layers have parameters is
    measured (``tools/measure_jax_api.py``: called unbound, they raise)."""
    if isinstance(expr, ast.Name):
        owner = ctx.scope.lookup(expr.id)
        value = None if owner is None else owner.single_value(expr.id)
        if not isinstance(value, ast.Call) or owner is None:
            return None
        return value if _has_parameters(ctx, value, owner) else None
    if isinstance(expr, ast.Call) and _has_parameters(ctx, expr, ctx.scope):
        return expr
    return None


def _has_parameters(ctx: Context, call: ast.Call, scope: Scope) -> bool:
    if ctx.model.qualname(call.func, scope) in measured.linen_layers_with_parameters():
        return True
    if not isinstance(call.func, ast.Name):
        return False
    owner = scope.lookup(call.func.id)
    cls = None if owner is None else owner.single_def(call.func.id)
    if not isinstance(cls, ast.ClassDef) or not ctx.model.is_flax_module(cls):
        return False
    class_scope = ctx.model.index.scopes.get(cls)
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef) and statement.name == "setup":
            return True
        if isinstance(statement, ast.FunctionDef) and statement.name == "__call__":
            return any(
                ctx.model.qualname(d, class_scope or scope) in COMPACT for d in statement.decorator_list
            )
    return False


def module_class(ctx: Context, call: ast.Call, scope: Scope) -> ast.ClassDef | None:
    """The flax linen module class of this file that ``call`` (written in ``scope``) constructs."""
    if not isinstance(call.func, ast.Name):
        return None
    owner = scope.lookup(call.func.id)
    cls = None if owner is None else owner.single_def(call.func.id)
    return cls if isinstance(cls, ast.ClassDef) and ctx.model.is_flax_module(cls) else None


def method_named(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    """The method ``name`` the class body defines itself (None where a base class has it)."""
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef) and statement.name == name:
            return statement
    return None


def field_defaults(cls: ast.ClassDef) -> dict[str, ast.expr | None]:
    """The dataclass fields a linen module class declares, in order, with their defaults."""
    return {
        statement.target.id: statement.value
        for statement in cls.body
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
    }


# flax linen's lifted transformations that take `variable_axes` and `split_rngs`
LIFTED = frozenset({"flax.linen.vmap", "flax.linen.scan"})


def literal_entry(mapping: ast.expr | None, key: str) -> ast.expr | None:
    """The value of ``key`` in a dict display (None where it is not one, or lacks the key)."""
    if not isinstance(mapping, ast.Dict):
        return None
    return next(
        (
            v
            for k, v in zip(mapping.keys, mapping.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == key
        ),
        None,
    )
