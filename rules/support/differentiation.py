"""Which parameters a reverse-mode differentiation differentiates, and which names carry their
derivative (JAX505, JAX506)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.tracing import int_literals

# attributes of an array that keep its derivative (others are static, or a module's fields)
DIFFERENTIABLE_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})
# calls whose result carries no derivative of their arguments
UNDIFFERENTIATED_CALLS = frozenset({"builtins.len", "builtins.int", "builtins.bool", "jax.lax.stop_gradient"})


def dependent_read(ctx: Context, expr: ast.AST, dependent: set[str]) -> ast.Name | None:
    """The name of ``dependent`` whose derivative ``expr`` carries: not through a static
    attribute (``x.shape``, ``model.n_steps``), a comparison, ``.astype``, ``len`` or
    ``stop_gradient``."""
    if isinstance(expr, ast.Name):
        return expr if expr.id in dependent else None
    if isinstance(expr, ast.Attribute):
        return dependent_read(ctx, expr.value, dependent) if expr.attr in DIFFERENTIABLE_ATTRIBUTES else None
    if isinstance(expr, ast.Compare):
        return None
    if isinstance(expr, ast.Call):
        func = expr.func
        if ctx.qualname(func) in UNDIFFERENTIATED_CALLS:
            return None
        if isinstance(func, ast.Attribute):
            if func.attr == "astype":
                return None
            receiver = dependent_read(ctx, func.value, dependent)
            if receiver is not None:
                return receiver
        for argument in [*expr.args, *(k.value for k in expr.keywords)]:
            found = dependent_read(ctx, argument, dependent)
            if found is not None:
                return found
        return None
    for child in ast.iter_child_nodes(expr):
        found = dependent_read(ctx, child, dependent)
        if found is not None:
            return found
    return None


def differentiated_around(
    ctx: Context, function: FunctionInfo
) -> tuple[FunctionInfo, str, int, set[str]] | None:
    """The function holding ``function`` (itself or one it is nested in) that a reverse-mode
    transformation differentiates, that transformation, its line, and the differentiated
    parameters; None where a custom derivative rule sits between, or ``argnums`` is not a literal."""
    current: FunctionInfo | None = function
    while current is not None:
        if current in ctx.model.custom_derivatives:
            return None  # JAX differentiates with the rule, not through the loop
        for transform, site, call, offset in current.reverse_sites:
            params = differentiated_params(current, call, offset)
            if params:
                return current, transform, getattr(site, "lineno", 0), params
        current = current.parent
    return None


def differentiated_caller(
    ctx: Context, function: FunctionInfo
) -> tuple[FunctionInfo, str, int, set[str]] | None:
    """A helper called by a differentiated function: the parameters of the helper that its
    calls there pass what depends on the differentiated arguments (one call level)."""
    if function.parent is not None or not isinstance(function.node, ast.FunctionDef):
        return None
    if function in ctx.model.custom_derivatives:
        return None  # JAX differentiates with the rule, not through the loop
    for caller in sorted(function.callers, key=lambda c: getattr(c.node, "lineno", 0)):
        found = differentiated_around(ctx, caller)
        if found is None:
            continue
        target, transform, line, differentiated = found
        dependent = dependent_names(ctx, target, differentiated)
        params = function.positional_names()
        seeds: set[str] = set()
        for call in ast.walk(caller.node):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            if call.func.id != function.node.name or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            passed = [*zip(params, call.args), *((k.arg, k.value) for k in call.keywords if k.arg)]
            for name, argument in passed:
                if dependent_read(ctx, argument, dependent) is not None:
                    seeds.add(name)
        if seeds:
            return function, transform, line, seeds
    return None


def differentiated_params(function: FunctionInfo, call: ast.Call | None, offset: int) -> set[str]:
    """The parameters ``argnums=`` (default 0) names, after ``offset`` bound ones."""
    argnums = None if call is None else keyword_argument(call, "argnums")
    positions = {0} if argnums is None else int_literals(argnums) or set()
    names = function.positional_names()[offset:]
    return {names[p] for p in positions if 0 <= p < len(names)}


def dependent_names(
    ctx: Context,
    function: FunctionInfo,
    seeds: set[str],
    carries: Callable[[Context, ast.AST, set[str]], bool] | None = None,
) -> set[str]:
    """The names of ``function``'s own scope whose value may carry the derivative of ``seeds``:
    bound by an assignment whose value does (to a fixed point, flow-insensitive). ``carries``
    says whether an expression carries it (by default: :func:`dependent_read` finds a name)."""
    carries = carries or (lambda c, expr, names: dependent_read(c, expr, names) is not None)
    assignments: list[tuple[list[str], ast.AST]] = []
    for node in ast.walk(function.node):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            stored = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            value = (
                ast.BinOp(node.target, ast.Add(), node.value)
                if isinstance(node, ast.AugAssign)
                else node.value
            )
            assignments.append((stored, value))
    dependent = set(seeds)
    changed = True
    while changed:
        changed = False
        for stored, value in assignments:
            if not set(stored) <= dependent and carries(ctx, value, dependent):
                dependent |= set(stored)
                changed = True
    return dependent
