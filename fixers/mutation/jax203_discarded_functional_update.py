"""JAX203 fix: assign a discarded ``x.at[i].set(v)`` back, ``x = x.at[i].set(v)``."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.mutation.jax203_discarded_functional_update import AssignBack


class AssignFunctionalUpdate(Fixer[AssignBack]):
    """Safe: the statement had no effect; assigned back, it performs the update that was meant."""

    code = "JAX203"

    def fix(self, request: AssignBack, site: Site, doc: Document) -> Fix | None:
        snippet = doc.snippet(site.statement)
        line = snippet.statement
        if not isinstance(line, cst.SimpleStatementLine) or not isinstance(line.body[0], cst.Expr):
            raise CannotFix("not a bare expression statement")
        call = line.body[0].value
        array = call.func.value.value.value  # pyright: ignore[reportAttributeAccessIssue]  # x in x.at[i].set(v)
        code = f"{snippet.code_of(array)} = {snippet.code_of(call)}"
        return doc.fix(Applicability.SAFE, "Assign the update back", [snippet.replace_code(code)])
