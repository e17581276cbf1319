"""Values that are tracers only because JAX stages every `jax.numpy` operation under a trace
(omnistaging): computed from constants and static values alone, NumPy gives the same number as
a Python value while tracing."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.fixing.plans import NumpyAtTraceTime
from jaxlint.semantic import api
from jaxlint.semantic.values import is_static

from .blocks import own_nodes

# `jax.numpy` functions whose NumPy namesakes compute the same values from Python numbers
NUMPY_NAMESAKES = frozenset(
    "arange sum prod max min maximum minimum floor ceil round sqrt abs array asarray "
    "floor_divide mod remainder log2 exp2 square cumsum cumprod".split()
)
ARRAY_METHODS = frozenset({"sum", "prod", "max", "min", "astype"})


def computed_by_numpy(ctx: Context, culprit: ast.expr) -> NumpyAtTraceTime | None:
    """The fix for a traced ``culprit`` that must be concrete: a local name bound once, in this
    function, to `jax.numpy` computation on static values only (``c = jnp.arange(4).sum() // 2``).
    Computed with NumPy, it is a Python value while tracing. Not where the name is also updated
    with ``.at`` (an API NumPy lacks)."""
    function = ctx.function
    if not isinstance(culprit, ast.Name) or function is None or culprit.id in function.params:
        return None
    node = function.node
    if (
        not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        or function.scope.bound.get(culprit.id) != 1
    ):
        return None
    nodes = list(own_nodes(node.body))
    binding = next(
        (
            n
            for n in nodes
            if isinstance(n, ast.Assign)
            and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)
            and n.targets[0].id == culprit.id
        ),
        None,
    )
    if binding is None or any(
        isinstance(n, ast.Attribute)
        and n.attr == "at"
        and isinstance(n.value, ast.Name)
        and n.value.id == culprit.id
        for n in nodes
    ):
        return None
    staged: list[ast.expr] = []
    if not _static_computation(ctx, binding.value, staged) or not staged:
        return None
    return NumpyAtTraceTime(tuple(staged))


def _static_computation(ctx: Context, expr: ast.expr, staged: list[ast.expr]) -> bool:
    """Whether ``expr`` computes only with constants, static values, arithmetic and `jax.numpy`
    functions that have NumPy namesakes (collected in ``staged``) or their reducing methods."""
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.Call):
        arguments = [*expr.args, *(k.value for k in expr.keywords)]
        if any(isinstance(a, ast.Starred) for a in expr.args) or any(k.arg is None for k in expr.keywords):
            return False
        qualname = ctx.qualname(expr.func) or ""
        if qualname.startswith("jax.numpy.") and qualname.removeprefix("jax.numpy.") in NUMPY_NAMESAKES:
            staged.append(expr.func)
        elif isinstance(expr.func, ast.Attribute) and expr.func.attr in ARRAY_METHODS:
            if not _static_computation(ctx, expr.func.value, staged):
                return False
        else:
            return False
        return all(_static_computation(ctx, argument, staged) for argument in arguments)
    if isinstance(expr, ast.BinOp):
        return _static_computation(ctx, expr.left, staged) and _static_computation(ctx, expr.right, staged)
    if isinstance(expr, ast.UnaryOp):
        return _static_computation(ctx, expr.operand, staged)
    if isinstance(expr, (ast.Tuple, ast.List)):
        return all(_static_computation(ctx, element, staged) for element in expr.elts)
    if isinstance(expr, (ast.Name, ast.Attribute, ast.Subscript)):
        return is_static(ctx.value(expr))  # holds no tracer
    return False


def numpy_advice(name: str | None) -> str:
    return (
        f"compute `{name}` with NumPy (`np.` for `jnp.`): it is made from constants alone, and "
        f"under a trace every `jnp` result is a tracer, constants included"
    )


def compile_time_eval(ctx: Context) -> bool:
    """Whether the call runs under ``with jax.ensure_compile_time_eval():``, where JAX
    computes on constants eagerly."""
    for ancestor in ctx.ancestors():
        if isinstance(ancestor, (ast.With, ast.AsyncWith)) and any(
            isinstance(item.context_expr, ast.Call)
            and ctx.qualname(item.context_expr.func) in api.COMPILE_TIME_EVAL
            for item in ancestor.items
        ):
            return True
    return False
