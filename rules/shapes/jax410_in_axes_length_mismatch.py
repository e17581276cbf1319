"""JAX410: a ``vmap``/``pmap``-ped function called with another number of positional arguments
than its tuple ``in_axes`` has entries."""

from __future__ import annotations

import ast
import re

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.layers import called_layer, in_axes_argument

MAPPINGS = frozenset({"jax.vmap", "jax.pmap"})
# a tuple or list written as `in_axes`, by keyword or second to `vmap`: only a file that has one
# can hold a finding, and most files of mapped code have none
WRITTEN_TUPLE_IN_AXES = re.compile(r"in_axes\s*=\s*[(\[]|vmap\s*(?:\(\s*[\w.]+\s*)?,\s*[(\[]")


class InAxesLengthMismatch(Rule):
    """## What it does
    Finds a call of a function mapped by `jax.vmap` or `jax.pmap` with a literal tuple (or
    list) `in_axes`, when the call passes another number of positional arguments than
    `in_axes` has entries: `jax.vmap(f, in_axes=(0, 0))(a, b, 0.5)`.

    ## Why is this bad?
    A tuple `in_axes` gives one entry per positional argument, and JAX checks the count:
    `vmap` raises `ValueError` ("vmap in_axes must be an int, None, or a tuple of entries
    corresponding to the positional arguments passed to the function, but got
    len(in_axes)=2, len(args)=3"), `pmap` a `ValueError` about the pytree structure of
    `in_axes`. Keyword arguments are not counted: `vmap` maps them along axis 0. Give every
    positional argument its entry (`None` for one not mapped).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def render(origins, directions, near):
        return origins + near * directions

    rays = jax.vmap(render, in_axes=(0, 0))(jnp.zeros((5, 3)), jnp.ones((5, 3)), 0.5)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def render(origins, directions, near):
        return origins + near * directions

    rays = jax.vmap(render, in_axes=(0, 0, None))(jnp.zeros((5, 3)), jnp.ones((5, 3)), 0.5)
    ```

    ## Fix safety
    No automatic fix: whether a missing entry maps its argument or not is the author's call.

    ## References
    - [jax.vmap](https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html)
    """

    code = "JAX410"
    name = "in-axes-length-mismatch"
    message = (
        "A mapped function is called with another number of positional arguments than `in_axes` has entries"
    )
    outcome = (
        "ValueError: vmap in_axes must be ... a tuple of entries corresponding to the positional arguments"
    )
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if any(isinstance(a, ast.Starred) for a in node.args) or not _writes_tuple_in_axes(ctx):
            return
        layer = called_layer(ctx, node.func, MAPPINGS)
        in_axes = None if layer is None else in_axes_argument(layer)
        if layer is None or not isinstance(in_axes, (ast.Tuple, ast.List)):
            return
        if any(isinstance(e, ast.Starred) for e in in_axes.elts) or len(in_axes.elts) == len(node.args):
            return
        entries, passed = len(in_axes.elts), len(node.args)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` passes {passed} positional argument{'s' * (passed != 1)}, but the "
            f"`in_axes` of its `{layer.transform}` (line {layer.site.lineno}) has {entries} "  # pyright: ignore[reportAttributeAccessIssue]
            f"entr{'ies' if entries != 1 else 'y'}, `{snippet(ctx, in_axes)}`: JAX raises `ValueError` "
            f"(one `in_axes` entry per positional argument); give each positional argument its "
            f"entry, `None` for one that is not mapped",
        )


def _writes_tuple_in_axes(ctx: Context) -> bool:
    found = ctx.memo.get(WRITTEN_TUPLE_IN_AXES)
    if found is None:
        found = ctx.memo[WRITTEN_TUPLE_IN_AXES] = WRITTEN_TUPLE_IN_AXES.search(ctx.text) is not None
    return found
