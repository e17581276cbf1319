"""JAX645: ``optax.add_decayed_weights`` chained after the learning rate is applied."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import api

from ..support.explain import snippet
from ..support.optimizers import CHAINS

# optax transformations whose output is already the step: scaled by `-learning_rate`. Measured
# with optax 0.2.8: in `chain(opt(1e-2), add_decayed_weights(0.1))` with zero gradients, every
# one of these lets a weight of 2.0 grow to 3.22 in five steps (decay added with the wrong sign,
# unscaled); `lbfgs` (a line search) is left out, unmeasured.
STEP_MAKERS = (api.OPTAX_OPTIMIZERS - {"optax.chain", "optax.lbfgs"}) | {"optax.scale_by_learning_rate"}
DECAY = "optax.add_decayed_weights"


class WeightDecayAfterLearningRate(Rule):
    """## What it does
    Finds `optax.add_decayed_weights(...)` chained after a transformation that already applied
    the learning rate: an optimizer (`optax.adam(lr)`, `optax.sgd(lr)`, ...) or
    `optax.scale_by_learning_rate(lr)`, as in `optax.chain(optax.adam(1e-3),
    optax.add_decayed_weights(1e-4))`.

    ## Why is this bad?
    An optimizer's output is the step itself, `-learning_rate * direction`. Chained after it,
    `add_decayed_weights(wd)` adds `wd * params` to that step: the decay is not scaled by the
    learning rate and has the wrong sign, so `apply_updates` makes the weights grow by a factor
    `1 + wd` every step (measured with optax 0.2.8: with zero gradients and `wd = 0.1`, a
    weight of 2.0 becomes 3.22 after five steps). Decoupled weight decay is `optax.adamw(lr,
    weight_decay=wd)` (or the decay before the learning rate, as `adamw` chains it).

    ## Example
    ```python
    import optax

    tx = optax.chain(optax.adam(1e-3), optax.add_decayed_weights(1e-4))
    ```

    ## Use instead
    ```python
    import optax

    tx = optax.adamw(1e-3, weight_decay=1e-4)
    ```

    ## Fix safety
    No automatic fix: `adamw` scales the decay by the learning rate, which changes its strength;
    the author picks the decay they meant.

    ## References
    - [optax: add_decayed_weights](https://optax.readthedocs.io/en/latest/api/transformations.html#optax.add_decayed_weights)
    - [optax: adamw](https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.adamw)
    """

    code = "JAX645"
    mentioned = frozenset({"add_decayed_weights"})
    name = "weight-decay-after-learning-rate"
    message = "Weight decay is chained after the learning rate was applied"
    outcome = "the weights grow instead of decaying, silently"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.qualname(node.func) not in CHAINS:
            return
        stepped: ast.Call | None = None
        for written in node.args:
            argument, scope = ctx.scope.followed(written)  # `opt = optax.adam(lr)`, chained as `opt`
            if not isinstance(argument, ast.Call):
                continue
            qualname = ctx.model.qualname(argument.func, scope)
            if qualname in STEP_MAKERS and stepped is None:
                stepped = argument
            elif qualname == DECAY and stepped is not None:
                ctx.report(
                    written,
                    f"`{snippet(ctx, argument)}` comes after `{snippet(ctx, stepped)}`, whose output is "
                    f"already the step (`-learning_rate * direction`): the decay is added unscaled and "
                    f"with the wrong sign, so the weights grow by `1 + weight_decay` every step; use "
                    f"`optax.adamw(..., weight_decay=...)`, or chain the decay before the learning rate",
                )
                return
