"""JAX408: a JAX array indexed with a float (``x[n / 2]``)."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import is_jax_array, is_traced_leaf

from ..support.dtypes import DtypeKind, dtype_kind
from ..support.explain import snippet


class FloatIndex(Rule):
    """## What it does
    Finds a JAX array (or tracer) indexed with a value that is a float whatever its inputs: a
    true division (`x[n / 2]`, `x[x.shape[0] / 2]`), arithmetic with a float literal, or an
    explicit float (`jnp.float32(i)`); also as a slice bound or one of several indices.

    ## Why is this bad?
    Indices must be integers (or booleans): JAX raises `TypeError` ("Indexer must have integer
    or boolean type, got indexer with type float32"; a float slice bound: "'float' object cannot
    be interpreted as an integer"). `/` always makes a float in Python and in JAX; use `//`, or
    convert with `.astype(jnp.int32)` where the value is traced.

    ## Example
    ```python
    import jax

    @jax.jit
    def median_of_sorted(s):
        return s[s.shape[0] / 2]
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def median_of_sorted(s):
        return s[s.shape[0] // 2]
    ```

    ## Fix safety
    No automatic fix: rounding down (`//`) or to the nearest integer is the author's choice.

    ## References
    - [JAX: indexing](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html)
    """

    code = "JAX408"
    name = "float-index"
    message = "A JAX array is indexed with a float"
    outcome = "TypeError: Indexer must have integer or boolean type"
    visits_anywhere = frozenset({ast.Subscript})

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        floats = [
            index
            for index in _indices(node.slice)
            if (kind := _index_kind(ctx, index)) is not None and kind.kind == "float"
        ]
        if not floats:
            return  # cheap first: most indices are no floats
        value = ctx.value(node.value)
        if not (is_jax_array(value) or is_traced_leaf(value)):
            return
        index = floats[0]
        why = " (`/` and float arithmetic give floats)" if isinstance(index, ast.BinOp) else ""
        ctx.report(
            index,
            f"`{snippet(ctx, index)}` is a float{why}: "
            f"indexing `{snippet(ctx, node.value)}` with it raises `TypeError` (indices must "
            f"be integers); use `//`, or `.astype(jnp.int32)` on a traced value",
        )


def _index_kind(ctx: Context, index: ast.expr) -> DtypeKind | None:
    """The dtype kind of an index; for arithmetic (``(e - e_min) // width``), also what every
    call in sight passes its parameters (asked only there: it looks at the callers)."""
    kind = dtype_kind(ctx.model, index, ctx.scope)
    if kind is None and isinstance(index, ast.BinOp):
        kind = dtype_kind(ctx.model, index, ctx.scope, through_calls=True)
    return kind


def _indices(index: ast.expr) -> list[ast.expr]:
    """The index expressions of a subscript: each item of a tuple, each bound of a slice."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    found: list[ast.expr] = []
    for part in parts:
        if isinstance(part, ast.Slice):
            found += [b for b in (part.lower, part.upper, part.step) if b is not None]
        else:
            found.append(part)
    return found
