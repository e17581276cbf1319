"""JAX619: a string handed to ``jnp.array``/``jnp.asarray``."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

ARRAY_MAKERS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
MAX_DEPTH = 4


class StringInJaxArray(Rule):
    """## What it does
    Finds `jnp.array(...)` or `jnp.asarray(...)` given a string, or a list or tuple written with
    a string among its items (directly, or through a name bound once to one): class labels,
    token strings, file names.

    ## Why is this bad?
    JAX arrays hold numbers and booleans only: JAX raises `TypeError` ("Value 'cat' with dtype
    <U3 is not a valid JAX array type. Only arrays of numeric types are supported by JAX").
    Map the strings to integer ids first (a dict, or `np.unique(labels, return_inverse=True)`),
    and keep the strings in Python or NumPy.

    ## Example
    ```python
    import jax.numpy as jnp

    labels = ["cat", "dog", "cat"]
    y = jnp.array(labels)
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    classes = {"cat": 0, "dog": 1}
    labels = ["cat", "dog", "cat"]
    y = jnp.array([classes[label] for label in labels])
    ```

    ## Fix safety
    No automatic fix: the mapping from strings to numbers is the author's to choose.

    ## References
    - [JAX: Type promotion and dtypes](https://docs.jax.dev/en/latest/type_promotion.html)
    """

    code = "JAX619"
    name = "string-in-jax-array"
    message = "A string is handed to `jnp.array`"
    outcome = "TypeError: only arrays of numeric types are supported by JAX"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in ("array", "asarray") or not node.args:
            return
        if ctx.qualname(node.func) not in ARRAY_MAKERS:
            return
        found = _string_in(ctx, node.args[0], 0)
        if found is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` is given the string `{snippet(ctx, found)}`: JAX arrays hold "
            f"numbers only, so JAX raises `TypeError`; map the strings to integer ids first",
        )


def _string_in(ctx: Context, node: ast.expr, depth: int) -> ast.expr | None:
    """A string certainly among the items of ``node`` (a literal, a display, a name bound once)."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, (ast.Constant, ast.JoinedStr)):
        return node if isinstance(node, ast.JoinedStr) or isinstance(node.value, str) else None
    if isinstance(node, (ast.List, ast.Tuple)):
        return next((found for e in node.elts if (found := _string_in(ctx, e, depth + 1))), None)
    if isinstance(node, ast.Name):
        owner = ctx.scope.lookup(node.id)
        if owner is None or owner.bound.get(node.id) != 1 or node.id in owner.params:
            return None
        value = owner.single_value(node.id)
        return None if value is None else _string_in(ctx, value, depth + 1)
    return None
