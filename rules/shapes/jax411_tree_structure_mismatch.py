"""JAX411: ``jax.tree.map`` over trees whose structures differ."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.structures import Output, output_of, pairs, structure_differs

TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map_with_path", "jax.tree.map_with_path"})
LEAVES = frozenset({"tree_map", "map", "tree_map_with_path", "map_with_path"})
CONTAINERS = ("tuple", "list", "dict", "none")


class TreeStructureMismatch(Rule):
    """## What it does
    Finds `jax.tree.map(f, tree, *rest)` (and `jax.tree_util.tree_map`, the `_with_path`
    forms) where a tree of `rest` has, where the source shows both, another structure than
    `tree`: a list where `tree` has a dict, a tuple of three where it has a tuple of two,
    other dict keys, an array where it has a container. The trees are read from displays,
    directly or through names bound once to one.

    ## Why is this bad?
    `tree.map` walks the first tree and takes the matching subtree of every other one: each
    must have the first tree's structure (below the first tree's leaves anything goes).
    Otherwise JAX raises `ValueError` ("pytree structure error: different types at key
    path ..."). Build the trees alike: the gradients of a dict of parameters are a dict
    (`jax.grad` returns them so).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
    grads = [jnp.ones((2, 2)), jnp.ones(2)]
    new_params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
    grads = {"w": jnp.ones((2, 2)), "b": jnp.ones(2)}
    new_params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    ```

    ## Fix safety
    No automatic fix: which tree has the intended structure is the author's call.

    ## References
    - [JAX: pytrees](https://docs.jax.dev/en/latest/pytrees.html)
    """

    code = "JAX411"
    name = "tree-structure-mismatch"
    message = "`jax.tree.map` is given trees of different structures"
    outcome = "ValueError: pytree structure error: different types at key path"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in LEAVES or len(node.args) < 3 or node.keywords:
            return  # `is_leaf=` changes what a leaf is
        if any(isinstance(a, ast.Starred) for a in node.args) or ctx.qualname(node.func) not in TREE_MAPS:
            return
        first = output_of(ctx, node.args[1], ctx.scope)
        if first.shape not in CONTAINERS:
            return
        for tree in node.args[2:]:
            found = _mismatch(first, output_of(ctx, tree, ctx.scope))
            if found is None:
                continue
            expected, given = found
            ctx.report(
                tree,
                f"`{snippet(ctx, tree)}` {_shown(ctx, given, tree)} where the first tree, "
                f"`{snippet(ctx, node.args[1])}`, {_shown(ctx, expected, node.args[1])}: `tree.map` needs every tree "
                f"to have the first one's structure, so JAX raises `ValueError` (pytree structure "
                f"error); build the trees alike",
            )
            return


def _mismatch(first: Output, other: Output) -> tuple[Output, Output] | None:
    """The first place, depth first, where ``other`` does not have ``first``'s structure: a
    container of ``first`` against a known other container, or a leaf."""
    for a, b in pairs(first, other):
        if a.shape in CONTAINERS and structure_differs(a, b):
            return a, b
    return None


def _shown(ctx: Context, part: Output, tree: ast.expr) -> str:
    """``is a dict of keys 'w'`` for the tree itself, ``has ... at `[a]` `` for a part of it."""
    if part.node is tree:
        return f"is {part.describe()}"
    return f"has {part.describe()} at `{snippet(ctx, part.node)}`"
