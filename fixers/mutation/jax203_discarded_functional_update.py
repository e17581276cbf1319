"""JAX203 fix: assign a discarded ``x.at[i].set(v)`` back, ``x = x.at[i].set(v)``."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer
from jaxlint.fixing.rewrites import assign_update

from ...rules.mutation.jax203_discarded_functional_update import AssignBack


class AssignFunctionalUpdate(Fixer[AssignBack]):
    """Safe: the statement had no effect; assigned back, it performs the update that was meant.
    Unsafe where the array is a leaf the function cannot assign into: the update goes into a new
    local name, or a new record bound to the owner's name, which holders of the old leaf or
    record outside the function do not see (safe where the request says none exist)."""

    code = "JAX203"

    def fix(self, request: AssignBack, site: Site, doc: Document) -> Fix | None:
        snippet = doc.snippet(site.statement)
        line = snippet.statement
        if not isinstance(line, cst.SimpleStatementLine) or not isinstance(line.body[0], cst.Expr):
            raise CannotFix("not a bare expression statement")
        call = line.body[0].value
        array = call.func.value.value.value  # pyright: ignore[reportAttributeAccessIssue]  # x in x.at[i].set(v)
        if request.record is not None:
            code, imports = assign_update(doc, site.scope, "", snippet.code_of(call), request.record)
            title = f"Rebuild `{request.record.owner}` around the update"
            return doc.fix(_applicability(request), title, [snippet.replace_code(code), *imports])
        if request.leaf is None:
            code = f"{snippet.code_of(array)} = {snippet.code_of(call)}"
            return doc.fix(Applicability.SAFE, "Assign the update back", [snippet.replace_code(code)])
        code, reads = assign_update(doc, site.scope, "", snippet.code_of(call), None, request.leaf)
        return doc.fix(
            _applicability(request),
            "Assign the update to a new name",
            [snippet.replace_code(code), *reads],
            site.scope,
        )


def _applicability(request: AssignBack) -> Applicability:
    return Applicability.SAFE if request.safe else Applicability.UNSAFE
