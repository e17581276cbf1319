"""JAX622: a linen module's ``apply`` handed the ``"params"`` collection instead of the variables."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.callsites import passed_arguments
from ..support.explain import snippet
from ..support.linen import linen_construction

DEPTH = 3  # names followed to their single binding


class LinenApplyGivenParams(Rule):
    """## What it does
    Finds `module.apply(params, ...)` (or `init_with_output`, `bind`) on a flax linen module
    with parameters, where `params` is the `"params"` collection taken out of the variables:
    `variables["params"]`, directly, through a name bound once to it, or through a parameter
    that every call in sight gives it (`jax.grad(loss_fn)(params, x)` where `loss_fn` applies
    the module to its `params`).

    ## Why is this bad?
    `apply` takes the variables: a dict of collections, `{"params": ...}`. Given the contents of
    the `"params"` collection, it finds no `"params"` collection in it and flax raises
    `ScopeCollectionNotFound` ("Tried to access "kernel" from collection "params" ... but the
    collection is empty"), or `ApplyScopeInvalidVariablesTypeError` where the entries it finds
    are arrays rather than collections. Pass `{"params": params}`, or the variables as `init` returned them.

    ## Example
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    model = nn.Dense(2)
    params = model.init(jax.random.key(0), jnp.ones((1, 3)))["params"]
    y = model.apply(params, jnp.ones((1, 3)))
    ```

    ## Use instead
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    model = nn.Dense(2)
    params = model.init(jax.random.key(0), jnp.ones((1, 3)))["params"]
    y = model.apply({"params": params}, jnp.ones((1, 3)))
    ```

    ## Fix safety
    No automatic fix: other collections (`batch_stats`) may belong in the variables too.

    ## References
    - [flax linen: Module.apply](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/module.html)
    """

    code = "JAX622"
    name = "linen-apply-given-params"
    message = "A linen module's `apply` is given the `params` collection instead of the variables"
    outcome = "ScopeCollectionNotFound or ApplyScopeInvalidVariablesTypeError"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in ("apply", "bind") or not node.args:
            return
        variables = node.args[0]
        if not ctx.mentions("params") or linen_construction(ctx, func.value) is None:
            return
        taken = _params_collection(ctx, variables)
        if taken is None:
            return
        ctx.report(
            variables,
            f"`{snippet(ctx, variables)}` is the `'params'` collection (`{snippet(ctx, taken)}`), but "
            f"`{func.attr}` takes the variables, a dict of collections: flax finds no `'params'` "
            f"collection in it and raises (`ScopeCollectionNotFound`, or "
            f"`ApplyScopeInvalidVariablesTypeError` where its entries are arrays); pass "
            f"`{{'params': {snippet(ctx, variables)}}}`",
        )


def _params_collection(
    ctx: Context, expr: ast.expr, scope: Scope | None = None, depth: int = 0
) -> ast.Subscript | None:
    """The ``variables["params"]`` ``expr`` is, directly, through names bound once, or through
    a parameter every call in sight gives it (``jax.grad(loss_fn)(params, x)``)."""
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.slice, ast.Constant)
        and expr.slice.value == "params"
    ):
        return expr
    if not isinstance(expr, ast.Name) or depth >= DEPTH:
        return None
    owner = (scope or ctx.model.scope_of_load(expr)).lookup(expr.id)
    if owner is None:
        return None
    value = owner.single_value(expr.id)
    if value is not None:
        return _params_collection(ctx, value, None, depth + 1)
    return _passed_params_collection(ctx, owner, expr.id, depth)


def _passed_params_collection(ctx: Context, owner: Scope, name: str, depth: int) -> ast.Subscript | None:
    """The ``variables["params"]`` every call in sight passes for parameter ``name`` of the
    function ``owner`` is."""
    function = ctx.model.function_of(owner)
    passed = None if function is None else passed_arguments(ctx.model, function, name)
    taken = [_params_collection(ctx, argument, scope, depth + 1) for argument, scope in passed or []]
    return taken[0] if taken and all(taken) else None
