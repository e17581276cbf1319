"""JAX402 fix: pass ``size=`` with a static upper bound derived from the inputs' sizes."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import Document, Fixer


class PassStaticSize(Fixer):
    code = "JAX402"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        bound = (diagnostic.fix_data or {}).get("bound")
        call = diagnostic.node
        if not bound or not isinstance(call, ast.Call) or not call.args:
            return None
        last = max([*call.args, *call.keywords], key=lambda n: (n.end_lineno, n.end_col_offset))
        offset = doc.end(last)
        edit = doc.edit(offset, offset, f", size={bound}")
        return doc.fix(Applicability.UNSAFE, "Pass `size=` with a static upper bound", [edit])
