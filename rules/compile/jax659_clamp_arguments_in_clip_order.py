"""JAX659: ``lax.clamp(x, lo, hi)``, the array first as in ``jnp.clip``, where clamp takes ``(min, x, max)``."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.scopes import parameter_defaults
from jaxlint.semantic.values import is_jax_array, is_traced

from ..support.dtypes import dtype_kind
from ..support.explain import snippet

CLAMP = "jax.lax.clamp"


@dataclass(frozen=True)
class SwapClampOperand(FixRequest):
    """``lax.clamp(x, lo, hi)`` -> ``lax.clamp(lo, x, hi)``."""

    call: ast.Call


def _python_number(ctx: Context, expr: ast.expr) -> bool:
    """A Python number: a literal, arithmetic of numbers, a name bound once to one, or a
    parameter of the function around whose default is a number literal (``eps=0.2``)."""
    if isinstance(expr, ast.UnaryOp):
        return _python_number(ctx, expr.operand)
    if isinstance(expr, ast.BinOp):
        return _python_number(ctx, expr.left) and _python_number(ctx, expr.right)
    function = ctx.scope.function.node
    if isinstance(expr, ast.Name) and isinstance(function, (ast.FunctionDef, ast.Lambda)):
        default = parameter_defaults(function.args).get(expr.id)
        if isinstance(default, ast.Constant) and isinstance(default.value, (int, float)):
            return ctx.scope.function.bound.get(expr.id) == 1
    kind = dtype_kind(ctx.model, expr, ctx.scope)
    return kind is not None and kind.weak


class ClampArgumentsInClipOrder(Rule):
    """## What it does
    Finds `jax.lax.clamp(x, lo, hi)` where `x` is an array and `lo` a Python number: the order
    of `jnp.clip(x, lo, hi)`, but `lax.clamp` takes `(min, operand, max)`.

    ## Why is this bad?
    The array becomes the lower bound and the number the value clamped. A lower bound must be
    0-d or have the operand's shape, so for an array of one or more dimensions JAX raises
    `TypeError: clamp requires min.shape == operand.shape or min.shape == ()` (measured with JAX
    0.10.2, in a PPO ratio clip). For a 0-d `x` the swapped call happens to compute the same
    value, which is why the mistake survives scalar tests.

    ## Example
    ```python
    import jax
    from jax import lax

    @jax.jit
    def clipped_ratio(ratio, eps=0.2):
        return lax.clamp(ratio, 1.0 - eps, 1.0 + eps)
    ```

    ## Use instead
    ```python
    import jax
    from jax import lax

    @jax.jit
    def clipped_ratio(ratio, eps=0.2):
        return lax.clamp(1.0 - eps, ratio, 1.0 + eps)
    ```

    ## Fix safety
    The fix swaps the first two arguments. Safe: for a 0-d `x` both orders compute
    `min(max(x, lo), hi)`, and for any other `x` the original raised.

    ## References
    - [jax.lax.clamp](https://docs.jax.dev/en/latest/_autosummary/jax.lax.clamp.html)
    """

    code = "JAX659"
    mentioned = frozenset({"clamp"})
    name = "clamp-arguments-in-clip-order"
    message = "`lax.clamp` is given its arguments in `jnp.clip`'s order"
    outcome = "TypeError: clamp requires min.shape == operand.shape or min.shape == ()"
    fix_title = "Swap the first two arguments: `lax.clamp(min, x, max)`"
    fix_availability = FixAvailability.ALWAYS

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) != 3 or node.keywords or ctx.qualname(node.func) != CLAMP:
            return
        first, second, _ = node.args
        value = ctx.value(first)
        if not (is_traced(value) or is_jax_array(value)):
            return
        if not _python_number(ctx, second):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` passes the array `{snippet(ctx, first)}` as the lower bound and the "
            f"number `{snippet(ctx, second)}` as the value to clamp (`lax.clamp` takes `(min, x, max)`): "
            f"for an array of one or more dimensions JAX raises `TypeError`; swap them, "
            f"`lax.clamp({snippet(ctx, second)}, {snippet(ctx, first)}, ...)`",
            fix=SwapClampOperand(node),
        )
