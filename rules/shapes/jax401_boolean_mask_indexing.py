"""JAX401: indexing a traced array with a traced boolean mask."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.values import is_traced_mask

from ..support.arrays import assignable, keeps_dtype, same_shape_mask, scalar_fill
from ..support.explain import index_snippet, operand_snippet, snippet, why_traced
from .reductions import IDENTITIES, only_reduction


@dataclass(frozen=True)
class ReductionWhere(FixRequest):
    """``x[mask].sum()`` -> ``x.sum(where=mask)`` (``call`` the reduction; ``method`` its name)."""

    call: ast.Call
    method: str


@dataclass(frozen=True)
class FunctionWhere(FixRequest):
    """``jnp.sum(x[mask])`` -> ``jnp.sum(x, where=mask)``."""


@dataclass(frozen=True)
class WhereSet(FixRequest):
    """``base.at[mask].set(value)`` (the whole ``call``) -> ``jnp.where(mask, value, base)``;
    ``cast``: the value is put in ``base``'s dtype first (``jnp.full_like(base, value)``), as
    ``.at[].set`` does; ``safe``: the result keeps ``base``'s dtype either way."""

    call: ast.Call
    base: ast.expr
    value: ast.expr
    cast: bool = False
    safe: bool = True


@dataclass(frozen=True)
class FillMasked(FixRequest):
    """``y = x[mask]``, only ever summed (multiplied) -> ``jnp.where(mask, x, fill)``."""

    fill: str


MaskFix = ReductionWhere | FunctionWhere | WhereSet | FillMasked


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
        return x.sum(where=mask)
    ```

    ## Fix safety
    `x[mask].sum()` (and `mean`, `prod`, `any`, `all`, as methods or `jnp` functions) becomes the
    same reduction with `where=mask`; `x.at[mask].set(v)` becomes `jnp.where(mask, v, x)` when
    the mask is computed elementwise from `x` and `v` is one scalar, with `v` put in `x`'s dtype
    first as `.at[].set` does (`jnp.zeros_like(x)`, `jnp.full_like(x, 10.5)`; a bool literal as
    it is): the same values and dtype (`jnp.where` alone would make an integer `x` float for
    `10.5`, a boolean one int32 for `1`); where `x` is not a name or field path (it would be
    computed twice) `v` stays as written, unsafe. `y = x[mask]` whose every use is `y.sum()`
    (or `y.prod()`) becomes `y = jnp.where(mask, x, 0)` (or `1`). The others give the same values
    and are safe. `max`/`min` (no identity that suits every dtype) and other uses of `x[mask]` get no
    fix: they need a size, `jnp.nonzero(mask, size=n)`.

    ## References
    - [jax.errors.NonConcreteBooleanIndexError](https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError)
    - [JAX: Common gotchas, dynamic shapes](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#dynamic-shapes)
    """

    code = "JAX401"
    traced_only = True
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
        base = operand_snippet(ctx, node.value.value if is_at else node.value)  # pyright: ignore[reportAttributeAccessIssue]
        shown = (
            f"{base}.at[{index_snippet(ctx, node.slice)}]"
            if is_at
            else f"{base}[{index_snippet(ctx, node.slice)}]"
        )
        ctx.report(
            node,
            f"`{shown}` indexes with the traced boolean mask `{snippet(ctx, mask)}`: the result's "
            f"shape depends on the data, so JAX raises `NonConcreteBooleanIndexError` "
            f"({why_traced(ctx, mask)}); use `jnp.where({snippet(ctx, mask)}, ...)` or a `where=` argument",
            fix=_plan(ctx, node, mask, is_at) if len(indices) == 1 else None,
        )


REDUCTIONS = frozenset({"sum", "mean", "prod", "any", "all"})


def _plan(ctx: Context, node: ast.Subscript, mask: ast.expr, is_at: bool) -> MaskFix | None:
    """How to keep the shape static: a reduction's `where=`, `jnp.where` for `.at[mask].set`,
    or a fill value when the masked array is only ever summed."""
    parents = list(ctx.ancestors())[:2]
    if is_at:
        base = node.value.value  # pyright: ignore[reportAttributeAccessIssue]
        call = parents[1] if len(parents) == 2 else None
        if (
            isinstance(call, ast.Call)
            and isinstance(parents[0], ast.Attribute)
            and parents[0].attr == "set"
            and len(call.args) == 1
            and same_shape_mask(ctx, mask, base, items=True)  # an expression: no item is assigned
            and scalar_fill(ctx, call.args[0])
        ):
            kept = keeps_dtype(call.args[0])
            cast = not kept and assignable(base)  # `base` is written twice: a name, not a call
            return WhereSet(call, base, call.args[0], cast, safe=kept or cast)
        return None
    if len(parents) == 2 and isinstance(parents[0], ast.Attribute) and parents[0].attr in REDUCTIONS:
        call = parents[1]
        if isinstance(call, ast.Call) and call.func is parents[0] and not call.args and not call.keywords:
            return ReductionWhere(call, parents[0].attr)
    if parents and isinstance(parents[0], ast.Call):
        call = parents[0]
        qualname = ctx.qualname(call.func) or ""
        if qualname.removeprefix("jax.numpy.") in REDUCTIONS and call.args == [node] and not call.keywords:
            return FunctionWhere()
    if parents and isinstance(parents[0], ast.Assign) and parents[0].value is node:
        return _fill_plan(ctx, parents[0])
    return None


def _fill_plan(ctx: Context, assign: ast.Assign) -> FillMasked | None:
    """`y = x[mask]` whose every use is `y.sum()` (or `.prod()`): fill the rest with 0 (or 1)."""
    method = only_reduction(ctx, assign)
    return FillMasked(IDENTITIES[method]) if method in IDENTITIES else None


def _is_traced_mask(ctx: Context, index: ast.expr) -> bool:
    return is_traced_mask(ctx.value(index))
