"""JAX618: ``opt.update(grads, state)`` without ``params`` for an optax optimizer that needs them."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.optimizers import optimizer_among, update_receiver


class OptimizerUpdateWithoutParams(Rule):
    """## What it does
    Finds `opt.update(grads, state)` called without the parameters, where `opt` is bound to an
    optax optimizer whose update reads them (measured by running optax): `optax.adamw` and the
    other decoupled-weight-decay optimizers, `optax.lamb`, `optax.lars`, `optax.adafactor`, ...,
    alone or in an `optax.chain`.

    ## Why is this bad?
    Weight decay and trust ratios are computed from the current parameters: without them optax
    raises `ValueError` ("You are using a transformation that requires the current value of
    parameters, but you are not passing `params` when calling `update`"). Pass them:
    `opt.update(grads, state, params)`.

    ## Example
    ```python
    import optax

    opt = optax.adamw(1e-3, weight_decay=1e-2)
    updates, state = opt.update(grads, state)
    ```

    ## Use instead
    ```python
    import optax

    opt = optax.adamw(1e-3, weight_decay=1e-2)
    updates, state = opt.update(grads, state, params)
    ```

    ## Fix safety
    No automatic fix: which name holds the parameters is the author's to say.

    ## References
    - [optax.adamw](https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.adamw)
    """

    code = "JAX618"
    name = "optimizer-update-without-params"
    message = "An optax optimizer that needs the parameters is updated without them"
    outcome = "ValueError from optax: the update requires `params`"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        name = update_receiver(node)
        if name is None or len(node.args) != 2 or node.keywords:
            return
        made = optimizer_among(ctx, name, measured.optimizers_needing_params())
        if made is None:
            return
        ctx.report(
            node,
            f"`{name}` is {made}, whose update reads the current parameters, but "
            f"`{name}.update` is called without them: optax raises `ValueError`; pass "
            f"them as the third argument, `{name}.update(grads, state, params)`",
        )
