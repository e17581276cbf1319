"""JAX647 fix: ``[nn.Dense(4)] * 3`` -> ``[nn.Dense(4) for _ in range(3)]``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.compile.jax647_one_layer_repeated_in_list import ComprehensionOfLayers


class OneLayerPerElement(Fixer[ComprehensionOfLayers]):
    """Unsafe: the parameters change, one set per layer where the repeated layer had one."""

    code = "JAX647"

    def fix(self, request: ComprehensionOfLayers, site: Site, doc: Document) -> Fix | None:
        text = f"[{doc.segment(request.layer)} for _ in range({doc.segment(request.count)})]"
        edit = doc.edit(doc.start(request.node), doc.end(request.node), text)
        return doc.fix(Applicability.UNSAFE, "Make one layer per element", [edit])
