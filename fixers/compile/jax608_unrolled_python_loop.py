"""JAX608 fix: a long static ``for i in range(N)`` loop -> ``jax.lax.fori_loop`` carrying the
variables the body rebinds."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import ForiLoop
from jaxlint.fixing.rewrites import fori_loop_edits


class UnrolledLoopToForiLoop(Fixer[ForiLoop]):
    """Unsafe: the loop index becomes a tracer, and every iteration must keep the carried
    values' shapes and dtypes."""

    code = "JAX608"

    def fix(self, request: ForiLoop, site: Site, doc: Document) -> Fix | None:
        edits = fori_loop_edits(doc, request, site.scope)
        return doc.fix(Applicability.UNSAFE, "Rewrite the loop with `jax.lax.fori_loop`", edits, site.scope)
