"""JAX642: ``eqx.tree_at`` whose ``where`` function computes instead of selecting a node."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

TREE_AT = "equinox.tree_at"
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "shape", "dtype", "ndim", "size", "at"})


class TreeAtWhereComputes(Rule):
    """## What it does
    Finds `eqx.tree_at(where, pytree, ...)` whose `where` is a lambda that computes with the
    node it reaches (`lambda m: m.weight * 0.5`, `-m.weight`, `jnp.abs(m.weight)`,
    `m.weight.T`) instead of returning it.

    ## Why is this bad?
    `where` must select nodes of the pytree: equinox calls it on a copy whose leaves are
    wrappers, to find which nodes to replace. Arithmetic or an array function on a wrapper
    raises (`TypeError`: unsupported operand type for `_LeafWrapper`; `.T`: `AttributeError`,
    measured with equinox 0.13.8). Select the node, and compute the new value in `replace`.

    ## Example
    ```python
    import equinox as eqx
    import jax

    model = eqx.nn.MLP(2, 2, 4, 1, key=jax.random.key(0))
    shrunk = eqx.tree_at(lambda m: m.layers[0].weight * 0.5, model, model.layers[0].weight * 0.5)
    ```

    ## Use instead
    ```python
    import equinox as eqx
    import jax

    model = eqx.nn.MLP(2, 2, 4, 1, key=jax.random.key(0))
    shrunk = eqx.tree_at(lambda m: m.layers[0].weight, model, model.layers[0].weight * 0.5)
    ```

    ## Fix safety
    No automatic fix: the computation belongs in `replace` (or `replace_fn`).

    ## References
    - [equinox.tree_at](https://docs.kidger.site/equinox/api/manipulation/#equinox.tree_at)
    """

    code = "JAX642"
    mentioned = frozenset({"tree_at"})
    name = "tree-at-where-computes"
    message = "The `where` function of `eqx.tree_at` computes instead of selecting a node"
    outcome = "TypeError (or AttributeError) on equinox's leaf wrapper"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not node.args or not ctx.mentions("tree_at") or ctx.qualname(node.func) != TREE_AT:
            return
        where = node.args[0]
        if not isinstance(where, ast.Lambda) or len(where.args.args) != 1:
            return
        computed = _computation(ctx, where.body, where.args.args[0].arg)
        if computed is None:
            return
        ctx.report(
            node,
            f"the `where` of `{snippet(ctx, node)}` returns `{snippet(ctx, computed)}`, a computation on "
            f"a node, not the node: equinox calls it on leaf wrappers to find what to replace, and "
            f"the computation raises; return the node (`{snippet(ctx, _node(computed))}`) "
            f"and compute the new value in `replace`",
        )


def _computation(ctx: Context, body: ast.expr, root: str) -> ast.expr | None:
    """What in the returned expression computes with a node reached from ``root``: arithmetic,
    a ``jax.numpy`` call or an array attribute on a selection (each part of a tuple too)."""
    parts = body.elts if isinstance(body, (ast.Tuple, ast.List)) else [body]
    for part in parts:
        if isinstance(part, (ast.BinOp, ast.UnaryOp)) and _selected(part) is not None:
            return part
        jnp_call = isinstance(part, ast.Call) and (ctx.qualname(part.func) or "").startswith("jax.numpy.")
        if jnp_call and any(_rooted(a, root) for a in part.args):  # pyright: ignore[reportAttributeAccessIssue]
            return part
        if isinstance(part, ast.Attribute) and part.attr in ARRAY_ATTRIBUTES and _rooted(part.value, root):
            return part
    return None


def _node(computed: ast.expr) -> ast.expr:
    """The selection a computation works on: its operand, argument or owner."""
    if isinstance(computed, ast.Attribute):
        return computed.value
    if isinstance(computed, ast.Call):
        return next((a for a in computed.args if isinstance(a, (ast.Attribute, ast.Subscript))), computed)
    return _selected(computed) or computed


def _selected(expr: ast.expr) -> ast.expr | None:
    """The selection (``m.layers[0].weight``) an operand of arithmetic ``expr`` is."""
    operands = [expr.left, expr.right] if isinstance(expr, ast.BinOp) else []
    operands += [expr.operand] if isinstance(expr, ast.UnaryOp) else []
    return next((o for o in operands if isinstance(o, (ast.Attribute, ast.Subscript))), None)


def _rooted(expr: ast.expr, root: str) -> bool:
    """``m.layers[0].weight``: a chain of attributes and subscripts starting at ``root``."""
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id == root
