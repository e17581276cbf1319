"""JAX603 fix: ``jnp.sum([a, b])`` -> ``jnp.sum(jnp.array([a, b]))``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.compile.jax603_sequence_passed_as_array import WrapInArray


class WrapSequenceInArray(Fixer[WrapInArray]):
    """Safe: the call raised `TypeError` before; `jnp.array` is the conversion NumPy applies
    implicitly."""

    code = "JAX603"

    def fix(self, request: WrapInArray, site: Site, doc: Document) -> Fix | None:
        call = site.node
        if not isinstance(call, ast.Call):
            return None
        func = call.func
        if isinstance(func, ast.Attribute) and doc.model.qualname(func.value, site.scope) == "jax.numpy":
            jnp, edits = doc.segment(func.value), []
        else:
            jnp, edits = doc.reference("jax.numpy", site.scope)
        for argument in request.arguments:
            start, end = doc.start(argument), doc.end(argument)
            edits += [doc.edit(start, start, f"{jnp}.array("), doc.edit(end, end, ")")]
        return doc.fix(Applicability.SAFE, "Wrap the sequence in `jnp.array(...)`", edits)
