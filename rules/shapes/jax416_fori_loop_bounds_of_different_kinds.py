"""JAX416: ``lax.fori_loop`` bounds of different kinds (an integer and a float)."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.dtypes import dtype_kind
from ..support.explain import snippet

FORI_LOOP = "jax.lax.fori_loop"


class ForiLoopBoundsOfDifferentKinds(Rule):
    """## What it does
    Finds `jax.lax.fori_loop(lower, upper, ...)` where one bound is an integer and the other a
    float: `lax.fori_loop(0, t_final / dt, body, state)` (`/` always makes a float).

    ## Why is this bad?
    `fori_loop` needs its bounds to have one type: JAX raises `TypeError: lower and upper
    arguments to fori_loop must have equal types, got int32 and float32` (measured with JAX
    0.10.2, eagerly and under `jit`). A step count is an integer: `int(round(t_final / dt))`
    for Python numbers, or `//` with integer operands.

    ## Example
    ```python
    from jax import lax

    def simulate(x0, t_final=1.0, dt=0.1):
        return lax.fori_loop(0, t_final / dt, lambda i, x: x * 0.9, x0)
    ```

    ## Use instead
    ```python
    from jax import lax

    def simulate(x0, t_final=1.0, dt=0.1):
        return lax.fori_loop(0, int(round(t_final / dt)), lambda i, x: x * 0.9, x0)
    ```

    ## Fix safety
    No automatic fix: `int()` truncates (`1.0 / 0.1` is `9.999...`), and how to round is the
    author's call.

    ## References
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    """

    code = "JAX416"
    mentioned = frozenset({"fori_loop"})
    name = "fori-loop-bounds-of-different-kinds"
    message = "`lax.fori_loop` is given an integer bound and a float one"
    outcome = "TypeError: lower and upper arguments to fori_loop must have equal types"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) < 2 or any(isinstance(a, ast.Starred) for a in node.args[:2]):
            return
        if ctx.qualname(node.func) != FORI_LOOP:
            return
        lower, upper = node.args[0], node.args[1]
        kinds = [dtype_kind(ctx.model, bound, ctx.scope) for bound in (lower, upper)]
        named = [None if kind is None else kind.kind for kind in kinds]
        if sorted(map(str, named)) != ["float", "int"]:
            return
        floating = upper if named[1] == "float" else lower
        ctx.report(
            floating,
            f"`fori_loop` bounds `{snippet(ctx, lower)}` and `{snippet(ctx, upper)}`: one is an integer, "
            f"the other (`{snippet(ctx, floating)}`) a float: JAX raises `TypeError` (the bounds must "
            f"have equal types); make the step count an integer (`int(round(...))`)",
        )
