"""JAX608 fix: a long static ``for i in range(N)`` loop -> ``jax.lax.fori_loop`` carrying the
variables the body rebinds."""

from __future__ import annotations

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer
from jaxlint.rewrites import fori_loop_edits


class UnrolledLoopToForiLoop(Fixer):
    code = "JAX608"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        plan = (diagnostic.fix_data or {}).get("plan")
        if not plan:
            return None
        edits = fori_loop_edits(doc, doc.snippet(diagnostic.node), plan, diagnostic.scope)
        return doc.fix(
            Applicability.UNSAFE, "Rewrite the loop with `jax.lax.fori_loop`", edits, diagnostic.scope
        )
