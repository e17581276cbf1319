"""JAX503 fix: ``max(a, b)`` -> ``jnp.maximum(a, b)``, ``a and b`` -> ``jnp.logical_and(a, b)``,
``not a`` -> ``jnp.logical_not(a)`` (more operands fold left)."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.control_flow.jax503_tracer_conversion import ElementwiseFunction


class ElementwiseConversion(Fixer[ElementwiseFunction]):
    """Unsafe: `jnp.maximum` propagates NaN where `max` keeps its first argument, and `a or b`
    gave one of its operands where `jnp.logical_or` gives a boolean array."""

    code = "JAX503"

    def fix(self, request: ElementwiseFunction, site: Site, doc: Document) -> Fix | None:
        node = site.node
        if node is None or not request.operands:
            raise CannotFix("nothing to rewrite")
        jnp, imports = doc.reference("jax.numpy", site.scope)
        function = f"{jnp}.{request.function}"
        codes = [doc.text[doc.start(operand) : doc.end(operand)] for operand in request.operands]
        code = f"{function}({codes[0]})" if len(codes) == 1 else codes[0]
        for operand in codes[1:]:
            code = f"{function}({code}, {operand})"
        edits = [doc.edit(doc.start(node), doc.end(node), code), *imports]
        return doc.fix(Applicability.UNSAFE, f"Use `jnp.{request.function}`", edits)
