"""JAX502 fix: ``for i in range(n)`` over a traced ``n`` -> ``jax.lax.fori_loop`` carrying the
variables the body rebinds; when that is not possible and ``n`` is a parameter, ``n`` becomes
static."""

from __future__ import annotations

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer
from jaxlint.rewrites import add_static_argname, fori_loop_edits, jitted_function


class RangeToForiLoop(Fixer):
    code = "JAX502"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        plan = data.get("plan")
        if plan:
            edits = fori_loop_edits(doc, doc.snippet(diagnostic.node), plan, diagnostic.scope)
            return doc.fix(
                Applicability.UNSAFE, "Rewrite the loop with `jax.lax.fori_loop`", edits, diagnostic.scope
            )
        if data.get("param"):
            edits = add_static_argname(doc, jitted_function(doc, diagnostic.scope), data["param"])
            return doc.fix(Applicability.UNSAFE, f"Mark `{data['param']}` static", edits)
        return None
