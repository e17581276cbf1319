"""JAX635 fix: ``optax.softmax_cross_entropy`` -> ``optax.softmax_cross_entropy_with_integer_labels``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.compile.jax635_integer_labels_to_softmax_cross_entropy import IntegerLabels

SUFFIX = "_with_integer_labels"


class UseIntegerLabelsLoss(Fixer[IntegerLabels]):
    """Unsafe: the loss changes, to the one meant. The function keeps the module it is spelled
    with (``optax.`` or ``optax.losses.``); a bare imported name is left alone (the other would
    need importing too)."""

    code = "JAX635"

    def fix(self, request: IntegerLabels, site: Site, doc: Document) -> Fix | None:
        func = request.func
        if not isinstance(func, ast.Attribute) or not doc.segment(func).endswith("softmax_cross_entropy"):
            return None
        edit = doc.edit(doc.end(func), doc.end(func), SUFFIX)
        return doc.fix(Applicability.UNSAFE, "Use `softmax_cross_entropy_with_integer_labels`", [edit])
