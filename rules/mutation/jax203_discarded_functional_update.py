"""JAX203: ``x.at[i].set(v)`` as a statement: the updated array is thrown away."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic import api

from ..support.explain import snippet


@dataclass(frozen=True)
class AssignBack(FixRequest):
    """``x.at[i].set(v)`` as a statement -> ``x = x.at[i].set(v)`` (``x`` a name or attribute)."""


class DiscardedFunctionalUpdate(Rule):
    """## What it does
    Finds `x.at[idx].set(v)` (and `.add`, `.multiply`, `.min`, ...) used as a statement, with
    its result discarded.

    ## Why is this bad?
    `.at[]` updates are functional: they return a new array and leave `x` untouched. Written as
    a bare statement, the update is computed and dropped, so `x` never changes. This is the
    usual slip when porting NumPy's `x[idx] = v`.

    ## Example
    ```python
    import jax.numpy as jnp

    def reset_first(x):
        x.at[0].set(0.0)
        return x
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def reset_first(x):
        x = x.at[0].set(0.0)
        return x
    ```

    ## Fix safety
    The fix assigns the result back to the same name or attribute (`x = x.at[0].set(0.0)`).
    Safe: the statement had no effect before, and now performs the update that was meant.

    ## References
    - [jax.numpy.ndarray.at](https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html)
    """

    code = "JAX203"
    name = "discarded-functional-update"
    message = "The result of a `.at[]` update is discarded: the array is unchanged"
    outcome = "silently does nothing: `.at[]` returns a new array"
    fix_title = "Assign the result back: `x = x.at[i].set(v)`"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Expr(self, node: ast.Expr, ctx: Context) -> None:
        call = node.value
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            return
        if call.func.attr not in api.AT_UPDATE_METHODS:
            return
        indexer = call.func.value
        if not isinstance(indexer, ast.Subscript) or not isinstance(indexer.value, ast.Attribute):
            return
        if indexer.value.attr != "at":
            return
        array = indexer.value.value
        text = snippet(ctx, array)
        ctx.report(
            node,
            f"the result of `{text}.at[...].{call.func.attr}(...)` is discarded and `{text}` is "
            f"unchanged: `.at[]` returns a new array; assign it, `{text} = {text}.at[...].{call.func.attr}(...)`",
            fix=AssignBack()
            if isinstance(array, (ast.Name, ast.Attribute))
            else None,  # `rows[0] = ...`: JAX201
        )
