"""JAX629: a flax linen module applied in a mode that updates its batch statistics, with those
statistics immutable."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.blocks import parents
from ..support.explain import snippet
from ..support.linen_run import Frame, applied_module

# layers that update a collection when their mode flag is False, and that collection
UPDATING_LAYERS = {"flax.linen.BatchNorm": "batch_stats"}


class LinenBatchStatsImmutable(Rule):
    """## What it does
    Finds `module.apply(variables, ...)` without `mutable=` on a flax linen module of this file
    whose `__call__`, run with the arguments given, normalises with batch statistics: an
    `nn.BatchNorm` that the arguments put in training mode (`train=True` where the layer gets
    `use_running_average=not train`), in the module or in a submodule it calls; or that sets
    the `.value` of a variable of another collection than `params` (`c = self.variable("stats",
    "calls", init)` then `c.value += 1`). Only code that always runs counts, and only flags the
    arguments decide.

    ## Why is this bad?
    In training mode `BatchNorm` updates its running mean and variance, in the `batch_stats`
    collection, and `apply` makes every collection immutable unless `mutable=` says otherwise:
    flax raises `ModifyScopeVariableError` ("Cannot update variable "mean" in
    "/BatchNorm_0" because collection "batch_stats" is immutable"). Pass
    `mutable=["batch_stats"]` and keep the updated statistics that `apply` then returns beside
    the output.

    ## Example
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(4)(x)
            return nn.BatchNorm(use_running_average=not train)(x)

    model = Classifier()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.key(0), x)
    y = model.apply(variables, x, train=True)
    ```

    ## Use instead
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = False):
            x = nn.Dense(4)(x)
            return nn.BatchNorm(use_running_average=not train)(x)

    model = Classifier()
    x = jnp.ones((2, 3))
    variables = model.init(jax.random.key(0), x)
    y, updates = model.apply(variables, x, train=True, mutable=["batch_stats"])
    ```

    ## Fix safety
    No automatic fix: `apply` then returns the updated statistics too, and the caller must keep them.

    ## References
    - [flax linen: BatchNorm](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/layers.html#flax.linen.BatchNorm)
    - [flax: Module.apply, mutable](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/module.html#flax.linen.Module.apply)
    """

    code = "JAX629"
    name = "linen-batch-stats-immutable"
    message = "A flax linen module that updates a collection (batch statistics) is applied without `mutable`"
    outcome = 'flax.errors.ModifyScopeVariableError: collection "batch_stats" is immutable'
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if any(k.arg == "mutable" for k in node.keywords) or not (
            ctx.mentions("BatchNorm") or ctx.mentions("variable")
        ):
            return
        found = applied_module(ctx, node, statistics_update) or applied_module(ctx, node, variable_write)
        if found is None:
            return
        cls, (site, collection, how) = found
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` leaves every collection immutable (no `mutable=`), but with "
            f"these arguments `{cls.name}` updates its `{collection}` (`{snippet(ctx, site)}`, line "
            f"{site.lineno}, {how}): flax raises `ModifyScopeVariableError`; pass "
            f'`mutable=["{collection}"]` and keep the updated collection it returns beside the output',
        )


def statistics_update(
    frame: Frame, call: ast.Call, construction: ast.Call | None, layer: str | None
) -> tuple[ast.Call, str, str] | None:
    """``call`` and the collection it updates: a ``BatchNorm`` the frame's values put in
    training mode (``use_running_average`` False)."""
    if construction is None or layer not in UPDATING_LAYERS:
        return None
    if frame.mode_flag(call, construction, layer) is not False:
        return None
    return call, UPDATING_LAYERS[layer], "in training mode"


def variable_write(
    frame: Frame, call: ast.Call, construction: ast.Call | None, layer: str | None
) -> tuple[ast.Call, str, str] | None:
    """``v = self.variable("stats", "calls", init)`` whose ``v.value`` the method then always
    sets (``v.value += 1``): the collection it writes, outside ``params``."""
    func = call.func
    if construction is not None or not isinstance(func, ast.Attribute) or func.attr != "variable":
        return None
    if not (isinstance(func.value, ast.Name) and func.value.id == frame.this) or not call.args:
        return None
    collection = call.args[0]
    if not isinstance(collection, ast.Constant) or not isinstance(collection.value, str):
        return None
    if collection.value == "params":
        return None
    ancestry = parents(frame.ctx)
    statement = ancestry.get(call)
    method = ancestry.get(statement) if statement is not None else None
    if not isinstance(statement, ast.Assign) or not isinstance(method, ast.FunctionDef):
        return None
    target = statement.targets[0] if len(statement.targets) == 1 else None
    if not isinstance(target, ast.Name) or statement not in method.body:
        return None
    for later in method.body[method.body.index(statement) + 1 :]:
        if not isinstance(later, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
            return None  # a branch, a loop, a return: what follows may not run
        targets = later.targets if isinstance(later, ast.Assign) else [getattr(later, "target", None)]
        if any(_value_of(t, target.id) for t in targets):
            return call, collection.value, f"whose `.value` it sets at line {later.lineno}"
    return None


def _value_of(target: ast.expr | None, name: str) -> bool:
    """``name.value`` as an assignment target."""
    return (
        isinstance(target, ast.Attribute)
        and target.attr == "value"
        and isinstance(target.value, ast.Name)
        and target.value.id == name
    )
