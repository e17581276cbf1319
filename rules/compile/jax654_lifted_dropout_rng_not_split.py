"""JAX654: a flax lifted ``vmap``/``scan`` of a module with dropout, its dropout rng not split."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.linen import LIFTED, literal_entry

DROPOUT = "flax.linen.Dropout"


class LiftedDropoutRngNotSplit(Rule):
    """## What it does
    Finds a flax linen `nn.scan` or `nn.vmap` of a module of this file that applies `nn.Dropout`,
    whose `split_rngs` does not split the `"dropout"` rng (`split_rngs={"params": False}`).

    ## Why is this bad?
    Without its rng split, every scanned step (or mapped member) draws its dropout mask from the
    same key: the same units are dropped at every time step, silently (measured with flax
    0.12.8: all masks equal, for `nn.scan` and `nn.vmap`; with `"dropout": True` they differ).

    ## Example
    ```python
    import flax.linen as nn
    import jax.numpy as jnp

    class Cell(nn.Module):
        @nn.compact
        def __call__(self, carry, x):
            return carry, nn.Dropout(0.5, deterministic=False)(x)

    Scanned = nn.scan(Cell, variable_broadcast="params", split_rngs={"params": False}, length=4)
    ```

    ## Use instead
    ```python
    import flax.linen as nn
    import jax.numpy as jnp

    class Cell(nn.Module):
        @nn.compact
        def __call__(self, carry, x):
            return carry, nn.Dropout(0.5, deterministic=False)(x)

    Scanned = nn.scan(
        Cell, variable_broadcast="params", split_rngs={"params": False, "dropout": True}, length=4
    )
    ```

    ## Fix safety
    No automatic fix: splitting the rng changes every mask drawn.

    ## References
    - [Flax: nn.scan](https://flax.readthedocs.io/en/latest/api_reference/flax.linen/transformations.html#flax.linen.scan)
    """

    code = "JAX654"
    mentioned = frozenset({"Dropout"})
    name = "lifted-dropout-rng-not-split"
    message = "A lifted scan/vmap of a module with dropout does not split the dropout rng"
    outcome = "every step or member draws the same dropout mask, silently"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        transform = ctx.qualname(node.func)
        if transform not in LIFTED or not node.args:
            return
        split = keyword_argument(node, "split_rngs")
        if not isinstance(split, ast.Dict) or any(k is None for k in split.keys):
            return
        dropout = literal_entry(split, "dropout")
        if isinstance(dropout, ast.Constant) and dropout.value is not False:
            return
        if dropout is not None and not isinstance(dropout, ast.Constant):
            return
        cls = ctx.model.class_named(node.args[0], ctx.scope)
        layer = _dropout_in(ctx, cls) if cls is not None else None
        if layer is None or cls is None:
            return
        kind = "step" if transform.endswith("scan") else "member"
        ctx.report(
            split,
            f"`{snippet(ctx, node.func)}` of `{cls.name}`, which applies `{snippet(ctx, layer)}` (line "
            f"{layer.lineno}), does not split the `dropout` rng: every {kind} draws the same dropout "
            f'mask; add `"dropout": True` to `split_rngs`',
        )


def _dropout_in(ctx: Context, cls: ast.ClassDef) -> ast.Call | None:
    """An ``nn.Dropout(...)`` the class builds that draws from the ``dropout`` rng: not made
    deterministic by a literal, nor given another ``rng_collection``."""
    scope = ctx.model.index.scopes.get(cls, ctx.scope)
    for node in ast.walk(cls):
        if not isinstance(node, ast.Call) or ctx.model.qualname(node.func, scope) != DROPOUT:
            continue
        deterministic = keyword_argument(node, "deterministic")
        if isinstance(deterministic, ast.Constant) and deterministic.value is True:
            continue
        if keyword_argument(node, "rng_collection") is not None:
            continue
        return node
    return None
