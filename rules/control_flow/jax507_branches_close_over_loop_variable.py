"""JAX507: ``lax.switch`` branches made by lambdas that close over a loop variable."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet

SWITCH = "jax.lax.switch"
DEPTH = 4  # names followed to their single binding


class BranchesCloseOverLoopVariable(Rule):
    """## What it does
    Finds `lax.switch(index, branches, ...)` whose branches are lambdas made in a list
    comprehension that read its loop variable (`[lambda x: x * g for g in GAINS]`), written
    there or bound once to a name.

    ## Why is this bad?
    A Python closure reads a variable when it runs, not when it is made: every lambda sees the
    loop variable's last value. JAX traces each branch after the comprehension has finished,
    so all branches compute the same thing, whatever the index (measured with JAX 0.10.2:
    every gain level returns the last gain). Nothing raises.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    GAINS = [1.0, 2.0, 4.0]
    branches = [lambda x: x * gain for gain in GAINS]

    def amplify(level, x):
        return lax.switch(level, branches, x)
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    from jax import lax

    GAINS = [1.0, 2.0, 4.0]
    branches = [lambda x, gain=gain: x * gain for gain in GAINS]

    def amplify(level, x):
        return lax.switch(level, branches, x)
    ```

    ## Fix safety
    No automatic fix: binding the value as a default (`gain=gain`) or with `functools.partial`
    is the author's choice.

    ## References
    - [jax.lax.switch](https://docs.jax.dev/en/latest/_autosummary/jax.lax.switch.html)
    - [Python FAQ: lambdas defined in a loop](https://docs.python.org/3/faq/programming.html#why-do-lambdas-defined-in-a-loop-with-different-values-all-return-the-same-result)
    """

    code = "JAX507"
    mentioned = frozenset({"switch"})
    name = "branches-close-over-loop-variable"
    message = "`lax.switch` branches are lambdas that read a comprehension's loop variable"
    outcome = "every branch computes the same thing (the last value), silently"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) < 2 or not ctx.mentions("switch") or ctx.qualname(node.func) != SWITCH:
            return
        found = _late_bound(ctx, node.args[1], ctx.scope, 0)
        if found is None:
            return
        comprehension, variable = found
        if not ctx.first_time((self.code, comprehension)):
            return
        ctx.report(
            comprehension,
            f"`{snippet(ctx, comprehension)}` makes the branches of `{snippet(ctx, node)}` (line "
            f"{node.lineno}), lambdas that read its loop variable `{variable}`: a closure reads "
            f"the variable when it runs, so every branch sees its last value and they all compute "
            f"the same thing; bind it when each lambda is made (`lambda x, {variable}={variable}: ...`)",
        )


def _late_bound(ctx: Context, expr: ast.expr, scope: Scope, depth: int) -> tuple[ast.ListComp, str] | None:
    """The list comprehension ``expr`` is (through names bound once) when its element is a
    lambda reading a loop variable of its own that no parameter or default shadows."""
    if isinstance(expr, ast.Name) and depth < DEPTH:
        found = scope.bound_value(expr.id)
        return None if found is None else _late_bound(ctx, found[0], found[1], depth + 1)
    if not isinstance(expr, ast.ListComp) or not isinstance(expr.elt, ast.Lambda):
        return None
    function = expr.elt
    variables = {n.id for g in expr.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    arguments = function.args
    own = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    read = [
        n.id
        for n in ast.walk(function.body)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in variables - own
    ]
    return (expr, read[0]) if read else None
