"""JAX603 fix: ``jnp.sum([a, b])`` -> ``jnp.sum(jnp.array([a, b]))``."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer


class WrapSequenceInArray(Fixer):
    code = "JAX603"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        node = diagnostic.node
        call = (diagnostic.fix_data or {}).get("call")
        if not isinstance(call, ast.Call) or not isinstance(node, ast.expr):
            return None
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and doc.model.qualname(func.value, diagnostic.scope) == "jax.numpy"
        ):
            jnp, imports = doc.segment(func.value), []
        else:
            jnp, imports = doc.reference("jax.numpy", diagnostic.scope)
        start, end = doc.start(node), doc.end(node)
        edits = [doc.edit(start, start, f"{jnp}.array("), doc.edit(end, end, ")"), *imports]
        return doc.fix(Applicability.SAFE, "Wrap the sequence in `jnp.array(...)`", edits)
