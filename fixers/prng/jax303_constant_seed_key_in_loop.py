"""JAX303 fix: create the key once, before the loop, and split it on every iteration."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.jax303_constant_seed_key_in_loop import FoldStepIndex, HoistKey
from .keysplit import split_spelling


class HoistConstantSeedKey(Fixer[HoistKey | FoldStepIndex]):
    """Unsafe by nature: every iteration now draws different numbers, which is the point."""

    code = "JAX303"

    def fix(self, request: HoistKey | FoldStepIndex, site: Site, doc: Document) -> Fix | None:
        scope = site.scope
        if isinstance(request, FoldStepIndex):
            made = site.node
            fold_in, imports = split_spelling(
                doc, scope, made if isinstance(made, ast.Call) else None, "fold_in"
            )
            edits = [
                doc.edit(doc.start(made), doc.end(made), f"{fold_in}({doc.segment(made)}, {request.index})")
            ]
            return doc.fix(Applicability.UNSAFE, "Fold the step index into the key", [*edits, *imports])
        loop, assign, key = request.loop, request.assign, request.key
        subkey = doc.fresh_name("subkey", scope)
        split, imports = split_spelling(doc, scope, site.node if isinstance(site.node, ast.Call) else None)
        loop_start = doc.line_starts[loop.lineno - 1]
        indent = doc.text[loop_start : doc.start(loop)]
        if indent.strip():
            raise CannotFix("the loop shares its line")
        made = doc.segment(assign)
        if request.fold_index is not None:  # a key of its own for each step of the fori_loop
            fold_in, more = split_spelling(
                doc, scope, site.node if isinstance(site.node, ast.Call) else None, "fold_in"
            )
            made = f"{key} = {fold_in}({doc.segment(assign.value)}, {request.fold_index})"
            imports = [*imports, *more]
        hoisted = f"{indent}{made}{doc.newline}"
        edits = [
            doc.edit(loop_start, loop_start, hoisted),
            doc.edit(doc.start(assign), doc.end(assign), f"{key}, {subkey} = {split}({key})"),
            *(doc.edit(doc.start(n), doc.end(n), subkey) for n in request.uses),
            *imports,
        ]
        return doc.fix(Applicability.UNSAFE, "Create the key once and split it per iteration", edits, scope)
