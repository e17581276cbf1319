"""JAX202: ``x[i] += v`` (any augmented operator) on a JAX array."""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import ClosedOver, LocalLeaf, RecordField

from ..support.arrays import (
    array_evidence,
    assignable,
    closed_over,
    dict_entry,
    held_by_record_or_pytree,
    leaf_rewrite_is_safe,
    local_leaf,
    pytree_update,
    rebinding_advice,
    record_field,
    rewrite_is_safe,
    static_index,
)
from ..support.blocks import is_local_name
from ..support.explain import index_snippet, snippet

# augmented operator -> the `.at[]` method that performs it
OPERATOR_AT_METHODS: dict[type[ast.operator], str] = {
    ast.Add: "add",
    ast.Sub: "subtract",
    ast.Mult: "multiply",
    ast.Div: "divide",
    ast.Pow: "power",
}


@dataclass(frozen=True)
class FunctionalUpdate(FixRequest):
    """``x[i] op= v`` -> ``x = x.at[i].<method>(v)`` (``method`` ``set``: ``.set(x[i] op v)``).
    ``safe``: no other name holds the array, and an ``add``-like method sees no repeated index."""

    method: str
    safe: bool
    record: RecordField | None = None  # the array is a field of a NamedTuple or dataclass
    leaf: LocalLeaf | ClosedOver | None = None  # a leaf it cannot assign into: a new local name


class ArrayAugmentedAssignment(Rule):
    """## What it does
    Finds augmented assignment to an element or slice of a JAX array: `x[i] += v`,
    `x[:, 0] *= 2`, and every other augmented operator.

    ## Why is this bad?
    `x[i] += v` reads `x[i]`, computes, then assigns back with `x[i] = ...`, and JAX arrays do
    not support item assignment: it raises `TypeError: JAX arrays are immutable`. The `.at[]`
    methods (`add`, `subtract`, `multiply`, `divide`, `power`, `min`, `max`) do the update
    functionally. Augmenting a whole array, `x += 1`, is fine: it rebinds the name.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def bump(counts, i):
        counts[i] += 1
        return counts
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def bump(counts, i):
        counts = counts.at[i].add(1)
        return counts
    ```

    ## Fix safety
    `+=`, `-=`, `*=`, `/=` and `**=` become `x = x.at[i].add(v)` (`subtract`, `multiply`,
    `divide`, `power`); other operators become `x = x.at[i].set(x[i] <op> v)`. Safe under the same
    conditions as JAX201, and only when the index is built from constants, slices and static
    values: an integer index array may repeat an index, and `.at[].add` accumulates every
    occurrence where NumPy's `x[idx] += v` applies one. An array that is a part of a traced
    pytree goes into a new one as in JAX201 (unsafe): `state = state._replace(x=state.x.at[i].add(v))`;
    a leaf the function cannot assign into (`pair[1][i] += v`, a global array) goes into a new
    local name read by the rest of the function, under JAX201's conditions (unsafe); an array
    of the function around a helper it only calls directly is declared `nonlocal` and rebound,
    as in JAX201 (unsafe). The pytree forms are safe where they are in JAX201.

    ## References
    - [JAX: Common gotchas, array updates with other operations](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#array-updates-with-other-operations)
    """

    code = "JAX202"
    name = "array-augmented-assignment"
    message = "Augmented item assignment on a JAX array raises: JAX arrays are immutable"
    outcome = "TypeError: JAX arrays are immutable"
    fix_title = "Rewrite as `x = x.at[i].add(v)` (or the matching `.at[]` method)"
    fix_availability = FixAvailability.SOMETIMES

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        target = node.target
        if not isinstance(target, ast.Subscript):
            return
        evidence = array_evidence(ctx, target, node.value)
        if evidence is None:
            return
        base = snippet(ctx, target.value)
        index = index_snippet(ctx, target.slice)
        method = OPERATOR_AT_METHODS.get(type(node.op), "set")
        updated = f"{base}.at[{index}].{method}(...)"
        in_pytree = held_by_record_or_pytree(ctx, target.value)
        cure = (
            pytree_update(ctx, target.value, updated)
            if in_pytree
            else rebinding_advice(ctx, target.value, updated)
        )
        record = record_field(ctx, target.value) if in_pytree else None
        rebuilt_safely = (
            leaf_rewrite_is_safe(ctx, target.value) if in_pytree else rewrite_is_safe(ctx, target.value)
        )
        fix = FunctionalUpdate(
            method,
            safe=rebuilt_safely and (method == "set" or static_index(ctx, target.slice)),
            record=record,
        )
        unfixable = in_pytree and not dict_entry(ctx, target.value) and record is None
        if unfixable or (record is None and not _rebindable(ctx, target.value)):
            closure = None if unfixable else closed_over(ctx, target.value)
            leaf = closure or local_leaf(ctx, node, target.value)
            safe = fix.safe and closure is None and in_pytree
            fix = dataclasses.replace(fix, safe=safe, leaf=leaf) if leaf else None
        ctx.report(
            node,
            f"`{base}[{index}] {_operator(node.op)}= ...` raises `TypeError`: JAX arrays are immutable "
            f"({evidence}); use {cure}",
            fix=fix,
        )


def _operator(op: ast.operator) -> str:
    symbols = {
        ast.Add: "+",
        ast.Sub: "-",
        ast.Mult: "*",
        ast.Div: "/",
        ast.Pow: "**",
        ast.FloorDiv: "//",
        ast.Mod: "%",
        ast.MatMult: "@",
        ast.BitAnd: "&",
        ast.BitOr: "|",
        ast.BitXor: "^",
        ast.LShift: "<<",
        ast.RShift: ">>",
    }
    return symbols.get(type(op), "?")


def _rebindable(ctx: Context, base: ast.expr) -> bool:
    """Whether ``base = base.at[i].op(v)`` rebinds what ``base`` names: not a global or
    closed-over name (the assignment would make it local). A part of a traced pytree is handled
    apart (``state.x = ...`` fails on a NamedTuple or a frozen dataclass)."""
    if not assignable(base):
        return False  # `(a or b)[i] += v`: nothing to assign the updated array to
    return not isinstance(base, ast.Name) or is_local_name(ctx, base.id)
