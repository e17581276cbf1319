"""JAX635: integer class ids given to ``optax.softmax_cross_entropy``, which takes probabilities."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule

from ..support.dtypes import dtype_kind
from ..support.explain import snippet

LOSSES = frozenset({"optax.softmax_cross_entropy", "optax.losses.softmax_cross_entropy"})


@dataclass(frozen=True)
class IntegerLabels(FixRequest):
    """``optax.softmax_cross_entropy`` -> ``optax.softmax_cross_entropy_with_integer_labels``."""

    func: ast.expr


class IntegerLabelsToSoftmaxCrossEntropy(Rule):
    """## What it does
    Finds `optax.softmax_cross_entropy(logits, labels)` where `labels` is known to hold
    integers (class ids): made by `jnp.array([0, 2, 1])`, an integer dtype, or passed so by
    every call of the function it is a parameter of.

    ## Why is this bad?
    `softmax_cross_entropy` takes `labels` of the logits' shape: a probability (one-hot) per
    class. Class ids of shape `(batch,)` broadcast against logits of shape `(batch, classes)`:
    a `ValueError` ("Incompatible shapes for broadcasting"), or, where `batch == classes`,
    silently wrong losses. Use `optax.softmax_cross_entropy_with_integer_labels`, or one-hot
    the ids (`jax.nn.one_hot(labels, num_classes)`).

    ## Example
    ```python
    import jax.numpy as jnp
    import optax

    logits = jnp.zeros((4, 3))
    labels = jnp.array([0, 2, 1, 2])
    loss = optax.softmax_cross_entropy(logits, labels).mean()
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    import optax

    logits = jnp.zeros((4, 3))
    labels = jnp.array([0, 2, 1, 2])
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
    ```

    ## Fix safety
    The fix calls `softmax_cross_entropy_with_integer_labels` instead, where the loss is spelled
    as an attribute of `optax`. Unsafe: the loss changes (to the one meant).

    ## References
    - [optax: softmax_cross_entropy_with_integer_labels](https://optax.readthedocs.io/en/latest/api/losses.html)
    """

    code = "JAX635"
    name = "integer-labels-to-softmax-cross-entropy"
    message = "Integer class ids are given to `optax.softmax_cross_entropy`, which takes probabilities"
    outcome = "ValueError: Incompatible shapes for broadcasting, or silently wrong losses"
    fix_title = "Use `softmax_cross_entropy_with_integer_labels`"
    fix_availability = FixAvailability.SOMETIMES
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.mentions("softmax_cross_entropy") or ctx.qualname(node.func) not in LOSSES:
            return
        labels = node.args[1] if len(node.args) > 1 else keyword_argument(node, "labels")
        kind = None if labels is None else dtype_kind(ctx.model, labels, ctx.scope, through_calls=True)
        if labels is None or kind is None or kind.kind != "int" or kind.weak:
            return
        ctx.report(
            labels,
            f"`{snippet(ctx, labels)}` holds integer class ids ({kind.describe()}), but "
            f"`{snippet(ctx, node.func)}` takes one probability per class, of the logits' shape: the ids "
            f"broadcast against the logits (a `ValueError`, or silently wrong losses where the batch "
            f"size equals the number of classes); use `optax.softmax_cross_entropy_with_integer_labels`",
            fix=IntegerLabels(node.func),
        )
