"""JAX414: a dict's keys, in insertion order, paired with its tree leaves, in sorted-key order."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.transforms import TREE_MAP

from ..support.explain import snippet

LEAVES = frozenset({"jax.tree.leaves", "jax.tree_util.tree_leaves", "jax.tree_leaves"})
DEPTH = 3  # names followed to a tree.map of the dict


class DictKeysZippedWithLeaves(Rule):
    """## What it does
    Finds `zip(d.keys(), jax.tree.leaves(t))` (or `zip(d, ...)`, `zip(list(d), ...)`, the leaves
    inside a comprehension) where `d` is a dict written in the file with keys out of sorted
    order, and `t` is `d` or a `jax.tree.map` of it (the same keys).

    ## Why is this bad?
    JAX flattens a dict in sorted-key order (`"bias"` before `"weight"`), whatever order its
    keys were inserted in, while `d.keys()` keeps insertion order. The pairs are mislabeled:
    the bias's values are reported under `"weight"`. Nothing raises. Use
    `jax.tree_util.tree_leaves_with_path`, or iterate over the dicts themselves
    (`{k: f(t[k]) for k in d}`).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    params = {"weight": jnp.ones((3, 2)), "bias": jnp.zeros(2)}
    grads = jax.tree.map(jnp.ones_like, params)
    norms = dict(zip(params.keys(), jax.tree.leaves(grads)))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    params = {"weight": jnp.ones((3, 2)), "bias": jnp.zeros(2)}
    grads = jax.tree.map(jnp.ones_like, params)
    norms = {name: grads[name] for name in params}
    ```

    ## Fix safety
    No automatic fix: how to key the values is the author's call.

    ## References
    - [JAX: Working with pytrees](https://docs.jax.dev/en/latest/working-with-pytrees.html)
    """

    code = "JAX414"
    name = "dict-keys-zipped-with-leaves"
    message = "A dict's keys in insertion order are paired with its tree leaves in sorted-key order"
    outcome = "values are silently paired with the wrong keys"
    severity = "warning"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not isinstance(node.func, ast.Name) or node.func.id != "zip" or len(node.args) != 2:
            return
        if not ctx.mentions("leaves") or ctx.qualname(node.func) != "builtins.zip":
            return
        keys = _dict_keys_of(ctx, node.args[0])
        leaves = _leaves_call(ctx, node.args[1])
        if keys is None or leaves is None or not leaves.args:
            return
        name, written = keys
        if written == sorted(written) or not _same_keys(ctx, leaves.args[0], name):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` pairs the keys of `{name}` in insertion order "
            f"({', '.join(repr(k) for k in written)}) with `{snippet(ctx, leaves)}`, which JAX orders "
            f"by sorted key ({', '.join(repr(k) for k in sorted(written))}): the values go under the "
            f"wrong keys; use `jax.tree_util.tree_leaves_with_path`, or index the dict by key",
        )


def _dict_keys_of(ctx: Context, expr: ast.expr) -> tuple[str, list[str]] | None:
    """``d`` and its literal keys in written order, for ``d.keys()``, ``d`` or ``list(d)`` where
    ``d`` is bound once to a dict display with string keys."""
    if isinstance(expr, ast.Call) and not expr.keywords:
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "keys" and not expr.args:
            expr = expr.func.value
        elif isinstance(expr.func, ast.Name) and expr.func.id == "list" and len(expr.args) == 1:
            expr = expr.args[0]
    if not isinstance(expr, ast.Name):
        return None
    value = ctx.scope.written_value(expr)
    if not isinstance(value, ast.Dict) or not value.keys:
        return None
    keys = [k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return (expr.id, keys) if len(keys) == len(value.keys) else None


def _leaves_call(ctx: Context, expr: ast.expr) -> ast.Call | None:
    """The ``jax.tree.leaves(...)`` ``expr`` is, or iterates over in a comprehension."""
    if isinstance(expr, (ast.ListComp, ast.GeneratorExp)) and len(expr.generators) == 1:
        expr = expr.generators[0].iter
    if isinstance(expr, ast.Call) and ctx.qualname(expr.func) in LEAVES:
        return expr
    return None


def _same_keys(ctx: Context, tree: ast.expr, name: str, depth: int = 0) -> bool:
    """Whether ``tree`` is the dict ``name``, or a ``jax.tree.map`` over it (bound once)."""
    if isinstance(tree, ast.Name) and tree.id == name:
        return True
    if isinstance(tree, ast.Name) and depth < DEPTH:
        found = ctx.scope.bound_value(tree.id)
        return found is not None and _same_keys(ctx, found[0], name, depth + 1)
    return (
        isinstance(tree, ast.Call)
        and ctx.qualname(tree.func) == TREE_MAP
        and len(tree.args) > 1
        and _same_keys(ctx, tree.args[1], name, depth + 1)
    )
