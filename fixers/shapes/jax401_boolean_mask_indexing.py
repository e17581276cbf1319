"""JAX401 fix: masked reductions take ``where=``, ``x.at[mask].set(v)`` becomes
``jnp.where(mask, v, x)``, and a masked array that is only summed is filled with zeros."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer
from jaxlint.fixing.rewrites import where_update

from ...rules.shapes.jax401_boolean_mask_indexing import (
    FillMasked,
    FunctionWhere,
    MaskFix,
    ReductionWhere,
    WhereSet,
)


class MaskToWhere(Fixer[MaskFix]):
    """Safe (but `jnp.where` with a value that may change the array's dtype): each form computes
    what the masked code computed, with a static shape (a reduction
    over the selected elements, an update of the masked elements, zeros or ones that leave a sum
    or product unchanged)."""

    code = "JAX401"

    def fix(self, request: MaskFix, site: Site, doc: Document) -> Fix | None:
        node = site.node
        if not isinstance(node, ast.Subscript):
            return None
        mask = doc.segment(node.slice)
        match request:
            case ReductionWhere(call, method):
                text = f"{doc.segment(node.value)}.{method}(where={mask})"
                edits = [doc.edit(doc.start(call), doc.end(call), text)]
                return doc.fix(Applicability.SAFE, "Reduce with `where=` instead of a mask index", edits)
            case FunctionWhere():
                text = f"{doc.segment(node.value)}, where={mask}"
                edits = [doc.edit(doc.start(node), doc.end(node), text)]
                return doc.fix(Applicability.SAFE, "Reduce with `where=` instead of a mask index", edits)
            case WhereSet(call, base, value, cast, safe):
                jnp, imports = doc.reference("jax.numpy", site.scope)
                text = where_update(jnp, mask, doc.segment(value), doc.segment(base), cast)
                edits = [doc.edit(doc.start(call), doc.end(call), text), *imports]
                applicability = Applicability.SAFE if safe else Applicability.UNSAFE
                return doc.fix(applicability, "Rewrite with `jnp.where`", edits)
            case FillMasked(fill):
                jnp, imports = doc.reference("jax.numpy", site.scope)
                text = f"{jnp}.where({mask}, {doc.segment(node.value)}, {fill})"
                edits = [doc.edit(doc.start(node), doc.end(node), text), *imports]
                return doc.fix(
                    Applicability.SAFE, "Fill the masked-out elements instead of dropping them", edits
                )
