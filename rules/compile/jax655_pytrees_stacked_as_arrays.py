"""JAX655: ``jnp.stack`` (or ``concatenate``, ``array``...) of a list of dicts or records."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import is_mapping, known_elements, record_kind

from ..support.explain import snippet

# measured with JAX 0.10.2: these raise `TypeError` on a list of dicts or NamedTuples ...
JOINERS = frozenset(
    f"jax.numpy.{name}" for name in ("stack", "concatenate", "vstack", "hstack", "dstack", "column_stack")
)
# ... and these `ValueError` on a list of dicts (a list of NamedTuples is a nested sequence to them)
ARRAY_MAKERS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})


class PytreesStackedAsArrays(Rule):
    """## What it does
    Finds `jnp.stack` (`concatenate`, `vstack`, `hstack`, ...) given a list whose elements are
    dicts or records (NamedTuples, dataclasses), and `jnp.array`/`jnp.asarray` given a list of
    dicts: a list display, a comprehension, or a name bound once to one, with elements written as
    dicts or returned as dicts by a function of this file.

    ## Why is this bad?
    These functions take arrays, not pytrees: JAX raises `TypeError` ("stack requires ndarray or
    scalar arguments, got <class 'dict'>"), or for `jnp.array` of dicts `ValueError` (measured
    with JAX 0.10.2). Stack each leaf across the list instead:
    `jax.tree.map(lambda *xs: jnp.stack(xs), *episodes)`.

    ## Example
    ```python
    import jax.numpy as jnp

    episodes = [{"obs": jnp.ones(3)}, {"obs": jnp.zeros(3)}]
    batch = jnp.stack(episodes)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    episodes = [{"obs": jnp.ones(3)}, {"obs": jnp.zeros(3)}]
    batch = jax.tree.map(lambda *xs: jnp.stack(xs), *episodes)
    ```

    ## Fix safety
    No automatic fix.

    ## References
    - [JAX: working with pytrees](https://docs.jax.dev/en/latest/working-with-pytrees.html)
    """

    code = "JAX655"
    mentioned = frozenset({"stack", "concatenate", "array"})
    name = "pytrees-stacked-as-arrays"
    message = "A list of dicts or records is given where jax.numpy takes arrays"
    outcome = "TypeError (ValueError for jnp.array of dicts)"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not node.args or isinstance(node.args[0], ast.Starred):
            return
        qualname = ctx.qualname(node.func)
        if qualname not in JOINERS and qualname not in ARRAY_MAKERS:
            return
        kind = _pytree_elements(ctx, node.args[0], ctx.scope)
        if kind is None or (qualname in ARRAY_MAKERS and kind != "dicts"):
            return
        error = "`ValueError`" if qualname in ARRAY_MAKERS else "`TypeError`"
        ctx.report(
            node,
            f"`{snippet(ctx, node)}`: `{snippet(ctx, node.args[0])}` is a list of {kind}, and "
            f"`{snippet(ctx, node.func)}` takes arrays: JAX raises {error}; stack each leaf, "
            f"`jax.tree.map(lambda *xs: jnp.stack(xs), *{snippet(ctx, node.args[0])})`",
        )


def _pytree_elements(ctx: Context, expr: ast.expr, scope: Scope) -> str | None:
    """``"dicts"`` or ``"records"`` when every element of the list ``expr`` is one: known so to
    the model, or written so (a display or comprehension, or a name bound once to one)."""
    items = known_elements(ctx.model.value(expr, scope))
    if items and all(is_mapping(item) for item in items):
        return "dicts"
    if items and all(record_kind(item) is not None for item in items):
        return "records"
    expr, scope = scope.followed(expr)
    if isinstance(expr, ast.List) and expr.elts:
        kinds = {_element_kind(ctx, element, scope) for element in expr.elts}
        return kinds.pop() if len(kinds) == 1 and None not in kinds else None
    if isinstance(expr, ast.ListComp):
        return _element_kind(ctx, expr.elt, scope)
    return None


def _element_kind(ctx: Context, element: ast.expr, scope: Scope) -> str | None:
    """A dict display, or a call of a function of this file that returns only dict displays."""
    if isinstance(element, ast.Dict):
        return "dicts"
    if not isinstance(element, ast.Call) or not isinstance(element.func, ast.Name):
        return None
    owner = scope.lookup(element.func.id)
    helper = owner.single_def(element.func.id) if owner is not None else None
    if not isinstance(helper, ast.FunctionDef):
        return None
    returned = returned_expressions(helper)
    return "dicts" if returned and all(isinstance(r, ast.Dict) for r in returned) else None
