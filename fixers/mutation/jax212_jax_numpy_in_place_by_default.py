"""JAX212 fix: ``jnp.place(x, m, v)`` -> ``x = jnp.place(x, m, v, inplace=False)``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Edit, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer

from ...rules.mutation.jax212_jax_numpy_in_place_by_default import PassInplaceFalse


class PassInplaceFalseFixer(Fixer[PassInplaceFalse]):
    """Safe where the call's result was used (the call raised before); unsafe where the result
    is bound to the array's name: holders of the old array elsewhere keep it."""

    code = "JAX212"

    def fix(self, request: PassInplaceFalse, site: Site, doc: Document) -> Fix | None:
        call = request.call
        edits = [_keyword_edit(call, doc)]
        if request.rebinds is None:
            return doc.fix(Applicability.SAFE, "Pass `inplace=False`", edits)
        start = doc.start(call)
        edits.append(doc.edit(start, start, f"{request.rebinds} = "))
        return doc.fix(
            Applicability.UNSAFE, f"Pass `inplace=False` and bind the result to `{request.rebinds}`", edits
        )


def _keyword_edit(call: ast.Call, doc: Document) -> Edit:
    """``inplace=False`` added as the call's last argument, on a line of its own where the
    arguments end in a comma before a `)` on a line of its own."""
    closing = doc.end(call) - 1  # the `)`
    before = doc.text[doc.start(call) : closing]
    if not before.rstrip().endswith(","):
        return doc.edit(
            closing, closing, "inplace=False" if before.rstrip().endswith("(") else ", inplace=False"
        )
    last_line = before[before.rstrip().rfind("\n") + 1 :]
    if "\n" not in before[len(before.rstrip()) :]:
        return doc.edit(closing, closing, " inplace=False")
    indent = last_line[: len(last_line) - len(last_line.lstrip())]
    line_start = doc.start(call) + before.rfind("\n") + 1
    return doc.edit(line_start, line_start, f"{indent}inplace=False,\n")
