"""JAX202 fix: ``x[i] += v`` -> ``x = x.at[i].add(v)`` (and the other operators)."""

from __future__ import annotations

import libcst as cst

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer
from jaxlint.fixing.rewrites import assign_update

from ...rules.mutation.jax202_array_augmented_assignment import FunctionalUpdate


class AugmentedAssignmentToAt(Fixer[FunctionalUpdate]):
    """Safe under JAX201's conditions and when the index cannot repeat (constants, slices, static
    names): `.at[idx].add(v)` accumulates every occurrence of a repeated index, where NumPy's
    `x[idx] += v` applies one. Unsafe otherwise."""

    code = "JAX202"

    def fix(self, request: FunctionalUpdate, site: Site, doc: Document) -> Fix | None:
        snippet = doc.snippet(site.statement)
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
        if request.method == "set":
            operator = augmented.operator.__class__.__name__
            symbol = _SYMBOLS.get(operator)
            if symbol is None:
                raise CannotFix(f"no functional form for {operator}")
            update = f"set({snippet.code_of(target)} {symbol} {snippet.operand_code_of(augmented.value)})"
        else:
            update = f"{request.method}({value})"
        updated = f"{base}.at[{index}].{update}"
        code, imports = assign_update(doc, site.scope, base, updated, request.record, request.leaf)
        applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
        return doc.fix(
            applicability,
            "Rewrite as a functional update",
            [snippet.replace_code(code), *imports],
            site.scope if request.leaf else None,  # a fresh name
        )


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
