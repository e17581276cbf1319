"""JAX623: ``opt.update(...)`` without the keyword arguments an optax optimizer requires."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.optimizers import optimizer_among, update_receiver


class OptimizerUpdateWithoutKeywords(Rule):
    """## What it does
    Finds `opt.update(grads, state, params)` called without the keyword-only arguments the
    optimizer's update requires, where `opt` is bound to an optax optimizer measured to need
    them (by running optax): `optax.lbfgs`, whose line search needs `value`, `grad` and
    `value_fn`, alone or in an `optax.chain`.

    ## Why is this bad?
    The line search evaluates the objective: without it optax raises `TypeError` ("update_fn()
    missing 3 required keyword-only arguments: 'value', 'grad', and 'value_fn'"). Compute the
    value and gradient together and pass them with the objective:
    `opt.update(grad, state, params, value=value, grad=grad, value_fn=loss)`
    (`optax.value_and_grad_from_state` reuses what the line search already computed).

    ## Example
    ```python
    import optax

    opt = optax.lbfgs()
    updates, state = opt.update(grads, state, params)
    ```

    ## Use instead
    ```python
    import jax
    import optax

    opt = optax.lbfgs()
    value, grads = jax.value_and_grad(loss)(params)
    updates, state = opt.update(grads, state, params, value=value, grad=grads, value_fn=loss)
    ```

    ## Fix safety
    No automatic fix: the objective to pass is the author's to name.

    ## References
    - [optax.lbfgs](https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.lbfgs)
    """

    code = "JAX623"
    name = "optimizer-update-without-keywords"
    message = "An optax optimizer's update is called without the keyword arguments it requires"
    outcome = "TypeError from optax: missing required keyword-only arguments"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        name = update_receiver(node)
        if name is None:
            return
        needing = measured.optimizers_needing_keywords()
        made = optimizer_among(ctx, name, frozenset(needing))
        if made is None:
            return
        given = {k.arg for k in node.keywords}
        required = _needed(ctx, name, needing)
        missing = [k for k in required if k not in given]
        if not missing:
            return
        ctx.report(
            node,
            f"`{name}` is {made}, whose update requires {_listed(required)} (keyword-only), "
            f"but `{name}.update` is called without {_listed(missing)}: optax raises "
            f"`TypeError`; pass them, `{name}.update(grads, state, params, "
            + ", ".join(f"{k}=..." for k in missing)
            + ")`",
        )


def _needed(ctx: Context, name: str, needing: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The keywords the optimizer bound to ``name`` requires (the first optimizer of a chain
    that requires any)."""
    for optimizer, keywords in needing.items():
        if optimizer_among(ctx, name, frozenset({optimizer})) is not None:
            return keywords
    return ()


def _listed(names: list[str] | tuple[str, ...]) -> str:
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
