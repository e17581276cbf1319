"""JAX648 fix: ``jnp.log(jax.nn.softmax(x, axis=a))`` -> ``jax.nn.log_softmax(x, axis=a)``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.compile.jax648_log_of_softmax import LogSoftmax


class UseLogSoftmax(Fixer[LogSoftmax]):
    """Unsafe: the values change where the naive form underflowed or rounded."""

    code = "JAX648"

    def fix(self, request: LogSoftmax, site: Site, doc: Document) -> Fix | None:
        jax, imports = doc.reference("jax", site.scope)
        softmax = request.softmax
        keywords = "".join(f", {k.arg}={doc.segment(k.value)}" for k in softmax.keywords)
        text = f"{jax}.nn.log_softmax({doc.segment(softmax.args[0])}{keywords})"
        edit = doc.edit(doc.start(request.call), doc.end(request.call), text)
        return doc.fix(Applicability.UNSAFE, "Use `jax.nn.log_softmax`", [edit, *imports])
