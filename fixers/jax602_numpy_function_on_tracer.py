"""JAX602 fix: ``np.exp(x)`` on a tracer -> ``jnp.exp(x)``."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer


class NumpyToJaxNumpy(Fixer):
    code = "JAX602"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data
        node = diagnostic.node
        if not data or not isinstance(node, ast.Call):
            return None
        jnp, imports = doc.reference("jax.numpy", diagnostic.scope)
        func = node.func
        edits = [doc.edit(doc.start(func), doc.end(func), f"{jnp}.{data['name']}"), *imports]
        applicability = Applicability.SAFE if data["safe"] else Applicability.UNSAFE
        return doc.fix(applicability, f"Use `jnp.{data['name']}`", edits)
