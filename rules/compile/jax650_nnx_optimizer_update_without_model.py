"""JAX650: ``optimizer.update(grads)`` on an ``nnx.Optimizer`` of the flax 0.11+ API."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.callsites import passed_arguments
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
    parameter every call in sight passes such a name."""
    owner = ctx.scope.lookup(name.id)
    if owner is None:
        return None
    if ctx.function is not None and owner is ctx.scope.function and name.id in owner.params:
        passed = passed_arguments(ctx.model, ctx.function, name.id)
        if not passed:
            return None
        made = [_constructed(ctx, argument, scope) for argument, scope in passed]
        first = made[0]
        return first if first is not None and all(m is not None for m in made) else None
    return _constructed(ctx, name, ctx.scope)


def _constructed(ctx: Context, expr: ast.expr, scope: Scope) -> ast.Call | None:
    """``nnx.Optimizer(..., wrt=...)``, written there or bound once to the name ``expr``."""
    if isinstance(expr, ast.Name):
        owner = scope.lookup(expr.id)
        if owner is None:
            return None
        expr, scope = owner.single_value(expr.id), owner  # pyright: ignore[reportAssignmentType]
    if not isinstance(expr, ast.Call) or keyword_argument(expr, "wrt") is None:
        return None
    return expr if ctx.model.qualname(expr.func, scope) == OPTIMIZER else None
