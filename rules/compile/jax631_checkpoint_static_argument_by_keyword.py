"""JAX631: a ``jax.checkpoint`` function called without the positional argument its
``static_argnums`` names."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.layers import called_layer

CHECKPOINTS = frozenset({"jax.checkpoint"})


class CheckpointStaticArgumentByKeyword(Rule):
    """## What it does
    Finds a call of a function wrapped in `jax.checkpoint` (or `jax.remat`) with a literal
    `static_argnums`, when the call passes fewer positional arguments than a static index
    needs: the static argument is given by keyword, or left to its default.

    ## Why is this bad?
    Unlike `jax.jit`, `checkpoint` reads `static_argnums` against the positional arguments of
    each call only, and raises `ValueError` ("the `static_argnums` argument to
    `jax.checkpoint` / `jax.remat` can only take integer values greater than or equal to
    `-len(args)` and less than `len(args)`"). Pass the static argument by position.

    ## Example
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.checkpoint, static_argnums=(1,))
    def block(x, residual=False):
        y = jnp.tanh(x)
        return y + x if residual else y

    g = jax.grad(lambda x: block(x, residual=True).sum())(jnp.ones(3))
    ```

    ## Use instead
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.checkpoint, static_argnums=(1,))
    def block(x, residual=False):
        y = jnp.tanh(x)
        return y + x if residual else y

    g = jax.grad(lambda x: block(x, True).sum())(jnp.ones(3))
    ```

    ## Fix safety
    No automatic fix: moving a keyword argument into its position is left to the author.

    ## References
    - [jax.checkpoint](https://docs.jax.dev/en/latest/_autosummary/jax.checkpoint.html)
    """

    code = "JAX631"
    name = "checkpoint-static-argument-by-keyword"
    message = "A `jax.checkpoint` function is called without the positional argument `static_argnums` names"
    outcome = "ValueError: the `static_argnums` argument to `jax.checkpoint` can only take integer values less than len(args)"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if any(isinstance(a, ast.Starred) for a in node.args) or not ctx.mentions("static_argnums"):
            return
        layer = called_layer(ctx, node.func, CHECKPOINTS)
        static = (
            None if layer is None or layer.call is None else keyword_argument(layer.call, "static_argnums")
        )
        indices = _literal_indices(static)
        passed = len(node.args)
        outside = [i for i in indices if not -passed <= i < passed]
        if layer is None or static is None or not outside:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` passes {passed} positional argument{'s' * (passed != 1)}, but the "
            f"`jax.checkpoint` around it (line {layer.site.lineno}) has `static_argnums="  # pyright: ignore[reportAttributeAccessIssue]
            f"{snippet(ctx, static)}`: checkpoint reads static arguments by position only and raises "
            f"`ValueError` (index {outside[0]} is out of range of the positional arguments); pass "
            f"the static argument by position",
        )


def _literal_indices(static: ast.expr | None) -> list[int]:
    if isinstance(static, ast.Constant) and type(static.value) is int:
        return [static.value]
    if isinstance(static, (ast.Tuple, ast.List)):
        found = [e.value for e in static.elts if isinstance(e, ast.Constant) and type(e.value) is int]
        return found if len(found) == len(static.elts) else []
    return []
