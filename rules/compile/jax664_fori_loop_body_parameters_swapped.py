"""JAX664: a ``lax.fori_loop`` body whose parameters are named carry first, index second."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import call_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

# what a loop's step index is called; a carry is called anything else
INDEX_NAMES = frozenset({"i", "j", "k", "idx", "index", "step", "t", "it", "iteration", "epoch"})


class ForiLoopBodyParametersSwapped(Rule):
    """## What it does
    Finds a `jax.lax.fori_loop` body (a `def` or `lambda` of this module) with two parameters
    whose names put the carry first and the step index second: `def body(total, i)`, where the
    second is named like an index (`i`, `idx`, `step`, `t`...) and the first is not.

    ## Why is this bad?
    `fori_loop` calls `body_fun(i, val)`: the index first. A body written `(total, i)` receives
    the index in `total` and the carry in `i`, and silently computes something else when both
    are integers (measured with JAX 0.10.2: a sum of squares below 5 gave 148, not 30), or
    raises on a carry of another structure.

    ## Example
    ```python
    import jax

    def add_square(total, i):
        return total + i * i

    total = jax.lax.fori_loop(0, 5, add_square, 0)
    ```

    ## Use instead
    ```python
    import jax

    def add_square(i, total):
        return total + i * i

    total = jax.lax.fori_loop(0, 5, add_square, 0)
    ```

    ## Fix safety
    No automatic fix: whether the names or the order are wrong is the author's call.

    ## References
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    """

    code = "JAX664"
    mentioned = frozenset({"fori_loop"})
    name = "fori-loop-body-parameters-swapped"
    message = "A fori_loop body names its parameters carry first, index second"
    outcome = "the index arrives as the carry: a wrong result, silently"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) != "jax.lax.fori_loop":
            return
        body = call_argument(node, 2, "body_fun")
        if body is None:
            return
        found = ctx.model.resolve_function(body, ctx.scope)
        if found is None or found[1]:
            return
        params = found[0].positional_names()
        if len(params) != 2 or params[1] not in INDEX_NAMES or params[0] in INDEX_NAMES or params[0] == "_":
            return
        carry, index = params
        if _symmetric(found[0].node, carry, index):
            return  # `lambda x, i: x + i`: the same result either way round
        ctx.report(
            node,
            f"`fori_loop` calls its body with the step index first, `body_fun(i, val)`, but "
            f"`{snippet(ctx, body)}` (line {found[0].node.lineno}) takes `({carry}, {index})`: `{carry}` "  # pyright: ignore[reportOptionalMemberAccess]
            f"receives the index and `{index}` the carry; write it `({index}, {carry})`",
        )


COMMUTATIVE = (ast.Add, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)


def _symmetric(function: ast.AST, carry: str, index: str) -> bool:
    """Whether the body returns ``carry + index`` (or another commutative operation of the two
    alone), which swapping them leaves the same."""
    body = getattr(function, "body", None)
    if isinstance(body, list):
        returns = body[-1] if len(body) == 1 else None
        body = returns.value if isinstance(returns, ast.Return) else None
    if not (isinstance(body, ast.BinOp) and isinstance(body.op, COMMUTATIVE)):
        return False
    names = {getattr(body.left, "id", None), getattr(body.right, "id", None)}
    return names == {carry, index}
