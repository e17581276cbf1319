"""JAX643 fix: ``jnp.log(jnp.sum(jnp.exp(x), axis=a))`` -> ``jax.nn.logsumexp(x, axis=a)``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.compile.jax643_naive_log_sum_exp import LogSumExp


class UseLogSumExp(Fixer[LogSumExp]):
    """Unsafe: the result changes where the naive form overflowed, underflowed or rounded."""

    code = "JAX643"

    def fix(self, request: LogSumExp, site: Site, doc: Document) -> Fix | None:
        jax, imports = doc.reference("jax", site.scope)
        keywords = "".join(f", {k.arg}={doc.segment(k.value)}" for k in request.keywords)
        text = f"{jax}.nn.logsumexp({doc.segment(request.operand)}{keywords})"
        edit = doc.edit(doc.start(request.call), doc.end(request.call), text)
        return doc.fix(Applicability.UNSAFE, "Use `jax.nn.logsumexp`", [edit, *imports])
