"""Which objects and names outlive the trace that runs the current function: storing a tracer
on one leaks it (JAX104), so a fix must not assign to one (JAX203)."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import NONE

from .explain import outer_owner


def self_outlives_trace(ctx: Context) -> bool:
    """Whether ``self`` existed before JAX traced the method: the method itself is
    transformed (``jax.jit(obj.method)``, a jitted method), or traced code calls it on an
    object made before the trace (a module-level ``model.apply(x)``). An object constructed
    inside traced code may hold tracers: its ``__init__`` and methods called there are not."""
    function = ctx.function
    while function is not None and not function.is_method and not function.transformed_by:
        function = function.parent  # a closure in the method stores on the method's `self`
    if function is None or function.name == "__init__":
        return False
    return bool(function.transformed_by) or function.called_on_outer_object


def enclosing_method(ctx: Context) -> FunctionInfo | None:
    """The method the current function is, or is nested in."""
    function = ctx.function
    while function is not None and not function.is_method:
        function = function.parent
    return function


def is_self(expr: ast.expr, ctx: Context) -> bool:
    method = enclosing_method(ctx)
    names = method.positional_names() if method is not None else []
    return isinstance(expr, ast.Name) and bool(names) and expr.id == names[0]


def method_runs_on_outer_object(ctx: Context) -> bool:
    """Whether traced code calls the current method (or the one it is nested in) on an object
    made before the trace, tracer or not: a tracer it stores on ``self`` outlives the trace."""
    method = enclosing_method(ctx)
    return method is not None and method.runs_on_outer_object


def outlives_trace(ctx: Context, name: str) -> Scope | None:
    """The outer scope binding ``name`` when its state outlives the current trace: the module,
    an untraced enclosing function, or a traced one that this function is traced apart from
    (a `lax` body or jitted closure, whose tracers must not escape into the caller's state)."""
    owner = outer_owner(ctx, name)
    if owner is None or owner.kind == "module":
        return owner
    enclosing = ctx.model.function_of(owner)
    function = ctx.function
    if enclosing is None or enclosing.effective_level == NONE:
        return owner
    if function is not None and function.transformed_by:
        return owner
    return None
