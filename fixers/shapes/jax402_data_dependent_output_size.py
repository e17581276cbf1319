"""JAX402 fix: pass ``size=`` with a static upper bound derived from the inputs' sizes; on a
constant, compute with NumPy while tracing."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import NumpyAtTraceTime
from jaxlint.fixing.rewrites import numpy_at_trace_time

from ...rules.shapes.jax402_data_dependent_output_size import StaticSize


class PassStaticSize(Fixer[StaticSize | NumpyAtTraceTime]):
    """Unsafe: with `size=` the result is padded (with `fill_value`, or the default) up to the
    bound, so code that used its length or its last elements sees the padding. NumPy gives the
    exact result of a constant, but as a NumPy array of 64-bit indices."""

    code = "JAX402"

    def fix(self, request: StaticSize | NumpyAtTraceTime, site: Site, doc: Document) -> Fix | None:
        if isinstance(request, NumpyAtTraceTime):
            return numpy_at_trace_time(request, site, doc)
        call = site.node
        if not isinstance(call, ast.Call):
            return None
        last = max([*call.args, *call.keywords], key=lambda n: (n.end_lineno, n.end_col_offset))
        offset = doc.end(last)
        fill = f", fill_value={request.fill}" if request.fill else ""
        edit = doc.edit(offset, offset, f", size={request.bound}{fill}")
        return doc.fix(Applicability.UNSAFE, "Pass `size=` with a static upper bound", [edit])
