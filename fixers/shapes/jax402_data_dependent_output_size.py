"""JAX402 fix: pass ``size=`` with a static upper bound derived from the inputs' sizes."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.shapes.jax402_data_dependent_output_size import StaticSize


class PassStaticSize(Fixer[StaticSize]):
    """Unsafe: with `size=` the result is padded (with `fill_value`, or the default) up to the
    bound, so code that used its length or its last elements sees the padding."""

    code = "JAX402"

    def fix(self, request: StaticSize, site: Site, doc: Document) -> Fix | None:
        call = site.node
        if not isinstance(call, ast.Call):
            return None
        last = max([*call.args, *call.keywords], key=lambda n: (n.end_lineno, n.end_col_offset))
        offset = doc.end(last)
        fill = f", fill_value={request.fill}" if request.fill else ""
        edit = doc.edit(offset, offset, f", size={request.bound}{fill}")
        return doc.fix(Applicability.UNSAFE, "Pass `size=` with a static upper bound", [edit])
