"""Equinox modules whose pytree holds a leaf that is no JAX type (a function): plain
``jax.jit``, ``jax.grad`` and optax's tree maps cannot take them whole (JAX630, JAX644)."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.semantic import measured
from jaxlint.semantic.values import instance_classes, refs

from .blocks import assigned_before

DEPTH = 3  # names followed to their single binding


def function_leaf_module(ctx: Context, expr: ast.expr, depth: int = 0) -> tuple[ast.Call, str] | None:
    """The construction of a measured layer that ``expr`` is, or that the one ``eqx.Module`` of
    this file it is an instance of stores in a field; with how the message names it."""
    if isinstance(expr, ast.Call) and ctx.qualname(expr.func) in measured.jit_rejected_layers():
        return expr, ""
    if isinstance(expr, ast.Name) and depth < DEPTH:
        owner = ctx.scope.lookup(expr.id)
        value = None if owner is None else owner.single_value(expr.id)
        if value is None and owner is ctx.scope.function:
            value = assigned_before(ctx, expr, expr.id)  # `model = MLP(...)`, rebound after
        rejected = measured.jit_rejected_layers()
        if (
            isinstance(value, ast.Call)
            and owner is not None
            and ctx.model.qualname(value.func, owner) in rejected
        ):
            return value, ""
    value = ctx.value(expr)
    classes = instance_classes(value)
    if len(classes) != 1 or len(refs(value)) != 1:
        return None
    cls = classes[0]
    for attr in ctx.model.self_stores(cls):
        held = ctx.model.held_value(cls, attr)
        if held is None or not isinstance(held[1], ast.Call):
            continue
        scope = ctx.model.index.scopes.get(held[0], ctx.model.index.module)
        if ctx.model.qualname(held[1].func, scope) in measured.jit_rejected_layers():
            return held[1], f"a `{cls.name}` whose field `{attr}` is "
    return None
