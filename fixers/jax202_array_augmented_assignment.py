"""JAX202 fix: ``x[i] += v`` -> ``x = x.at[i].add(v)`` (and the other operators)."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import CannotFix, Document, Fixer


class AugmentedAssignmentToAt(Fixer):
    code = "JAX202"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        snippet = doc.snippet(diagnostic.node)
        line = snippet.statement
        if not isinstance(line, cst.SimpleStatementLine) or not isinstance(line.body[0], cst.AugAssign):
            raise CannotFix("not an augmented assignment")
        augmented = line.body[0]
        target = augmented.target
        if not isinstance(target, cst.Subscript):
            raise CannotFix("not an item assignment")
        base = snippet.code_of(target.value)
        index = "".join(snippet.code_of(element) for element in target.slice)
        value = snippet.bare_code_of(augmented.value)
        method = data.get("method", "set")
        if method == "set":
            operator = augmented.operator.__class__.__name__
            symbol = _SYMBOLS.get(operator)
            if symbol is None:
                raise CannotFix(f"no functional form for {operator}")
            update = f"set({snippet.code_of(target)} {symbol} {snippet.operand_code_of(augmented.value)})"
        else:
            update = f"{method}({value})"
        code = f"{base} = {base}.at[{index}].{update}"
        applicability = Applicability.SAFE if data.get("safe") else Applicability.UNSAFE
        return doc.fix(applicability, "Rewrite as a functional update", [snippet.replace_code(code)])


_SYMBOLS = {
    "FloorDivideAssign": "//",
    "ModuloAssign": "%",
    "MatrixMultiplyAssign": "@",
    "BitAndAssign": "&",
    "BitOrAssign": "|",
    "BitXorAssign": "^",
    "LeftShiftAssign": "<<",
    "RightShiftAssign": ">>",
}
