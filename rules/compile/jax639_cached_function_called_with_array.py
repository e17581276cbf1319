"""JAX639: a ``functools.lru_cache``/``cache`` function called with a JAX array."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import is_jax_array, is_traced

from ..support.caching import cache_decorator
from ..support.explain import snippet


class CachedFunctionCalledWithArray(Rule):
    """## What it does
    Finds a call of a function of this module decorated with `functools.lru_cache` or
    `functools.cache` that passes a JAX array as an argument (a tracer: JAX503).

    ## Why is this bad?
    The cache hashes its arguments to look them up, and JAX arrays are unhashable (so are
    tracers, and NumPy arrays): the call raises `TypeError` ("unhashable type:
    'ArrayImpl'"), eagerly and under `jit` alike. Cache on the static parts only (shapes, sizes,
    config), or let `jax.jit` cache the compiled function.

    ## Example
    ```python
    import functools

    import jax.numpy as jnp

    @functools.lru_cache(maxsize=None)
    def gram(x):
        return x @ x.T

    gram(jnp.ones((3, 3)))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def gram(x):
        return x @ x.T

    gram(jnp.ones((3, 3)))
    ```

    ## Fix safety
    No automatic fix: what the cache was meant to keep is the author's.

    ## References
    - [functools.lru_cache](https://docs.python.org/3/library/functools.html#functools.lru_cache)
    - [JAX: jax.Array is not hashable](https://docs.jax.dev/en/latest/faq.html)
    """

    code = "JAX639"
    mentioned = frozenset({"cache"})
    name = "cached-function-called-with-array"
    message = "A `functools.lru_cache` function is called with a JAX array, which is unhashable"
    outcome = "TypeError: unhashable type: 'ArrayImpl'"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not isinstance(node.func, ast.Name) or not (node.args or node.keywords):
            return
        cache = _cache_of(ctx, node.func)
        if cache is None:
            return
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(argument, ast.Starred) or not _array(ctx, argument):
                continue
            ctx.report(
                node,
                f"`{snippet(ctx, node.func)}` is cached by `{cache}`, which hashes its arguments, and "
                f"`{snippet(ctx, argument)}` is a JAX array, which is unhashable: the call raises "
                f"`TypeError`; cache on static values only (shapes, sizes), or compile it with "
                f"`jax.jit`, which caches by shape and dtype",
            )
            return


def _cache_of(ctx: Context, func: ast.expr) -> str | None:
    """The caching decorator (``functools.lru_cache``) of the function of this module that
    ``func`` names (``@lru_cache(maxsize=None)`` or ``@functools.cache``), resolved as JAX503
    resolves it for tracers."""
    found = ctx.model.resolve_function(func, ctx.scope)
    target = None if found is None else found[0]
    return (
        None if target is None else cache_decorator(ctx.model, target.node, target.scope.parent or ctx.scope)
    )


def _array(ctx: Context, expr: ast.expr) -> bool:
    """A concrete JAX array (a tracer is JAX503's: it raises for the same reason)."""
    value = ctx.value(expr)
    return is_jax_array(value) and not is_traced(value)
