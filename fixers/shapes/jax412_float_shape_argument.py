"""JAX412 fix: ``a / b`` -> ``a // b`` where JAX needs an integer."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.shapes.jax412_float_shape_argument import FloorDivide


class FloorDivision(Fixer[FloorDivide]):
    """Unsafe: `//` rounds down, which may not be the count that was meant (the true division
    as written always raised). The operands keep their text."""

    code = "JAX412"

    def fix(self, request: FloorDivide, site: Site, doc: Document) -> Fix | None:
        division = request.division
        left, right = doc.segment(division.left), doc.segment(division.right)
        # the operands' own parentheses lie outside their nodes: keep the text between them
        between = doc.text[doc.end(division.left) : doc.start(division.right)]
        text = left + between.replace("/", "//", 1) + right
        edit = doc.edit(doc.start(division.left), doc.end(division.right), text)
        return doc.fix(Applicability.UNSAFE, "Divide with `//`", [edit])
