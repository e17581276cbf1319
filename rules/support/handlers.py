"""Is the error a finding would claim caught where it is raised? A ``try`` whose handler names
the error, or a class it derives from, turns the raise into a probe: ``try: int(n) except
jax.errors.ConcretizationTypeError: ...`` is how code asks whether a value is concrete."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.semantic import api
from jaxlint.semantic.scopes import FUNCTION_NODES

TRY_NODES = (ast.Try, ast.TryStar)


def caught_here(ctx: Context, node: ast.AST, error: str) -> bool:
    """Whether ``node`` sits in the body of a ``try`` of its function with a handler that
    catches ``error`` (a name of ``api.ERROR_CATCHERS``): a bare ``except``, or one naming the
    error or a class it derives from."""
    catchers = api.ERROR_CATCHERS.get(error)
    if catchers is None:
        return False
    for ancestor in ctx.ancestors():
        if isinstance(ancestor, FUNCTION_NODES):
            return False  # a handler around the function's definition does not run its body
        if (
            isinstance(ancestor, TRY_NODES)
            and any(encloses(s, node) for s in ancestor.body)
            and any(_catches(ctx, h, catchers) for h in ancestor.handlers)
        ):
            return True
    return False


def _catches(ctx: Context, handler: ast.ExceptHandler, catchers: frozenset[str]) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(_canonical(ctx.qualname(t)) in catchers for t in types)


def _canonical(qualname: str | None) -> str | None:
    """``jax._src.errors.X`` as ``jax.errors.X``: one class."""
    return qualname.replace("jax._src.errors.", "jax.errors.") if qualname else None
