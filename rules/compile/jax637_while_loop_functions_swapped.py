"""JAX637: ``lax.while_loop(body, cond, init)``, the loop body and its condition swapped."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.lax_calls import swapped_while_functions


class WhileLoopFunctionsSwapped(Rule):
    """## What it does
    Finds `lax.while_loop(body, cond, init)`: the function in the place of `cond_fun` (first)
    returns a new carry, and the one in the place of `body_fun` (second) returns a comparison.

    ## Why is this bad?
    The signature is `while_loop(cond_fun, body_fun, init_val)`. Swapped, JAX runs the
    body as the condition, and raises `TypeError` ("cond_fun must return a boolean scalar, but
    got ..."). Pass the condition first.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(state):
        x, n = state
        return x / 2, n + 1

    def cond(state):
        x, n = state
        return x > 1.0

    result = lax.while_loop(body, cond, (jnp.float32(40.0), 0))
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(state):
        x, n = state
        return x / 2, n + 1

    def cond(state):
        x, n = state
        return x > 1.0

    result = lax.while_loop(cond, body, (jnp.float32(40.0), 0))
    ```

    ## Fix safety
    No automatic fix: which function is which is read from what they return.

    ## References
    - [jax.lax.while_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.while_loop.html)
    """

    code = "JAX637"
    name = "while-loop-functions-swapped"
    message = "`lax.while_loop` is given its body first and its condition second"
    outcome = "TypeError: the condition runs as the body"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.mentions("while_loop"):
            return
        found = swapped_while_functions(ctx, node)
        if found is None or len(node.args) < 2:
            return
        first, second = node.args[0], node.args[1]
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` passes `{snippet(ctx, first, 32)}`, which returns a new carry, as "
            f"`cond_fun` and `{snippet(ctx, second, 32)}`, which returns a comparison, as `body_fun`: the "
            f"signature is `while_loop(cond_fun, body_fun, init_val)`, and JAX raises `TypeError` (cond_fun "
            f"must return a boolean scalar); pass the condition first",
        )
