"""JAX207 fix: ``p - u`` -> ``p + u`` for an optax optimizer's updates."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.mutation.jax207_optimizer_updates_subtracted import AddUpdates


class AddOptimizerUpdates(Fixer[AddUpdates]):
    """Unsafe: the training changes (it descends, as the optimizer meant). The operands keep
    their text."""

    code = "JAX207"

    def fix(self, request: AddUpdates, site: Site, doc: Document) -> Fix | None:
        subtraction = request.subtraction
        # the operands' own parentheses lie outside their nodes: keep the text between them
        between = doc.text[doc.end(subtraction.left) : doc.start(subtraction.right)]
        if between.count("-") != 1:
            return None
        edit = doc.edit(doc.end(subtraction.left), doc.start(subtraction.right), between.replace("-", "+"))
        return doc.fix(Applicability.UNSAFE, "Add the updates", [edit])
