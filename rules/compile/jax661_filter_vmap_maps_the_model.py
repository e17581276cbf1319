"""JAX661: ``eqx.filter_vmap`` with its default ``in_axes`` given an equinox layer to share."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.callsites import calls_of_result
from ..support.explain import snippet

FILTER_VMAP = "equinox.filter_vmap"
LAYERS = "equinox.nn."
MODULE = "equinox.Module"


class FilterVmapMapsTheModel(Rule):
    """## What it does
    Finds a function mapped by `eqx.filter_vmap` without `in_axes` (a decorator or a call)
    that a call in sight gives an equinox layer or module built there (`eqx.nn.Linear(3, 2,
    key=key)`, an instance of an `eqx.Module` of this file): `predict(model, xs)` with
    `@eqx.filter_vmap def predict(model, x)`.

    ## Why is this bad?
    `filter_vmap`'s default `in_axes` maps every array it is given along axis 0, the layer's
    weight and bias included: each example gets one row of the weights. JAX raises `ValueError:
    vmap got inconsistent sizes for array axes to be mapped` where the sizes differ (measured
    with equinox 0.13.8), and computes silently wrong results where they match. Share the layer
    with `in_axes=(None, 0)` (or call `jax.vmap(model)(xs)` inside).

    ## Example
    ```python
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    model = eqx.nn.Linear(3, 2, key=jax.random.key(0))

    @eqx.filter_vmap
    def predict(model, x):
        return model(x)

    ys = predict(model, jnp.ones((5, 3)))
    ```

    ## Use instead
    ```python
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    model = eqx.nn.Linear(3, 2, key=jax.random.key(0))

    @eqx.filter_vmap(in_axes=(None, 0))
    def predict(model, x):
        return model(x)

    ys = predict(model, jnp.ones((5, 3)))
    ```

    ## Fix safety
    No automatic fix: which arguments are batched is the author's call.

    ## References
    - [equinox: filter_vmap](https://docs.kidger.site/equinox/api/transformations/#equinox.filter_vmap)
    """

    code = "JAX661"
    mentioned = frozenset({"filter_vmap"})
    name = "filter-vmap-maps-the-model"
    message = "`eqx.filter_vmap` with its default `in_axes` is given a layer to share"
    outcome = "ValueError: vmap got inconsistent sizes (or silently per-row weights)"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        """``@eqx.filter_vmap def predict(model, x)``, called ``predict(model, xs)``."""
        info = ctx.model.infos.get(node)
        if info is None or "filter_vmap" not in info.transformed_by:
            return
        if any(self.default_axes(decorator, ctx) for decorator in node.decorator_list):
            self.check_calls(node.name, ctx.model.calls_in_sight(info) or [], ctx)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        """``eqx.filter_vmap(predict)(model, xs)``, or through a name bound once to it."""
        if not node.args or not self.default_axes(node, ctx) or not isinstance(node.args[0], ast.Name):
            return
        calls = [(call, _call_scope(ctx, call)) for call in calls_of_result(ctx, node)]
        self.check_calls(node.args[0].id, calls, ctx)

    def check_calls(self, name: str, calls: list[tuple[ast.Call, Scope]], ctx: Context) -> None:
        for call, scope in calls:
            for argument in call.args:
                layer = _layer(ctx, argument, scope)
                if layer is not None:
                    ctx.report(
                        argument,
                        f"`{name}` is mapped by `eqx.filter_vmap` with its default `in_axes`, which "
                        f"maps every array along axis 0: `{snippet(ctx, argument)}` is the layer "
                        f"`{snippet(ctx, layer)}`, so each example gets one row of its weights, and JAX "
                        f"raises `ValueError` where the sizes differ; pass `in_axes=(None, 0)` to share it",
                    )
                    return

    def default_axes(self, decorator: ast.expr, ctx: Context) -> bool:
        """``@eqx.filter_vmap``, or ``@eqx.filter_vmap(...)`` without ``in_axes``."""
        if isinstance(decorator, ast.Call):
            return (
                ctx.qualname(decorator.func) == FILTER_VMAP and keyword_argument(decorator, "in_axes") is None
            )
        return ctx.qualname(decorator) == FILTER_VMAP


def _call_scope(ctx: Context, call: ast.Call) -> Scope:
    """The scope a call of a name (``mapped(model, xs)``) is made in."""
    return ctx.model.scope_of_load(call.func) if isinstance(call.func, ast.Name) else ctx.scope


def _layer(ctx: Context, expr: ast.expr, scope: Scope) -> ast.Call | None:
    """The construction of an equinox layer ``expr`` is, or a name bound once to."""
    expr, scope = scope.followed(expr)
    if not isinstance(expr, ast.Call):
        return None
    qualname = ctx.model.qualname(expr.func, scope) or ""
    last = qualname.removeprefix(LAYERS)
    if last != qualname and "." not in last and last[:1].isupper():
        return expr
    cls = ctx.model.class_named(expr.func, scope)
    if cls is not None and any(ctx.model.qualname(base, scope) == MODULE for base in cls.bases):
        return expr
    return None
