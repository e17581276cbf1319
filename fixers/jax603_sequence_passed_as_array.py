"""JAX603 fix: ``jnp.sum([a, b])`` -> ``jnp.sum(jnp.array([a, b]))``."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer


class WrapSequenceInArray(Fixer):
    code = "JAX603"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        call = diagnostic.node
        arguments = (diagnostic.fix_data or {}).get("arguments")
        if not isinstance(call, ast.Call) or not arguments:
            return None
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and doc.model.qualname(func.value, diagnostic.scope) == "jax.numpy"
        ):
            jnp, edits = doc.segment(func.value), []
        else:
            jnp, edits = doc.reference("jax.numpy", diagnostic.scope)
        for argument in arguments:
            start, end = doc.start(argument), doc.end(argument)
            edits += [doc.edit(start, start, f"{jnp}.array("), doc.edit(end, end, ")")]
        return doc.fix(Applicability.SAFE, "Wrap the sequence in `jnp.array(...)`", edits)
