"""JAX506: ``jnp.where(x > 0, jnp.sqrt(x), 0.0)`` differentiated: the guard does not stop NaN."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule

from ..support.differentiation import (
    dependent_names,
    dependent_read,
    differentiated_around,
    differentiated_caller,
)
from ..support.explain import snippet

WHERE = "jax.numpy.where"
# (function, guard operator) -> the entries whose gradient is NaN, measured with JAX 0.10.2:
# sqrt' is infinite at 0 and NaN below it, log' infinite at 0 only (finite below)
SINGULAR = {
    ("sqrt", ast.Gt): "{x} <= 0",
    ("sqrt", ast.GtE): "{x} < 0",
    ("log", ast.Gt): "{x} == 0",
}
MIRRORED = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}
NEGATED = {ast.LtE: ast.Gt, ast.Lt: ast.GtE}


@dataclass(frozen=True)
class DoubleWhere(FixRequest):
    """``where(c, sqrt(x), 0)`` -> ``where(c, sqrt(where(c, x, 1.0)), 0)``: the operand of the
    singular function is replaced where the branch is not taken."""

    where: ast.Call
    operand: ast.expr
    taken_when_true: bool


class WhereGuardNanGradient(Rule):
    """## What it does
    Finds `jnp.where(x > 0, jnp.sqrt(x), 0.0)` (or `x ** 0.5`, `jnp.log(x)`, inside a larger
    branch such as `p * jnp.log(p)`, and the mirrored forms `0 < x`,
    `jnp.where(x <= 0, 0.0, jnp.sqrt(x))`) in a function that `jax.grad` (or another
    reverse-mode transformation) differentiates with respect to what `x` depends on.

    ## Why is this bad?
    `jnp.where` picks values, but reverse mode differentiates both branches and multiplies the
    gradient of the branch not taken by zero. Where the guard is false, the derivative of
    `sqrt` is infinite (at 0) or NaN (below), and `0 * inf` is NaN: the gradient is NaN for
    those entries although the value is right. Guard the operand too (the "double where"):
    `jnp.sqrt(jnp.where(x > 0, x, 1.0))`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def safe_dist(d2):
        return jnp.where(d2 > 0, jnp.sqrt(d2), 0.0)

    g = jax.grad(lambda d2: jnp.sum(safe_dist(d2)))(jnp.array([4.0, 0.0]))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def safe_dist(d2):
        return jnp.where(d2 > 0, jnp.sqrt(jnp.where(d2 > 0, d2, 1.0)), 0.0)

    g = jax.grad(lambda d2: jnp.sum(safe_dist(d2)))(jnp.array([4.0, 0.0]))
    ```

    ## Fix safety
    The fix guards the operand (`jnp.where(x > 0, x, 1.0)`): every value stays the same, and
    the gradient of the entries the guard excludes becomes 0 instead of NaN. Safe.

    ## References
    - [JAX FAQ: gradients contain NaN where using where](https://docs.jax.dev/en/latest/faq.html#gradients-contain-nan-where-using-where)
    """

    code = "JAX506"
    name = "where-guard-nan-gradient"
    message = "A `jnp.where` guard around `sqrt`/`log` does not keep NaN out of the gradient"
    outcome = "the gradient is NaN for the guarded-out entries, silently"
    fix_title = "Guard the operand too (double `where`)"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) != 3 or node.keywords or ctx.function is None:
            return
        if not isinstance(node.args[0], ast.Compare) or ctx.qualname(node.func) != WHERE:
            return
        found = _guarded_singularity(ctx, node)
        if found is None:
            return
        operand, function, nan_where, taken_when_true = found
        differentiated = differentiated_around(ctx, ctx.function) or differentiated_caller(ctx, ctx.function)
        if differentiated is None:
            return
        target, transform, line, params = differentiated
        if dependent_read(ctx, operand, dependent_names(ctx, target, params)) is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` is differentiated by `{transform.rsplit('.', 1)[-1]}` at line {line}: "
            f"reverse mode differentiates the `{function}` branch everywhere and multiplies it by 0 where "
            f"it is not taken, and its derivative there is infinite or NaN, so the gradient is NaN where "
            f"`{nan_where}`; guard the operand too: `{guarded_operand(snippet, ctx, node, operand, taken_when_true)}` "
            f"in place of `{snippet(ctx, operand)}` inside the `{function}`",
            fix=DoubleWhere(node, operand, taken_when_true),
        )


def guarded_operand(
    text: Callable[[Any, ast.expr], str], source: Any, where: ast.Call, operand: ast.expr, taken: bool
) -> str:
    """``jnp.where(x > 0, x, 1.0)``: the operand where the branch is taken, 1.0 elsewhere,
    spelled with ``where``'s own function and condition (``text(source, node)`` reads a node)."""
    test = text(source, where.args[0])
    inner = f"{test}, {text(source, operand)}, 1.0" if taken else f"{test}, 1.0, {text(source, operand)}"
    return f"{text(source, where.func)}({inner})"


def _guarded_singularity(ctx: Context, where: ast.Call) -> tuple[ast.expr, str, str, bool] | None:
    """The operand of ``sqrt``/``log`` in a branch of ``where`` that its condition guards
    against zero (``x > 0``), the function, the entries with a NaN gradient, and whether the
    branch is the one taken when the condition holds."""
    test = where.args[0]
    assert isinstance(test, ast.Compare)
    if len(test.ops) != 1 or type(test.ops[0]) not in MIRRORED:
        return None
    left, op, right = test.left, type(test.ops[0]), test.comparators[0]
    if _zero(left):
        left, right, op = right, left, MIRRORED[op]
    if not _zero(right):
        return None
    taken_when_true = op in (ast.Gt, ast.GtE)
    guard = op if taken_when_true else NEGATED[op]
    branch = where.args[1] if taken_when_true else where.args[2]
    singular = _singular_call(ctx, branch, left)
    if singular is None:
        return None
    function, operand = singular
    nan_where = SINGULAR.get((function, guard))
    if nan_where is None:
        return None
    return operand, function, nan_where.format(x=snippet(ctx, left)), taken_when_true


def _singular_call(ctx: Context, branch: ast.expr, guarded: ast.expr) -> tuple[str, ast.expr] | None:
    """``("sqrt", x)`` for ``jnp.sqrt(x)`` or ``x ** 0.5``, ``("log", x)`` for ``jnp.log(x)``,
    anywhere in ``branch`` (``p * jnp.log(p)``), where ``x`` is the ``guarded`` expression."""
    target = ast.dump(guarded)
    for node in ast.walk(branch):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = node.right
            if isinstance(exponent, ast.Constant) and exponent.value == 0.5 and ast.dump(node.left) == target:
                return "sqrt", node.left
        elif isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            qualname = ctx.qualname(node.func)
            if qualname in ("jax.numpy.sqrt", "jax.numpy.log") and ast.dump(node.args[0]) == target:
                return qualname.rsplit(".", 1)[1], node.args[0]
    return None


def _zero(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float) and expr.value == 0
