"""JAX403 fix: a parameter used as a shape, size or slice bound joins ``static_argnames``."""

from __future__ import annotations

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer
from jaxlint.rewrites import add_static_argname, jitted_function


class ShapeArgumentToStatic(Fixer):
    code = "JAX403"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        param = (diagnostic.fix_data or {}).get("param")
        if not param:
            return None
        edits = add_static_argname(doc, jitted_function(doc, diagnostic.scope), param)
        return doc.fix(Applicability.UNSAFE, f"Mark `{param}` static", edits)
