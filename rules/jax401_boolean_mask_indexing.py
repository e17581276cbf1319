"""JAX401: indexing a traced array with a traced boolean mask."""

from __future__ import annotations

import ast

from jaxlint.context import Context
from jaxlint.explain import snippet, why_traced
from jaxlint.rule import FixAvailability, Rule
from jaxlint.semantic.values import TRACED_MASK, flat


class BooleanMaskIndexing(Rule):
    """## What it does
    Finds `x[mask]`, `x[x > 0]` and `x.at[mask].set(v)` where `mask` is a traced boolean array,
    inside code that JAX traces abstractly.

    ## Why is this bad?
    The result of boolean indexing has as many elements as the mask has `True` values: a shape
    that depends on the data. Under `jit` shapes must be known when tracing, so JAX raises
    `jax.errors.NonConcreteBooleanIndexError`. Keep the shape static with the three-argument
    `jnp.where(mask, x, fill)`, or the `where=` argument of reductions
    (`jnp.sum(x, where=mask)`, `jnp.mean(x, where=mask)`).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def nansum(x):
        mask = ~jnp.isnan(x)
        return x[mask].sum()
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def nansum(x):
        mask = ~jnp.isnan(x)
        return jnp.where(mask, x, 0).sum()
    ```

    ## Fix safety
    `x[mask].sum()` (and `prod`, `max`, `min`, `any`, `all`) becomes the same reduction over
    `jnp.where(mask, x, identity)`; `mean` becomes `jnp.mean(x, where=mask)`;
    `x.at[mask].set(v)` becomes `jnp.where(mask, v, x)`. These keep the values and are marked
    safe. Other uses of `x[mask]` need a size (`jnp.nonzero(mask, size=n)`) and get no fix.

    ## References
    - [jax.errors.NonConcreteBooleanIndexError](https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError)
    - [JAX: Common gotchas, dynamic shapes](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#dynamic-shapes)
    """

    code = "JAX401"
    name = "boolean-mask-indexing"
    message = "Boolean-mask indexing of a traced array has a data-dependent shape"
    outcome = "jax.errors.NonConcreteBooleanIndexError"
    fix_title = "Use `jnp.where` (or a reduction's `where=`) to keep the shape static"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not ctx.abstract or not isinstance(node.ctx, ast.Load):
            return
        indices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        mask = next((i for i in indices if _is_traced_mask(ctx, i)), None)
        if mask is None:
            return
        is_at = isinstance(node.value, ast.Attribute) and node.value.attr == "at"
        base = snippet(ctx, node.value.value if is_at else node.value)  # type: ignore[attr-defined]
        shown = f"{base}.at[{snippet(ctx, node.slice)}]" if is_at else f"{base}[{snippet(ctx, node.slice)}]"
        ctx.report(
            node,
            f"`{shown}` indexes with the traced boolean mask `{snippet(ctx, mask)}`: the result's "
            f"shape depends on the data, so JAX raises `NonConcreteBooleanIndexError` "
            f"({why_traced(ctx, mask)}); use `jnp.where({snippet(ctx, mask)}, ...)` or a `where=` argument",
            fix_data={"at": is_at, "single": len(indices) == 1},
        )


def _is_traced_mask(ctx: Context, index: ast.expr) -> bool:
    value = ctx.value(index)
    return isinstance(value, int) and flat(value) & TRACED_MASK == TRACED_MASK
