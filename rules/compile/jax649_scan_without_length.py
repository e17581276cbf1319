"""JAX649: ``lax.scan`` with nothing to scan over and no ``length``."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

SCAN = "jax.lax.scan"


class ScanWithoutLength(Rule):
    """## What it does
    Finds `jax.lax.scan(f, init)` or `jax.lax.scan(f, init, None)` (no `xs`) without a
    `length=`.

    ## Why is this bad?
    `scan` runs one step per element of `xs`; with `xs=None` it has no way to know how many steps
    to take and raises `ValueError: scan got no values to scan over and length not provided`
    (measured with JAX 0.10.2, eagerly and under `jit`). A generator or a fixed-step
    integration passes the number of steps as `length=`.

    ## Example
    ```python
    import jax

    def step(h, _):
        return h * 0.9, h

    _, hs = jax.lax.scan(step, 1.0, None)
    ```

    ## Use instead
    ```python
    import jax

    def step(h, _):
        return h * 0.9, h

    _, hs = jax.lax.scan(step, 1.0, None, length=10)
    ```

    ## Fix safety
    No automatic fix: the number of steps is the author's.

    ## References
    - [jax.lax.scan](https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html)
    """

    code = "JAX649"
    mentioned = frozenset({"scan"})
    name = "scan-without-length"
    message = "`lax.scan` has nothing to scan over and no `length`"
    outcome = "ValueError: scan got no values to scan over and length not provided"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) < 2 or any(isinstance(a, ast.Starred) for a in node.args):
            return
        if any(k.arg is None for k in node.keywords) or ctx.qualname(node.func) != SCAN:
            return
        xs = node.args[2] if len(node.args) > 2 else keyword_argument(node, "xs")
        length = node.args[3] if len(node.args) > 3 else keyword_argument(node, "length")
        if not _none(xs) or not _none(length):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` scans over no `xs` and is given no `length`: JAX raises "
            f"`ValueError` (no values to scan over); pass the number of steps as `length=`",
        )


def _none(expr: ast.expr | None) -> bool:
    """Absent, or the literal ``None``."""
    return expr is None or (isinstance(expr, ast.Constant) and expr.value is None)
