"""JAX502 fix: ``for i in range(n)`` over a traced ``n`` -> ``jax.lax.fori_loop`` carrying the
variables the body rebinds; when that is not possible and ``n`` is a parameter, ``n`` becomes
static; a bound made from constants alone is computed with NumPy."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import ForiLoop, MarkStatic, NumpyAtTraceTime
from jaxlint.fixing.rewrites import fori_loop_edits, mark_static, numpy_at_trace_time


class RangeToForiLoop(Fixer[ForiLoop | MarkStatic | NumpyAtTraceTime]):
    """Unsafe: `fori_loop` fixes the carried values' shapes and dtypes for every iteration; a
    static bound recompiles for every value and rejects traced callers; NumPy computes a bound
    made from constants in 64-bit types."""

    code = "JAX502"

    def fix(self, request: ForiLoop | MarkStatic | NumpyAtTraceTime, site: Site, doc: Document) -> Fix | None:
        match request:
            case NumpyAtTraceTime():
                return numpy_at_trace_time(request, site, doc)
            case ForiLoop():
                edits = fori_loop_edits(doc, request, site.scope)
                applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
                return doc.fix(applicability, "Rewrite the loop with `jax.lax.fori_loop`", edits, site.scope)
            case MarkStatic():
                return mark_static(doc, site.scope, request)
