"""JAX208 fix: ``np.asarray(x)`` (or ``np.from_dlpack(x)``) -> ``np.array(x)``."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.mutation.jax208_read_only_numpy_view import CopyArray


class CopyReadOnlyView(Fixer[CopyArray]):
    """Safe: writing needs a copy, and a JAX array cannot be written through any view."""

    code = "JAX208"

    def fix(self, request: CopyArray, site: Site, doc: Document) -> Fix | None:
        func = request.view.func
        text = doc.segment(func)
        name = text.rsplit(".", 1)[-1]
        if name not in ("asarray", "asanyarray", "from_dlpack"):
            return None
        edit = doc.edit(doc.end(func) - len(name), doc.end(func), "array")
        return doc.fix(Applicability.SAFE, "Copy with `np.array`", [edit])
