"""JAX502 fix: ``for i in range(n)`` over a traced ``n`` -> ``jax.lax.fori_loop`` carrying the
variables the body rebinds; when that is not possible and ``n`` is a parameter, ``n`` becomes
static."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability, Diagnostic, Edit, Fix
from jaxlint.fix import CannotFix, Document, Fixer, Snippet, parse_statements
from jaxlint.rewrites import add_static_argname, block_statements, function_def, jitted_function, pack
from jaxlint.semantic.scopes import Scope


class RangeToForiLoop(Fixer):
    code = "JAX502"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        plan = data.get("plan")
        if plan:
            edits = fori_loop_edits(doc, doc.snippet(diagnostic.node), plan, diagnostic.scope)
            return doc.fix(
                Applicability.UNSAFE, "Rewrite the loop with `jax.lax.fori_loop`", edits, diagnostic.scope
            )
        if data.get("param"):
            edits = add_static_argname(doc, jitted_function(doc, diagnostic.scope), data["param"])
            return doc.fix(Applicability.UNSAFE, f"Mark `{data['param']}` static", edits)
        return None


def fori_loop_edits(doc: Document, snippet: Snippet, plan: dict, scope: Scope) -> list[Edit]:
    """``for i in range(a, b): body`` -> ``carry = lax.fori_loop(a, b, body_fun, carry)``."""
    statement = snippet.statement
    if not isinstance(statement, cst.For) or not isinstance(statement.iter, cst.Call):
        raise CannotFix("not a for loop over range()")
    bounds = [snippet.bare_code_of(arg.value) for arg in statement.iter.args]
    lower, upper = ("0", bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
    carried: list[str] = plan["carried"]
    lax, edits = doc.reference("jax.lax", scope)
    body_name = doc.fresh_name("body_fun", scope)
    carry = carried[0] if len(carried) == 1 else doc.fresh_name("carry", scope)
    unpack = "" if len(carried) == 1 else f"{pack(carried)} = {carry}"
    function = function_def(
        doc,
        body_name,
        [plan["index"], carry],
        unpack,
        block_statements(statement.body),
        f"return {pack(carried)}",
    )
    initial = carried[0] if len(carried) == 1 else f"({pack(carried)})"
    call = f"{pack(carried)} = {lax}.fori_loop({lower}, {upper}, {body_name}, {initial})"
    return [snippet.replace([function, *parse_statements(call + "\n")]), *edits]
