"""JAX659 fix: ``lax.clamp(x, lo, hi)`` -> ``lax.clamp(lo, x, hi)``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.compile.jax659_clamp_arguments_in_clip_order import SwapClampOperand


class SwapClampArguments(Fixer[SwapClampOperand]):
    """Safe: a 0-d `x` gives the same value either way, and any other `x` raised before."""

    code = "JAX659"

    def fix(self, request: SwapClampOperand, site: Site, doc: Document) -> Fix | None:
        first, second = request.call.args[0], request.call.args[1]
        edits = [
            doc.edit(doc.start(first), doc.end(first), doc.segment(second)),
            doc.edit(doc.start(second), doc.end(second), doc.segment(first)),
        ]
        return doc.fix(Applicability.SAFE, "Swap the first two arguments", edits)
