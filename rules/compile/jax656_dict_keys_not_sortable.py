"""JAX656: a dict whose keys cannot be sorted (``{0: w, "head": v}``) handed to JAX as a pytree."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet

TREE_PREFIXES = ("jax.tree.", "jax.tree_util.")


class DictKeysNotSortable(Rule):
    """## What it does
    Finds a dict whose keys mix types that Python cannot order (`{0: w0, 1: w1, "head": v}`, an
    int and a str) passed to a transformed function (`jax.jit(forward)(layers, x)`, a function
    decorated with `@jax.jit`) or to a `jax.tree` function: written there, or bound once to a name.

    ## Why is this bad?
    JAX flattens a dict pytree in sorted key order, and `0 < "head"` raises: JAX raises
    `ValueError: Comparator raised exception while sorting pytree dictionary keys` (measured
    with JAX 0.10.2, for `jit`, `jax.tree.map` and `jax.tree.leaves`). Use keys of one type
    (`"layer_0"`, `"head"`), or a list for the numbered part.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def forward(layers, x):
        return x @ layers[0] @ layers["head"]

    layers = {0: jnp.ones((3, 3)), "head": jnp.ones((3, 1))}
    out = jax.jit(forward)(layers, jnp.ones((2, 3)))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def forward(layers, x):
        return x @ layers["layer_0"] @ layers["head"]

    layers = {"layer_0": jnp.ones((3, 3)), "head": jnp.ones((3, 1))}
    out = jax.jit(forward)(layers, jnp.ones((2, 3)))
    ```

    ## Fix safety
    No automatic fix: every reader of the keys must change with them.

    ## References
    - [JAX: pytrees](https://docs.jax.dev/en/latest/pytrees.html)
    """

    code = "JAX656"
    name = "dict-keys-not-sortable"
    message = "A dict pytree mixes key types that cannot be sorted"
    outcome = "ValueError: Comparator raised exception while sorting pytree dictionary keys"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not (node.args or node.keywords) or not self.flattens(node, ctx):
            return
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            display = _mixed_keys(argument, ctx.scope)
            if display is not None:
                types = sorted({type(k.value).__name__ for k in display.keys if isinstance(k, ast.Constant)})
                ctx.report(
                    argument,
                    f"`{snippet(ctx, argument)}` is a dict whose keys mix {' and '.join(types)} "
                    f"(line {display.lineno}): JAX sorts a dict's keys to flatten it, and raises "
                    f"`ValueError` (the keys cannot be compared); use keys of one type",
                )
                return

    def flattens(self, node: ast.Call, ctx: Context) -> bool:
        """A call that flattens its arguments as pytrees: of a transformed function, or a tree
        function of JAX."""
        func = node.func
        if isinstance(func, ast.Call):  # `jax.jit(forward)(...)`
            return ctx.model.transform_of(func.func, ctx.scope) is not None
        qualname = ctx.qualname(func) or ""
        if qualname.startswith(TREE_PREFIXES):
            return True
        found = ctx.model.resolve_function(func, ctx.scope)
        return found is not None and bool(found[0].jit_sites or found[0].transformed_by)


def _mixed_keys(expr: ast.expr, scope: Scope) -> ast.Dict | None:
    """The dict display ``expr`` is (or a name bound once to), when its constant keys are of
    types that cannot be ordered together: numbers and strings (``None`` with either)."""
    expr, _ = scope.followed(expr)
    if not isinstance(expr, ast.Dict) or any(k is None for k in expr.keys):
        return None
    kinds = set()
    for key in expr.keys:
        if not isinstance(key, ast.Constant):
            return None
        value = key.value
        kinds.add(
            "number"
            if isinstance(value, (int, float)) and not isinstance(value, bool)
            else type(value).__name__
        )
    return expr if len(kinds) > 1 else None
