"""When Python calls ``bool()`` on a condition, and whether that hits a tracer."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.fixing.plans import MarkStatic
from jaxlint.semantic.values import is_container, is_traced

from ..support.arrays import used_as_container
from ..support.explain import static_request


def converts_tracer(ctx: Context, test: ast.expr) -> ast.expr | None:
    """The part of an ``if``/``while``/``assert`` condition that ``bool()`` would call on a tracer.

    ``a and b`` and ``not a`` convert each operand; anything else is converted as a whole.
    """
    if isinstance(test, ast.BoolOp):
        for operand in test.values:
            found = converts_tracer(ctx, operand)
            if found is not None:
                return found
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return converts_tracer(ctx, test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) > 1:
        return test if any(is_traced(ctx.value(part)) for part in [test.left, *test.comparators]) else None
    if _member_of_display(ctx, test):
        return test.left  # pyright: ignore[reportAttributeAccessIssue]
    value = ctx.value(test)
    if not is_traced(value) or is_container(value) or _container_parameter(ctx, test):
        return None
    return test


def _member_of_display(ctx: Context, test: ast.expr) -> bool:
    """``mode in (0, 1)`` on a traced ``mode``: the tuple compares each item with ``==`` and asks
    ``bool()`` of the traced result (strings are `compared_with_strings`'s)."""
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn))
    ):
        return False
    items = _bound_display(ctx, test.comparators[0])
    if items is None or not items.elts:
        return False
    if not all(_number(ctx, e) for e in items.elts):
        return False
    value = ctx.value(test.left)
    return is_traced(value) and not is_container(value)


def _bound_display(ctx: Context, expr: ast.expr) -> ast.Tuple | ast.List | None:
    """The tuple or list display ``expr`` is, written there or bound once to a name
    (``STOP_TOKENS = (EOS, PAD)``)."""
    expr = ctx.scope.written_value(expr)
    return expr if isinstance(expr, (ast.Tuple, ast.List)) else None


def _number(ctx: Context, expr: ast.expr) -> bool:
    """A number written there, or a name bound once to one (``EOS, PAD = 2, 0``)."""
    expr = ctx.scope.written_value(expr)
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)


def _container_parameter(ctx: Context, test: ast.expr) -> bool:
    """``if adapters:`` on a parameter the function also uses as a container (``for name, d in
    adapters.items()``): the truth of a dict or list, which is static under every transformation."""
    function = ctx.function
    return (
        isinstance(test, ast.Name)
        and function is not None
        and test.id in {p.arg for p in function.param_nodes()}
        and used_as_container(ctx, function.node, test.id)
    )


def static_flag_parameter(ctx: Context, expr: ast.expr) -> MarkStatic | None:
    """A jitted parameter whose traced value is used as a flag (here, or passed on to this helper
    by its jitted caller): it belongs in static_argnames."""
    return static_request(ctx, expr.id) if isinstance(expr, ast.Name) else None


def compared_with_strings(ctx: Context, test: ast.expr) -> ast.Name | None:
    """The traced name ``test`` compares with string constants (``kind == "relu"``, ``mode in
    ("a", "b")``), alone or as part of ``and``/``or``/``not``: the callers pass a Python string
    there, which no transformation can trace."""
    if isinstance(test, ast.BoolOp):
        return next(filter(None, (compared_with_strings(ctx, v) for v in test.values)), None)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return compared_with_strings(ctx, test.operand)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, right = test.left, test.comparators[0]
    name, other = (left, right) if isinstance(left, ast.Name) else (right, left)
    if isinstance(test.ops[0], (ast.In, ast.NotIn)) and name is right:
        return None  # `"bias" in params`: a membership test of a dict or list, not a string
    if not isinstance(name, ast.Name) or not is_traced(ctx.value(name)) or not _strings(other):
        return None
    return name


def _strings(expr: ast.expr) -> bool:
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return bool(expr.elts) and all(_strings(e) for e in expr.elts)
    return isinstance(expr, ast.Constant) and isinstance(expr.value, str)


def bool_error(ctx: Context, expr: ast.expr) -> str:
    """What ``bool()`` of traced ``expr`` raises, as message text: `TracerBoolConversionError`
    for one element; JAX raises `ValueError` (an ambiguous truth value) for several."""
    if single_element(ctx, expr):
        return "`TracerBoolConversionError`"
    return "`TracerBoolConversionError` or, for several elements, `ValueError`"


# Reductions that give one element when called without an axis.
REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "prod", "any", "all", "std", "var", "median", "argmax", "argmin", "norm"}
)


def single_element(ctx: Context, expr: ast.expr, depth: int = 0) -> bool:
    """Whether ``expr`` is known to hold one element: a number, a reduction without an axis
    (``x.sum()``, ``jnp.mean(x)``), a comparison or ``and``/``not`` of those, or a name bound
    once to one of those."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float, bool))
    if isinstance(expr, ast.Compare):
        parts = [expr.left, *expr.comparators]
        return all(single_element(ctx, p, depth + 1) for p in parts)
    if isinstance(expr, ast.BoolOp):
        return all(single_element(ctx, v, depth + 1) for v in expr.values)
    if isinstance(expr, ast.UnaryOp):
        return single_element(ctx, expr.operand, depth + 1)
    if isinstance(expr, ast.BinOp):
        return single_element(ctx, expr.left, depth + 1) and single_element(ctx, expr.right, depth + 1)
    if isinstance(expr, ast.Call):
        return _whole_reduction(ctx, expr)
    if isinstance(expr, ast.Name) and ctx.function is not None:
        scope = ctx.function.scope
        bound = scope.assigned.get(expr.id) if scope.bound.get(expr.id) == 1 else None
        return bound is not None and single_element(ctx, bound, depth + 1)
    return False


def _whole_reduction(ctx: Context, call: ast.Call) -> bool:
    """``x.sum()``, ``jnp.mean(x)``, ``jnp.linalg.norm(x)``: a reduction over every axis."""
    if any(k.arg in ("axis", "keepdims") for k in call.keywords):
        return False
    func = call.func
    qualname = ctx.qualname(func) or ""
    if qualname.startswith("jax.numpy."):
        return qualname.rsplit(".", 1)[1] in REDUCTIONS and len(call.args) == 1
    return isinstance(func, ast.Attribute) and func.attr in REDUCTIONS and not call.args and qualname == ""
