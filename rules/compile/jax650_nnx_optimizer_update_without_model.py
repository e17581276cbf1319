"""JAX650: ``optimizer.update(grads)`` on an ``nnx.Optimizer`` of the flax 0.11+ API."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.callsites import origins
from ..support.explain import snippet

OPTIMIZER = "flax.nnx.Optimizer"


class NnxOptimizerUpdateWithoutModel(Rule):
    """## What it does
    Finds `optimizer.update(grads)`, one argument, where `optimizer` is an `nnx.Optimizer` made
    with `wrt=` (the flax 0.11+ API): bound to it, or passed it by every call in sight.

    ## Why is this bad?
    Since flax 0.11 `nnx.Optimizer` no longer holds the model: `update` takes the model and
    the gradients, `optimizer.update(model, grads)`, and raises `TypeError` ("Missing required
    argument `grads`") when given the gradients alone (measured with flax 0.12.8). `wrt=` is
    that API's (it says which variables the optimizer updates), so the code targets it.

    ## Example
    ```python
    import optax
    from flax import nnx

    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)

    def apply_gradients(grads):
        optimizer.update(grads)
    ```

    ## Use instead
    ```python
    import optax
    from flax import nnx

    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)

    def apply_gradients(grads):
        optimizer.update(model, grads)
    ```

    ## Fix safety
    No automatic fix: which model the optimizer updates is the author's.

    ## References
    - [Flax: nnx.Optimizer](https://flax.readthedocs.io/en/latest/api_reference/flax.nnx/training/optimizer.html)
    """

    code = "JAX650"
    mentioned = frozenset({"Optimizer"})
    name = "nnx-optimizer-update-without-model"
    message = "`update` of an `nnx.Optimizer` made with `wrt=` is given the gradients alone"
    outcome = "TypeError: missing required argument `grads`"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (
            isinstance(func, ast.Attribute) and func.attr == "update" and isinstance(func.value, ast.Name)
        ):
            return
        if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
            return
        made = _optimizer_made(ctx, func.value)
        if made is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}`: `{func.value.id}` is the `nnx.Optimizer` made with `wrt=` at line "
            f"{made.lineno} (the flax 0.11+ API), whose `update` takes the model and the gradients: flax "
            f"raises `TypeError` (missing argument `grads`); call `{func.value.id}.update(model, "
            f"{snippet(ctx, node.args[0])})`",
        )


def _optimizer_made(ctx: Context, name: ast.Name) -> ast.Call | None:
    """The ``nnx.Optimizer(..., wrt=...)`` call ``name`` holds: bound to it once, or a
    parameter every call in sight passes such a name (:func:`origins`)."""
    made = [_constructed(ctx, value, scope) for value, scope in origins(ctx, name, ctx.scope) or []]
    return made[0] if made and all(m is not None for m in made) else None


def _constructed(ctx: Context, expr: ast.expr, scope: Scope) -> ast.Call | None:
    """``nnx.Optimizer(..., wrt=...)`` written out."""
    if not isinstance(expr, ast.Call) or keyword_argument(expr, "wrt") is None:
        return None
    return expr if ctx.model.qualname(expr.func, scope) == OPTIMIZER else None
