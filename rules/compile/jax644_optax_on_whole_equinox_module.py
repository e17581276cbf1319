"""JAX644: optax's ``init``/``apply_updates`` given an equinox module that holds a function."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.equinox import function_leaf_module
from ..support.explain import snippet


class OptaxOnWholeEquinoxModule(Rule):
    """## What it does
    Finds `opt.init(model)` (an optax optimizer) and `optax.apply_updates(model, updates)`
    where `model` is an equinox layer or module whose pytree holds a function (`eqx.nn.MLP`
    holds its activations; which layers do is measured).

    ## Why is this bad?
    optax maps over every leaf of what it is given: `init` makes zeros like each leaf and
    raises `TypeError` on a function ("zeros_like requires ndarray or scalar arguments"), and
    `apply_updates` adds each update to its leaf (`TypeError: unsupported operand type(s) for
    +`). Give optax the arrays only, `opt.init(eqx.filter(model, eqx.is_array))`, and apply the
    updates with `eqx.apply_updates(model, updates)`, which skips the other leaves.

    ## Example
    ```python
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.key(0))
    opt = optax.adam(1e-3)
    state = opt.init(model)
    ```

    ## Use instead
    ```python
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.key(0))
    opt = optax.adam(1e-3)
    state = opt.init(eqx.filter(model, eqx.is_array))
    ```

    ## Fix safety
    No automatic fix: the filter may be another than `eqx.is_array` (trainable leaves only).

    ## References
    - [equinox: optax integration](https://docs.kidger.site/equinox/examples/train_rnn/)
    """

    code = "JAX644"
    mentioned = frozenset({"equinox"})
    name = "optax-on-whole-equinox-module"
    message = "An optax optimizer is given an equinox module that holds a function"
    outcome = "TypeError: optax maps over a function leaf"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not node.args or not ctx.mentions("equinox") or not ctx.mentions("optax"):
            return
        qualname = ctx.qualname(node.func)
        if qualname == "optax.apply_updates":
            what, cure = "adds each update to its leaf", "use `eqx.apply_updates(model, updates)`"
        elif _optimizer_init(ctx, node.func):
            what, cure = "makes a state like each leaf", "pass `eqx.filter(model, eqx.is_array)`"
        else:
            return
        found = function_leaf_module(ctx, node.args[0])
        if found is None:
            return
        held, where = found
        ctx.report(
            node,
            f"`{snippet(ctx, node)}`: `{snippet(ctx, node.args[0])}` is {where}`{snippet(ctx, held)}` "
            f"(line {held.lineno}), whose pytree holds a function, and optax {what}: it raises "
            f"`TypeError` on the function; {cure}",
        )


def _optimizer_init(ctx: Context, func: ast.expr) -> bool:
    """``opt.init`` where ``opt`` is bound once to an optax call (``optax.adam(1e-3)``)."""
    if not (isinstance(func, ast.Attribute) and func.attr == "init" and isinstance(func.value, ast.Name)):
        return False
    found = ctx.scope.bound_value(func.value.id)
    if found is None or not isinstance(found[0], ast.Call):
        return False
    return (ctx.model.qualname(found[0].func, found[1]) or "").startswith("optax.")
