"""Copies of one PRNG key (``[key] * n``, ``[key, key]``, ``jnp.repeat(key[None], n, axis=0)``):
the split that replaces them, shared by the key-reuse rules (JAX301, JAX302)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.diagnostics import FixRequest


@dataclass(frozen=True)
class SplitCopies(FixRequest):
    """``[key] * n``, ``jnp.repeat(key[None], n, axis=0)``, ``jnp.stack([key] * n)`` ->
    ``jax.random.split(key, n)`` (a list of the keys, for a list): ``key`` split into ``count``
    new keys."""

    copies: ast.expr
    key: ast.expr
    count: ast.expr | int  # the number of copies, as written (or counted in a display)
    as_list: bool


def split_copies(copies: ast.expr) -> SplitCopies | None:
    """The split that replaces ``copies`` of one key: ``[key] * n`` (a list, either way round),
    ``[key, key]``, ``jnp.repeat(key[None], n, axis=0)``, ``jnp.stack([key] * n)``; None for
    another form."""
    if isinstance(copies, (ast.List, ast.Tuple)) and len(copies.elts) > 1:  # `[key, key]`
        first = copies.elts[0]
        alike = isinstance(first, ast.Name) and all(
            isinstance(e, ast.Name) and e.id == first.id for e in copies.elts
        )
        return SplitCopies(copies, first, len(copies.elts), as_list=True) if alike else None
    if isinstance(copies, ast.BinOp) and isinstance(copies.op, ast.Mult):
        for display, count in ((copies.left, copies.right), (copies.right, copies.left)):
            if isinstance(display, (ast.List, ast.Tuple)) and len(display.elts) == 1:
                return SplitCopies(copies, display.elts[0], count, as_list=True)
        return None
    if not isinstance(copies, ast.Call) or len(copies.args) < 1:
        return None
    leaf = callee_leaf(copies)
    if leaf in ("stack", "array", "asarray") and len(copies.args) == 1 and not copies.keywords:
        inner = split_copies(copies.args[0])
        return None if inner is None else SplitCopies(copies, inner.key, inner.count, as_list=False)
    if leaf != "repeat":
        return None
    count = copies.args[1] if len(copies.args) > 1 else None
    axis = next((k.value for k in copies.keywords if k.arg == "axis"), None)
    if len(copies.args) > 2 or count is None or not (isinstance(axis, ast.Constant) and axis.value == 0):
        return None  # without `axis=0`, a raw key's two words are flattened apart
    if any(k.arg not in ("axis",) for k in copies.keywords):
        return None
    batch = copies.args[0]
    if not (
        isinstance(batch, ast.Subscript)
        and isinstance(batch.slice, ast.Constant)
        and batch.slice.value is None
    ):
        return None  # only `key[None]`: one key given a leading axis
    return SplitCopies(copies, batch.value, count, as_list=False)
