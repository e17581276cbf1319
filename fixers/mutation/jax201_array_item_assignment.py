"""JAX201 fix: ``x[i] = v`` -> ``x = x.at[i].set(v)``; ``x[mask] = v`` -> ``x = jnp.where(mask, v, x)``;
``del x[i]`` -> ``x = jnp.delete(x, i)``."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer
from jaxlint.fixing.rewrites import assign_update, where_update

from ...rules.mutation.jax201_array_item_assignment import FunctionalDelete, FunctionalSet


class ItemAssignmentToAtSet(Fixer[FunctionalSet | FunctionalDelete]):
    """Safe when the rule found no other name holding the array (the update was meant for this
    name alone); unsafe otherwise, or for a parameter of eager code, whose caller may expect its
    NumPy array mutated. ``del x[i]`` to ``x = jnp.delete(x, i)`` alike (the deletion raised on
    every run)."""

    code = "JAX201"

    def fix(self, request: FunctionalSet | FunctionalDelete, site: Site, doc: Document) -> Fix | None:
        if isinstance(request, FunctionalDelete):
            return _delete(request, site, doc)
        snippet = doc.snippet(site.statement)
        line = snippet.statement
        if not isinstance(line, cst.SimpleStatementLine) or not isinstance(line.body[0], cst.Assign):
            raise CannotFix("not a simple assignment")
        assign = line.body[0]
        target = assign.targets[0].target
        if not isinstance(target, cst.Subscript):
            raise CannotFix("not an item assignment")
        base = snippet.code_of(target.value)
        index = "".join(snippet.code_of(element) for element in target.slice)
        value = snippet.bare_code_of(assign.value)
        edits = []
        if request.use_where:
            jnp, edits = doc.reference("jax.numpy", site.scope)
            updated = where_update(jnp, index, value, base, request.cast_fill)
        else:
            updated = f"{base}.at[{index}].set({value})"
        code, imports = assign_update(doc, site.scope, base, updated, request.record, request.leaf)
        applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
        return doc.fix(
            applicability,
            "Rewrite as a functional update",
            [snippet.replace_code(code), *edits, *imports],
            site.scope if request.leaf else None,  # a fresh name
        )


def _delete(request: FunctionalDelete, site: Site, doc: Document) -> Fix | None:
    snippet = doc.snippet(site.statement)
    line = snippet.statement
    if not isinstance(line, cst.SimpleStatementLine) or not isinstance(line.body[0], cst.Del):
        raise CannotFix("not a `del` statement")
    target = line.body[0].target
    if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Name):
        raise CannotFix("not the deletion of an item of a name")
    base = snippet.code_of(target.value)
    index = "".join(snippet.code_of(element) for element in target.slice)
    jnp, imports = doc.reference("jax.numpy", site.scope)
    plain = len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index)
    where = index if plain else f"{jnp}.s_[{index}]"
    applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
    return doc.fix(
        applicability,
        "Rewrite as `jnp.delete`",
        [snippet.replace_code(f"{base} = {jnp}.delete({base}, {where})"), *imports],
    )
