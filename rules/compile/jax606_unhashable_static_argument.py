"""JAX606: an unhashable value (a list, dict, set or array) passed as a static argument."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import is_jax_array, is_static

from ..support.explain import snippet
from .jitted import declares_static, jitted_callee

DISPLAYS = {
    ast.List: "a list",
    ast.ListComp: "a list",
    ast.Dict: "a dict",
    ast.DictComp: "a dict",
    ast.Set: "a set",
    ast.SetComp: "a set",
}
NUMPY_ARRAYS = frozenset(
    f"numpy.{name}"
    for name in ["array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye"]
)
CONTAINER_BUILTINS = {"builtins.list": "a list", "builtins.dict": "a dict", "builtins.set": "a set"}


class UnhashableStaticArgument(Rule):
    """## What it does
    Finds a call of a jitted function that passes a list, dict or set (a literal, a comprehension,
    `list(...)`, or a name bound once to one), a tuple holding one, or an array (a JAX array, or a
    NumPy array made on the spot) in a position that `static_argnums` / `static_argnames` declares
    static.

    ## Why is this bad?
    JAX looks static arguments up in its compilation cache by hash, so they must be hashable:
    lists, dicts, sets and arrays are not, and the call raises `ValueError: Non-hashable static
    arguments are not supported`. Pass a tuple (or a frozen dataclass) instead, or make the
    parameter an ordinary traced argument (arrays belong there).

    ## Example
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnames=("sizes",))
    def split_sum(x, sizes):
        return [jnp.sum(part) for part in jnp.split(x, sizes)]

    parts = split_sum(jnp.arange(10.0), sizes=[2, 5])
    ```

    ## Use instead
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnames=("sizes",))
    def split_sum(x, sizes):
        return [jnp.sum(part) for part in jnp.split(x, sizes)]

    parts = split_sum(jnp.arange(10.0), sizes=(2, 5))
    ```

    ## Fix safety
    No automatic fix: a tuple is hashable, but the function may rely on the argument being a
    list (appending to it, say).

    ## References
    - [jax.jit: static_argnums](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)
    """

    code = "JAX606"
    name = "unhashable-static-argument"
    message = "An unhashable value is passed as a static argument of a jitted function"
    outcome = "ValueError: Non-hashable static arguments are not supported"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not declares_static(ctx):
            return
        callee = jitted_callee(ctx, node)
        if callee is None or not callee.static:
            return
        for parameter, argument in callee.static_arguments(node):
            kind = _unhashable(ctx, argument)
            if kind is None:
                continue
            cure = (
                "pass it as an ordinary (traced) argument"
                if "array" in kind
                else "pass a tuple (or another hashable value)"
            )
            ctx.report(
                argument,
                f"`{snippet(ctx, argument)}` is {kind}, passed as static argument `{parameter}` of jitted "
                f"`{callee.info.name}`: static arguments must be hashable, so JAX raises `ValueError: "
                f"Non-hashable static arguments are not supported`; {cure}",
            )


def _unhashable(ctx: Context, node: ast.expr, depth: int = 0) -> str | None:
    """What unhashable thing ``node`` certainly evaluates to, or None."""
    if depth > 8:
        return None
    for kind, description in DISPLAYS.items():
        if isinstance(node, kind):
            return description
    if isinstance(node, ast.Tuple):
        inner = next((k for e in node.elts if (k := _unhashable(ctx, e, depth + 1))), None)
        return None if inner is None else f"a tuple holding {inner}"
    if isinstance(node, ast.Call):
        qualname = ctx.qualname(node.func)
        if qualname in NUMPY_ARRAYS:
            return "a NumPy array"
        if qualname in CONTAINER_BUILTINS:
            return CONTAINER_BUILTINS[qualname]
    if isinstance(node, ast.Name):
        owner = ctx.scope.lookup(node.id)
        if owner is not None and owner.bound.get(node.id) == 1:
            value = owner.assigned.get(node.id)
            if value is not None and not isinstance(value, ast.Name):
                found = _unhashable(ctx, value, depth + 1)
                if found is not None:
                    return found
    value = ctx.value(node)
    if is_jax_array(value) and not is_static(value):
        return "a JAX array"
    return None
