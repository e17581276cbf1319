"""JAX201: ``x[i] = v`` on a JAX array."""

from __future__ import annotations

import ast

from jaxlint.arrays import array_evidence, rewrite_is_safe, same_shape_mask
from jaxlint.context import Context
from jaxlint.explain import snippet
from jaxlint.rule import FixAvailability, Rule
from jaxlint.semantic.values import is_mask


class ArrayItemAssignment(Rule):
    """## What it does
    Finds item and slice assignment, `x[i] = v`, where `x` is a JAX array, in any code, traced
    or not.

    ## Why is this bad?
    JAX arrays are immutable. `x[i] = v` raises
    `TypeError: '<class 'jaxlib...ArrayImpl'>' object does not support item assignment. JAX arrays
    are immutable.` The functional form `x = x.at[i].set(v)` returns an updated copy, which XLA
    performs in place when it can. A boolean mask, `x[x < 0] = 0`, becomes `jnp.where`, which
    keeps the shape static under `jit`.

    ## Example
    ```python
    import jax.numpy as jnp

    def set_first(x):
        x = jnp.asarray(x)
        x[0] = 10.0
        return x
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def set_first(x):
        x = jnp.asarray(x)
        x = x.at[0].set(10.0)
        return x
    ```

    ## Fix safety
    The fix rewrites the statement to `x = x.at[i].set(v)`, or to `x = jnp.where(mask, v, x)` when
    the index is a boolean mask computed elementwise from `x` (so it has `x`'s shape; any other
    mask gets `.at[mask].set(v)`). Safe when `x` is a tracer or an array the function created,
    held by no other name. Unsafe when `x` is a parameter of eager code (the caller may pass a
    NumPy array it expects to see mutated, which has no `.at`) or another name aliases it (the
    alias keeps the old value). Chained assignments (`a = x[i] = v`) get no fix.

    ## References
    - [JAX: Common gotchas, in-place updates](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates)
    - [jax.numpy.ndarray.at](https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html)
    """

    code = "JAX201"
    name = "array-item-assignment"
    message = "Item assignment on a JAX array raises: JAX arrays are immutable"
    outcome = "TypeError: JAX arrays are immutable"
    fix_title = "Rewrite as `x = x.at[i].set(v)`"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                self.check(node, target, node.value, ctx)

    def check(self, node: ast.Assign, target: ast.Subscript, value: ast.expr, ctx: Context) -> None:
        evidence = array_evidence(ctx, target, value)
        if evidence is None:
            return
        base = snippet(ctx, target.value)
        index = snippet(ctx, target.slice)
        mask = is_mask(ctx.value(target.slice)) or (
            isinstance(target.slice, ast.Compare) and same_shape_mask(ctx, target.slice, target.value)
        )
        cure = (
            f"`{base} = jnp.where({index}, {snippet(ctx, value)}, {base})`"
            if mask
            else f"`{base} = {base}.at[{index}].set(...)`"
        )
        ctx.report(
            node,
            f"`{base}[{index}] = ...` raises `TypeError`: JAX arrays are immutable ({evidence}); use {cure}",
            fix_data={
                "mask": mask,
                "mask_fits": mask and same_shape_mask(ctx, target.slice, target.value),
                "single_target": len(node.targets) == 1,
                "safe": rewrite_is_safe(ctx, target.value),
            },
        )
