"""JAX646: a flax lifted ``vmap``/``scan`` with a params axis but one params rng for all."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.linen import LIFTED, literal_entry


class LiftedParamsNotSplit(Rule):
    """## What it does
    Finds a flax linen `nn.vmap` or `nn.scan` whose `variable_axes` gives the `"params"`
    collection an axis (one set of parameters per ensemble member, or per scanned layer) while
    `split_rngs` says `{"params": False}`.

    ## Why is this bad?
    With the params rng not split, every member (or layer) is initialised from the same key:
    all copies of the parameters are identical (measured with flax 0.12.8: the kernels of a
    4-member `nn.vmap` ensemble are equal). An ensemble's members then predict alike, and
    stacked layers start as copies of one another. `split_rngs={"params": True}` gives each its
    own key.

    ## Example
    ```python
    import flax.linen as nn

    Ensemble = nn.vmap(
        nn.Dense, variable_axes={"params": 0}, split_rngs={"params": False}, in_axes=None, axis_size=4
    )
    ```

    ## Use instead
    ```python
    import flax.linen as nn

    Ensemble = nn.vmap(
        nn.Dense, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None, axis_size=4
    )
    ```

    ## Fix safety
    No automatic fix: splitting the rng changes every initial parameter.

    ## References
    - [Flax: nn.vmap](https://flax.readthedocs.io/en/latest/api_reference/flax.linen/transformations.html#flax.linen.vmap)
    """

    code = "JAX646"
    mentioned = frozenset({"split_rngs"})
    name = "lifted-params-not-split"
    message = "A lifted vmap/scan gives params an axis but does not split their rng"
    outcome = "every member or layer is initialised identically, silently"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        transform = ctx.qualname(node.func)
        if transform not in LIFTED:
            return
        axes = literal_entry(keyword_argument(node, "variable_axes"), "params")
        split = literal_entry(keyword_argument(node, "split_rngs"), "params")
        if axes is None or (isinstance(axes, ast.Constant) and axes.value is None):
            return
        if not (isinstance(split, ast.Constant) and split.value is False):
            return
        kind = "member" if transform.endswith("vmap") else "layer"
        ctx.report(
            split,
            f"`{snippet(ctx, node.func)}` gives `params` an axis (`variable_axes` `{snippet(ctx, axes)}`) "
            f"but `split_rngs` does not split the params rng: every {kind} is initialised from the same "
            f'key, so all copies of the parameters are identical; pass `split_rngs={{"params": True}}`',
        )
