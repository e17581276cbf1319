"""JAX663: a ``vmap`` ``in_axes`` dict whose keys are not those of the dict it is given."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.callsites import calls_of_result
from ..support.explain import snippet

VMAP = "jax.vmap"


class VmapInAxesDictKeys(Rule):
    """## What it does
    Finds `jax.vmap(f, in_axes=(...))` whose `in_axes` gives an argument a dict of axes
    (`{"w": 0}`) while a call of the mapped function in sight passes a dict with other keys
    (`{"w": ..., "b": ...}`): the mapped function is bound to a name and called with a dict
    written out, or bound once to one.

    ## Why is this bad?
    An `in_axes` entry must be a prefix of the argument's pytree: a dict of axes needs every
    key of the dict it maps. JAX raises `ValueError: vmap in_axes specification must be a tree
    prefix of the corresponding value` (measured with JAX 0.10.2). Name every key, or give the
    whole argument one axis (`0`, or `None` to share it).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def apply(params, x):
        return x @ params["w"] + params["b"]

    params = {"w": jnp.ones((4, 3, 2)), "b": jnp.zeros((4, 2))}
    ensemble = jax.vmap(apply, in_axes=({"w": 0}, None))
    out = ensemble(params, jnp.ones((5, 3)))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def apply(params, x):
        return x @ params["w"] + params["b"]

    params = {"w": jnp.ones((4, 3, 2)), "b": jnp.zeros((4, 2))}
    ensemble = jax.vmap(apply, in_axes=({"w": 0, "b": 0}, None))
    out = ensemble(params, jnp.ones((5, 3)))
    ```

    ## Fix safety
    No automatic fix: the axis of each missing key is the author's.

    ## References
    - [jax.vmap](https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html)
    """

    code = "JAX663"
    mentioned = frozenset({"in_axes"})
    name = "vmap-in-axes-dict-keys"
    message = "A `vmap` `in_axes` dict does not have the keys of the dict it maps"
    outcome = "ValueError: vmap in_axes specification must be a tree prefix of the corresponding value"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        in_axes = keyword_argument(node, "in_axes") or (node.args[1] if len(node.args) > 1 else None)
        if not isinstance(in_axes, (ast.Tuple, ast.List)) or ctx.qualname(node.func) != VMAP:
            return
        specs = {i: _keys(e) for i, e in enumerate(in_axes.elts) if isinstance(e, ast.Dict)}
        specs = {i: keys for i, keys in specs.items() if keys is not None}
        if not specs:
            return
        for call in calls_of_result(ctx, node):
            for position, wanted in specs.items():
                if position >= len(call.args) or isinstance(call.args[position], ast.Starred):
                    continue
                given = _dict_display(call.args[position], ctx.scope)
                keys = _keys(given) if given is not None else None
                if keys is None or keys == wanted:
                    continue
                missing = sorted(map(repr, keys - wanted))
                extra = sorted(map(repr, wanted - keys))
                what = f"lacks {', '.join(missing)}" if missing else f"names {', '.join(extra)}, not in it"
                ctx.report(
                    in_axes.elts[position],
                    f"the `in_axes` dict `{snippet(ctx, in_axes.elts[position])}` {what} of the dict "
                    f"`{snippet(ctx, call.args[position])}` passed at line {call.lineno}: JAX raises "
                    f"`ValueError` (in_axes must be a tree prefix of the argument); give every key an "
                    f"axis, or the whole argument one",
                )
                return


def _keys(mapping: ast.Dict) -> frozenset[object] | None:
    if any(not isinstance(k, ast.Constant) for k in mapping.keys):
        return None
    return frozenset(k.value for k in mapping.keys if isinstance(k, ast.Constant))


def _dict_display(expr: ast.expr, scope: Scope) -> ast.Dict | None:
    expr, _ = scope.followed(expr)
    return expr if isinstance(expr, ast.Dict) else None
