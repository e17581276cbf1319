"""JAX201 fix: ``x[i] = v`` -> ``x = x.at[i].set(v)``; ``x[mask] = v`` -> ``x = jnp.where(mask, v, x)``."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import CannotFix, Document, Fixer


class ItemAssignmentToAtSet(Fixer):
    code = "JAX201"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        if not data.get("single_target") or (data.get("mask") and not data.get("mask_fits")):
            return None
        snippet = doc.snippet(diagnostic.node)
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
        if data.get("mask"):
            jnp, edits = doc.reference("jax.numpy", diagnostic.scope)
            code = f"{base} = {jnp}.where({index}, {value}, {base})"
        else:
            code = f"{base} = {base}.at[{index}].set({value})"
        applicability = Applicability.SAFE if data.get("safe") else Applicability.UNSAFE
        return doc.fix(applicability, "Rewrite as a functional update", [snippet.replace_code(code), *edits])
