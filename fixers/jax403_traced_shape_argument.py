"""JAX403 fix: a fixed-size window at a traced offset becomes ``lax.dynamic_slice_in_dim``;
otherwise a parameter used as a shape, size or slice bound joins ``static_argnames``."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer
from jaxlint.rewrites import add_static_argname, jitted_function


class ShapeArgumentToStatic(Fixer):
    code = "JAX403"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        window, param = data.get("window"), data.get("param")
        node = diagnostic.node
        if window and isinstance(node, ast.Subscript):
            lax, imports = doc.reference("jax.lax", diagnostic.scope)
            text = (
                f"{lax}.dynamic_slice_in_dim({doc.segment(node.value)}, "
                f"{doc.segment(window['start'])}, {doc.segment(window['size'])})"
            )
            edits = [doc.edit(doc.start(node), doc.end(node), text), *imports]
            return doc.fix(Applicability.UNSAFE, "Take the window with `lax.dynamic_slice_in_dim`", edits)
        if not param:
            return None
        edits = add_static_argname(doc, jitted_function(doc, diagnostic.scope), param)
        return doc.fix(Applicability.UNSAFE, f"Mark `{param}` static", edits)
