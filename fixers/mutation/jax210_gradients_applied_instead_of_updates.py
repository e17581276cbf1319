"""JAX210 fix: ``optax.apply_updates(params, grads)`` -> ``optax.apply_updates(params, updates)``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.mutation.jax210_gradients_applied_instead_of_updates import ApplyUpdates


class ApplyOptimizerUpdates(Fixer[ApplyUpdates]):
    """Unsafe: the training changes (it descends, as the optimizer meant)."""

    code = "JAX210"

    def fix(self, request: ApplyUpdates, site: Site, doc: Document) -> Fix | None:
        edit = doc.edit(doc.start(request.gradients), doc.end(request.gradients), request.updates)
        return doc.fix(Applicability.UNSAFE, "Apply the optimizer's updates", [edit])
