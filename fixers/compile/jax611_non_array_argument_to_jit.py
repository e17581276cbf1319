"""JAX611 fix: the parameter a function (or another non-array object) is passed to joins
``static_argnames``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.plans import MarkStatic
from jaxlint.fixing.rewrites import mark_static


class NonArrayArgumentToStatic(Fixer[MarkStatic]):
    """Unsafe: each distinct function (or optimizer, or module) compiles its own version of the
    jitted function; every caller must pass a hashable value there."""

    code = "JAX611"

    def fix(self, request: MarkStatic, site: Site, doc: Document) -> Fix | None:
        return mark_static(doc, site.scope, request)
