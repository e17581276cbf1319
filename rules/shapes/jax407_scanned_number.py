"""JAX407: ``lax.scan`` over a list or tuple of Python numbers."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf, keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

DISPLAYS = (ast.List, ast.Tuple)


class ScannedNumber(Rule):
    """## What it does
    Finds `lax.scan(f, init, xs)` whose `xs` is a list or tuple written with Python numbers
    (`[1.0, 0.5, 2.0]`), directly or through a name bound once to one.

    ## Why is this bad?
    `scan` treats a list as a pytree and slices every leaf along its leading axis; a Python
    number is a leaf with no axis, so JAX raises `ValueError` ("scan got value with no leading
    axis to scan over"). Make it one array, `jnp.array([1.0, 0.5, 2.0])`, which `scan` slices
    into its elements.

    ## Example
    ```python
    import jax

    rewards = [1.0, 0.5, 2.0]
    jax.lax.scan(lambda c, r: (0.9 * c + r, c), 0.0, rewards)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    rewards = jnp.array([1.0, 0.5, 2.0])
    jax.lax.scan(lambda c, r: (0.9 * c + r, c), 0.0, rewards)
    ```

    ## Fix safety
    No automatic fix: the list may be meant as a pytree of arrays in other code paths.

    ## References
    - [jax.lax.scan](https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html)
    """

    code = "JAX407"
    name = "scanned-number"
    message = "`lax.scan` is given Python numbers to scan over"
    outcome = "ValueError: scan got value with no leading axis to scan over"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) != "scan" or ctx.qualname(node.func) != "jax.lax.scan":
            return
        if any(isinstance(a, ast.Starred) for a in node.args[:3]):
            return
        xs = node.args[2] if len(node.args) > 2 else keyword_argument(node, "xs")
        display = _display(ctx, xs)
        number = None if display is None else next((e for e in display.elts if _number(e)), None)
        if xs is None or number is None:
            return
        ctx.report(
            xs,
            f"`{snippet(ctx, xs)}` holds the Python number `{snippet(ctx, number)}`: `lax.scan` slices "
            f"every leaf of `xs` along its leading axis and a number has none, so JAX raises "
            f"`ValueError`; scan over one array, `jnp.array(...)`",
        )


def _display(ctx: Context, expr: ast.expr | None) -> ast.List | ast.Tuple | None:
    if isinstance(expr, DISPLAYS):
        return expr
    if isinstance(expr, ast.Name):
        owner = ctx.scope.lookup(expr.id)
        value = None if owner is None else owner.single_value(expr.id)
        return value if isinstance(value, DISPLAYS) else None
    return None


def _number(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float, bool)
