"""JAX206 fix: ``updates, _ = opt.update(g, state)`` -> ``updates, state = opt.update(g, state)``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.mutation.jax206_optimizer_state_discarded import KeepState


class BindNewState(Fixer[KeepState]):
    """Unsafe: the optimizer then advances, as meant, which changes every later step. Offered
    where the name then reaches the next step: a loop reads it again, or the function returns it."""

    code = "JAX206"

    def fix(self, request: KeepState, site: Site, doc: Document) -> Fix | None:
        discarded = request.discarded
        edit = doc.edit(doc.start(discarded), doc.end(discarded), request.state)
        return doc.fix(Applicability.UNSAFE, f"Bind the new state to `{request.state}`", [edit])
