"""JAX201: ``x[i] = v`` on a JAX array."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import ClosedOver, LocalLeaf, RecordField
from jaxlint.semantic.values import is_jax_array, is_mask, is_traced_leaf

from ..support.arrays import (
    array_evidence,
    assignable,
    closed_over,
    dict_entry,
    held_by_record_or_pytree,
    keeps_dtype,
    leaf_rewrite_is_safe,
    local_leaf,
    passed_array,
    pytree_update,
    rebinding_advice,
    record_field,
    rewrite_is_safe,
    same_shape_mask,
    scalar_fill,
)
from ..support.blocks import is_local_name
from ..support.explain import index_snippet, snippet


@dataclass(frozen=True)
class FunctionalSet(FixRequest):
    """``x[i] = v`` -> ``x = x.at[i].set(v)``, or ``x = jnp.where(mask, v, x)`` when ``use_where``
    (the index is a mask of ``x``'s shape; ``cast_fill``: ``v`` put in ``x``'s dtype first, see
    :func:`jaxlint.fixing.rewrites.where_update`). ``safe``: no other name holds the array."""

    use_where: bool
    safe: bool
    record: RecordField | None = None  # the array is a field of a NamedTuple or dataclass
    leaf: LocalLeaf | ClosedOver | None = None  # a leaf it cannot assign into: a new local name
    cast_fill: bool = False


@dataclass(frozen=True)
class FunctionalDelete(FixRequest):
    """``del x[i]`` -> ``x = jnp.delete(x, i)`` (a slice or several indices: ``jnp.s_[...]``).
    ``safe``: no other name holds the array."""

    safe: bool


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
    the index is a boolean mask computed elementwise from `x` (so it has `x`'s shape) and `v` is
    one scalar (an array fills the masked places in order, `jnp.where` elementwise: no fix); a
    `v` but a bool literal is put in `x`'s dtype first (`jnp.zeros_like(x)`, `jnp.full_like(x,
    v)`), as the assignment casts it: `jnp.where` alone would make an integer `x` float for
    `0.5`, a boolean one int32 for `1`. Safe when `x` is a tracer or an array the function created,
    held by no other name. Unsafe when `x` is a parameter of eager code (the caller may pass a
    NumPy array it expects to see mutated, which has no `.at`) or another name aliases it (the
    alias keeps the old value). Chained assignments (`a = x[i] = v`) get no fix. An array that is
    a part of a traced pytree goes into a new one (unsafe: other names holding the old pytree
    keep it): a dict entry takes the new array (`params["b"] = params["b"].at[0].set(v)`), a
    field of a NamedTuple or dataclass held by a local name a new record (`state =
    state._replace(x=...)`, `batch = dataclasses.replace(batch, x=...)`). A leaf the function
    cannot assign into (a tuple item, a field of a record of unknown kind, a global array) goes
    into a new local name, `item = pair[1].at[0].set(v)`, and the function's later reads of the
    leaf take it (unsafe: other holders keep the old leaf), where the statement is one of the
    function's own top-level statements and those reads are the only later uses of the leaf's
    owner (not returned or passed on whole, nor read by a nested function); else no fix. An
    array of the function around, updated in a nested helper that function only calls directly
    (the same trace), is declared `nonlocal` and rebound, so the code around sees the update
    as it would have seen the in-place one (unsafe: other names holding it keep the old array).
    The pytree forms are safe in a function entered only through transformations that trace it
    (`@jax.jit`, `jax.jit(f)`, a `lax` body; not a helper called directly): the write raised on
    every run, the transformation hands the function pytrees of its own that no caller holds, and
    no other name in the function holds the pytree or a part of it.

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
            if isinstance(target, ast.Subscript) and _at_helper(ctx, target.value):
                self.check_helper(node, target, ctx)
            elif isinstance(target, ast.Subscript):
                self.check(node, target, node.value, ctx)
            elif isinstance(target, (ast.Tuple, ast.List)):
                self.check_unpacking(node, target, ctx)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        """``operator.setitem(grid, (i, j), 1.0)``: item assignment spelled as a call."""
        if callee_leaf(node) != "setitem" or len(node.args) != 3 or node.keywords:
            return
        if ctx.qualname(node.func) != "operator.setitem" or any(
            isinstance(a, ast.Starred) for a in node.args
        ):
            return
        array, index, _ = node.args
        evidence = _known_array(ctx, array)
        if evidence is None:
            return
        base = snippet(ctx, array)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` assigns an item of `{base}` and raises `TypeError`: JAX arrays are "
            f"immutable ({evidence}); use "
            f"{rebinding_advice(ctx, array, f'{base}.at[{index_snippet(ctx, index)}].set(...)')}",
        )

    def visit_Delete(self, node: ast.Delete, ctx: Context) -> None:
        """``del queue[0]`` on a JAX array: it has no ``__delitem__`` (measured with JAX 0.10.2:
        ``AttributeError``, eagerly and traced). Only a known array: a list parameter is often
        trimmed so."""
        for target in node.targets:
            if not isinstance(target, ast.Subscript):
                continue
            base, index = snippet(ctx, target.value), index_snippet(ctx, target.slice)
            where = f"jnp.s_[{index}]" if isinstance(target.slice, (ast.Slice, ast.Tuple)) else index
            evidence = _known_array(ctx, target.value)
            if evidence is None:
                continue
            fixable = (
                len(node.targets) == 1
                and isinstance(target.value, ast.Name)
                and is_local_name(ctx, target.value.id)
            )
            ctx.report(
                node,
                f"`del {base}[{index}]` raises `AttributeError`: JAX arrays are immutable and delete "
                f"nothing ({evidence}); use {rebinding_advice(ctx, target.value, f'jnp.delete({base}, {where})')}",
                fix=FunctionalDelete(safe=rewrite_is_safe(ctx, target.value)) if fixable else None,
            )
            return

    def check_unpacking(self, node: ast.Assign, target: ast.Tuple | ast.List, ctx: Context) -> None:
        """``perm[i], perm[j] = perm[j], perm[i]``: each item stored into from a display of as
        many values, reported once for the statement (no fix: the swap needs both updates from
        the old array)."""
        values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) else []
        if len(values) != len(target.elts):
            return  # `keys[0], sub = split(keys[0])`: what each item receives is not written out
        for element, value in zip(target.elts, values):
            if isinstance(element, ast.Subscript) and self.check(node, element, value, ctx, fixable=False):
                return

    def check_helper(self, node: ast.Assign, target: ast.Subscript, ctx: Context) -> None:
        """``x.at[i] = v``: an assignment into the ``.at`` helper, not an update."""
        array = snippet(ctx, target.value.value)  # pyright: ignore[reportAttributeAccessIssue]
        index = index_snippet(ctx, target.slice)
        ctx.report(
            node,
            f"`{array}.at[{index}] = ...` assigns into the `.at` helper, which takes no item "
            f"assignment: JAX raises `TypeError`; `.at[...]` updates through its methods and "
            f"returns the new array, `{array} = {array}.at[{index}].set({snippet(ctx, node.value)})`",
        )

    def check(
        self, node: ast.Assign, target: ast.Subscript, value: ast.expr, ctx: Context, fixable: bool = True
    ) -> bool:
        evidence = array_evidence(ctx, target, value)
        if evidence is None:
            return False
        base = snippet(ctx, target.value)
        index = index_snippet(ctx, target.slice)
        mask = is_mask(ctx.value(target.slice)) or (
            isinstance(target.slice, ast.Compare) and same_shape_mask(ctx, target.slice, target.value)
        )
        updated = (
            f"jnp.where({index}, {snippet(ctx, value)}, {base})" if mask else f"{base}.at[{index}].set(...)"
        )
        if held_by_record_or_pytree(ctx, target.value):
            cure = pytree_update(ctx, target.value, updated)
        else:
            cure = rebinding_advice(ctx, target.value, updated)
        ctx.report(
            node,
            f"`{base}[{index}] = ...` raises `TypeError`: JAX arrays are immutable ({evidence}); use {cure}",
            fix=self.request(ctx, node, target, mask) if fixable else None,
        )
        return True

    def request(
        self, ctx: Context, node: ast.Assign, target: ast.Subscript, mask: bool
    ) -> FunctionalSet | None:
        if len(node.targets) != 1 or (mask and not same_shape_mask(ctx, target.slice, target.value)):
            return None  # `a = x[i] = v`, or a mask `jnp.where` cannot broadcast against `x`
        if mask and not scalar_fill(ctx, node.value):
            return None  # an array fills the masked places in order, `jnp.where` elementwise
        if not assignable(target.value):
            return None  # `(a or b)[i] = v`: nothing to assign the updated array to
        cast = mask and not keeps_dtype(node.value)
        if held_by_record_or_pytree(ctx, target.value):
            safe = leaf_rewrite_is_safe(ctx, target.value)
            if dict_entry(ctx, target.value):  # `params["b"] = params["b"].at[0].set(v)`
                return FunctionalSet(use_where=mask, safe=safe, cast_fill=cast)
            record = record_field(ctx, target.value)  # `state.x = ...` fails: a new record instead
            if record is not None:
                return FunctionalSet(use_where=mask, safe=safe, record=record, cast_fill=cast)
            leaf = local_leaf(ctx, node, target.value)
            return FunctionalSet(use_where=mask, safe=safe, leaf=leaf, cast_fill=cast) if leaf else None
        if isinstance(target.value, ast.Name) and not is_local_name(ctx, target.value.id):
            # `x = ...` would make a global or closed-over `x` local
            leaf = closed_over(ctx, target.value) or local_leaf(ctx, node, target.value)
            return FunctionalSet(use_where=mask, safe=False, leaf=leaf, cast_fill=cast) if leaf else None
        return FunctionalSet(use_where=mask, safe=rewrite_is_safe(ctx, target.value), cast_fill=cast)


def _known_array(ctx: Context, expr: ast.expr) -> str | None:
    """Why ``expr`` is certainly a JAX array (the model says so, a tracer, or every call passes
    one), for the rarer spellings (`del x[i]`, `operator.setitem`): no presumption from the
    module's imports, since lists and dicts are trimmed and filled so too."""
    value = ctx.value(expr)
    if is_jax_array(value) or is_traced_leaf(value):
        return f"`{snippet(ctx, expr)}` is a JAX array"
    return passed_array(ctx, expr)


def _at_helper(ctx: Context, expr: ast.expr) -> bool:
    """``x.at`` of a JAX array (or tracer): pandas' ``df.at[row, col] = v`` is its way to
    assign, and a parameter of plain Python code may be a data frame."""
    if not isinstance(expr, ast.Attribute) or expr.attr != "at":
        return False
    value = ctx.value(expr.value)
    return is_jax_array(value) or is_traced_leaf(value) or passed_array(ctx, expr.value) is not None
