"""JAX308: the array ``jax.random.split(key, n)`` returns, passed where one key goes."""

from __future__ import annotations

import ast
from functools import cache

from jaxlint.engine.astutil import callee_leaf, keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet

SPLIT = "jax.random.split"
DEPTH = 4  # names followed to their single binding


class KeyArrayPassedAsOneKey(Rule):
    """## What it does
    Finds a `jax.random` function that takes one key (every sampler, `split`, `fold_in`) given
    the whole array that `jax.random.split(key, n)` returns, written there or bound once to a
    name: `jax.random.bernoulli(keys, 0.9)` after `keys = jax.random.split(key, 3)`.

    ## Why is this bad?
    `split` returns an array of `n` keys (two by default), and these functions take a single
    key: JAX raises `ValueError` ("normal accepts a single key, but was given a key array of
    shape (3,)"), for typed and legacy keys, eagerly and under `jit`. Index one key
    (`keys[0]`), unpack them, or map over them with `jax.vmap`.

    ## Example
    ```python
    import jax

    key = jax.random.key(0)
    keys = jax.random.split(key, 3)
    mask = jax.random.bernoulli(keys, 0.9, (4,))
    ```

    ## Use instead
    ```python
    import jax

    key = jax.random.key(0)
    keys = jax.random.split(key, 3)
    mask = jax.random.bernoulli(keys[0], 0.9, (4,))
    ```

    ## Fix safety
    No automatic fix: which key was meant (or a `vmap` over all of them) is the author's.

    ## References
    - [jax.random.split](https://docs.jax.dev/en/latest/_autosummary/jax.random.split.html)
    """

    code = "JAX308"
    mentioned = frozenset({"split"})  # the key array comes from `jax.random.split`
    name = "key-array-passed-as-one-key"
    message = "The array of keys `jax.random.split` returns is passed where one key goes"
    outcome = "ValueError: accepts a single key, but was given a key array"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in _one_key_names():
            return  # cheap first: the name a call is written with
        qualname = ctx.qualname(node.func)
        if qualname is None or not _takes_one_key(qualname):
            return
        key = node.args[0] if node.args else keyword_argument(node, "key")
        split = None if key is None or isinstance(key, ast.Starred) else _split_array(ctx, key, ctx.scope, 0)
        if split is None or key is None:
            return
        name = qualname.rsplit(".", 1)[1]
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` is given `{snippet(ctx, key)}`, the array of keys `{snippet(ctx, split)}` "
            f"returns (line {split.lineno}), where `{name}` takes one key: JAX raises `ValueError` "
            f"({name} accepts a single key); pass one of them (`{snippet(ctx, key)}[0]`), or map "
            f"over them with `jax.vmap`",
        )


@cache
def _one_key_names() -> frozenset[str]:
    """The names of the ``jax.random`` functions that take one key (``normal``, ``fold_in``)."""
    return frozenset({"fold_in", *(name.rsplit(".", 1)[1] for name in measured.key_consumers())})


def _takes_one_key(qualname: str) -> bool:
    """A ``jax.random`` function that takes one key: every consumer (measured) and ``fold_in``."""
    return qualname == "jax.random.fold_in" or measured.consumes_key(qualname) is True


def _split_array(ctx: Context, expr: ast.expr, scope: Scope, depth: int) -> ast.Call | None:
    """The ``split`` call ``expr`` is, written there or bound once to a name (not unpacked)."""
    if isinstance(expr, ast.Name) and depth < DEPTH:
        found = scope.bound_value(expr.id)
        return None if found is None else _split_array(ctx, found[0], found[1], depth + 1)
    if isinstance(expr, ast.Call) and ctx.model.qualname(expr.func, scope) == SPLIT:
        return expr
    return None
