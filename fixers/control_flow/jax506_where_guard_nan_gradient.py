"""JAX506 fix: the double ``where``: ``jnp.sqrt(x)`` -> ``jnp.sqrt(jnp.where(x > 0, x, 1.0))``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.control_flow.jax506_where_guard_nan_gradient import DoubleWhere, guarded_operand


class GuardOperand(Fixer[DoubleWhere]):
    """Safe: every value stays the same; only the gradient of the excluded entries changes,
    from NaN to 0."""

    code = "JAX506"

    def fix(self, request: DoubleWhere, site: Site, doc: Document) -> Fix | None:
        operand = request.operand
        text = guarded_operand(Document.segment, doc, request.where, operand, request.taken_when_true)
        edit = doc.edit(doc.start(operand), doc.end(operand), text)
        return doc.fix(Applicability.SAFE, "Guard the operand too (double `where`)", [edit])
