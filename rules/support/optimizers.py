"""optax optimizers a module binds to a name (``opt = optax.adamw(1e-3)``), as measured facts
say they behave (JAX205, JAX618)."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.semantic.scopes import Scope

from .explain import snippet

CHAINS = frozenset({"optax.chain", "optax.named_chain"})
MAX_DEPTH = 4


def update_receiver(call: ast.Call) -> str | None:
    """``opt`` of ``opt.update(...)`` with no ``*args``/``**kwargs``, else None."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name)):
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    return func.value.id


def optimizer_among(ctx: Context, name: str, wanted: frozenset[str]) -> str | None:
    """How the source makes the optimizer ``name`` is bound once to, when it is one of
    ``wanted`` (optax qualified names) or an ``optax.chain`` holding one: ```optax.adam(...)```,
    ```optax.chain(...)` holding `optax.adamw(...)```. None otherwise."""
    owner = ctx.scope.lookup(name)
    value = None if owner is None or owner.bound.get(name) != 1 else owner.single_value(name)
    if not isinstance(value, ast.Call) or owner is None:
        return None
    return _made(ctx, value, owner, wanted, 0)


def _made(ctx: Context, call: ast.Call, scope: Scope, wanted: frozenset[str], depth: int) -> str | None:
    qualname = ctx.model.qualname(call.func, scope)
    if qualname in wanted:
        return f"`{snippet(ctx, call.func)}(...)`"
    if qualname in CHAINS and depth < MAX_DEPTH:
        parts = [a for a in call.args if isinstance(a, ast.Call)]
        inner = next((found for a in parts if (found := _made(ctx, a, scope, wanted, depth + 1))), None)
        return None if inner is None else f"`{snippet(ctx, call.func)}(...)` holding {inner}"
    return None
