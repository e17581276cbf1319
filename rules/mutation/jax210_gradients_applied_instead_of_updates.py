"""JAX210: ``optax.apply_updates(params, grads)`` with the gradients, not the optimizer's updates."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.bodies import own_nodes

from ..support.explain import snippet
from ..support.optimizers import update_receiver


@dataclass(frozen=True)
class ApplyUpdates(FixRequest):
    """Pass ``updates`` (the name ``opt.update`` binds) instead of the gradients."""

    gradients: ast.Name
    updates: str


class GradientsAppliedInsteadOfUpdates(Rule):
    """## What it does
    Finds `optax.apply_updates(params, grads)` where `grads` is what the same function hands
    to `opt.update(grads, state)`, whose updates are bound to a name that is never read.

    ## Why is this bad?
    `apply_updates` adds what it is given to the parameters. The optimizer's updates (scaled
    by minus the learning rate, with momentum, Adam's moments, clipping) are computed and
    dropped, and the raw gradients are added instead: the parameters climb the gradient and
    the loss rises, silently.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    import optax

    opt = optax.sgd(0.1)

    def step(params, state):
        grads = jax.grad(lambda p: jnp.sum((p - 2.0) ** 2))(params)
        updates, state = opt.update(grads, state)
        return optax.apply_updates(params, grads), state
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp
    import optax

    opt = optax.sgd(0.1)

    def step(params, state):
        grads = jax.grad(lambda p: jnp.sum((p - 2.0) ** 2))(params)
        updates, state = opt.update(grads, state)
        return optax.apply_updates(params, updates), state
    ```

    ## Fix safety
    The fix passes the updates. Unsafe: the training changes (it descends, as the optimizer
    meant).

    ## References
    - [optax: apply_updates](https://optax.readthedocs.io/en/latest/api/apply_updates.html)
    """

    code = "JAX210"
    mentioned = frozenset({"apply_updates"})
    name = "gradients-applied-instead-of-updates"
    message = "`optax.apply_updates` is given the gradients instead of the optimizer's updates"
    outcome = "the parameters climb the gradient (the loss rises), silently"
    fix_title = "Apply the optimizer's updates"
    fix_availability = FixAvailability.ALWAYS
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) != 2 or not isinstance(node.args[1], ast.Name) or not ctx.mentions("apply_updates"):
            return
        if ctx.qualname(node.func) != "optax.apply_updates":
            return
        gradients = node.args[1]
        found = _unread_updates(ctx, gradients.id)
        if found is None:
            return
        updates, update = found
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` adds the raw gradients `{gradients.id}` to the parameters, while "
            f"`{snippet(ctx, update.func)}` (line {update.lineno}) turned them into `{updates}`, which "
            f"is never read: the optimizer's work is dropped and the parameters climb the gradient "
            f"(the loss rises); apply `{updates}`",
            fix=ApplyUpdates(gradients, updates),
        )


def _unread_updates(ctx: Context, gradients: str) -> tuple[str, ast.Call] | None:
    """``updates, state = opt.update(grads, ...)`` in this function, ``updates`` never read in
    it: the name and the ``update`` call."""
    function = ctx.scope.node
    if not isinstance(function, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    body = list(own_nodes(function.body))
    for node in body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        call, target = node.value, node.targets[0]
        if update_receiver(call) is None or not isinstance(target, ast.Tuple) or not target.elts:
            continue
        first = call.args[0] if call.args else None
        updates = target.elts[0]
        if not (isinstance(first, ast.Name) and first.id == gradients and isinstance(updates, ast.Name)):
            continue
        read = any(
            isinstance(n, ast.Name) and n.id == updates.id and isinstance(n.ctx, ast.Load) for n in body
        )
        if not read and updates.id != "_" and ctx.scope.bound.get(updates.id) == 1:
            return updates.id, call
    return None
