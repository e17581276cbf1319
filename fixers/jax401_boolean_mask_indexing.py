"""JAX401 fix: masked reductions take ``where=``, ``x.at[mask].set(v)`` becomes
``jnp.where(mask, v, x)``, and a masked array that is only summed is filled with zeros."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import CannotFix, Document, Fixer


class MaskToWhere(Fixer):
    code = "JAX401"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        plan = diagnostic.fix_data
        node = diagnostic.node
        if not plan or not isinstance(node, ast.Subscript):
            return None
        form = plan["form"]
        if form == "method-where":
            call = plan["call"]
            text = f"{doc.segment(node.value)}.{plan['method']}(where={doc.segment(node.slice)})"
            edits = [doc.edit(doc.start(call), doc.end(call), text)]
            return doc.fix(Applicability.SAFE, "Reduce with `where=` instead of a mask index", edits)
        if form == "function-where":
            text = f"{doc.segment(node.value)}, where={doc.segment(node.slice)}"
            edits = [doc.edit(doc.start(node), doc.end(node), text)]
            return doc.fix(Applicability.SAFE, "Reduce with `where=` instead of a mask index", edits)
        jnp, imports = doc.reference("jax.numpy", diagnostic.scope)
        if form == "where-set":
            call = plan["call"]
            text = f"{jnp}.where({doc.segment(node.slice)}, {doc.segment(plan['value'])}, {doc.segment(plan['base'])})"
            edits = [doc.edit(doc.start(call), doc.end(call), text), *imports]
            return doc.fix(Applicability.SAFE, "Rewrite with `jnp.where`", edits)
        if form == "fill":
            text = f"{jnp}.where({doc.segment(node.slice)}, {doc.segment(node.value)}, {plan['fill']})"
            edits = [doc.edit(doc.start(node), doc.end(node), text), *imports]
            return doc.fix(Applicability.SAFE, "Fill the masked-out elements instead of dropping them", edits)
        raise CannotFix(form)
