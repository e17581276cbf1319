"""JAX203 fix: assign a discarded ``x.at[i].set(v)`` back, ``x = x.at[i].set(v)``."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import CannotFix, Document, Fixer


class AssignFunctionalUpdate(Fixer):
    code = "JAX203"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        if not (diagnostic.fix_data or {}).get("assignable"):
            return None
        snippet = doc.snippet(diagnostic.node)
        line = snippet.statement
        if not isinstance(line, cst.SimpleStatementLine) or not isinstance(line.body[0], cst.Expr):
            raise CannotFix("not a bare expression statement")
        call = line.body[0].value
        array = call.func.value.value.value  # type: ignore[attr-defined]  # x in x.at[i].set(v)
        code = f"{snippet.code_of(array)} = {snippet.code_of(call)}"
        return doc.fix(Applicability.SAFE, "Assign the update back", [snippet.replace_code(code)])
