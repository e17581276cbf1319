"""JAX303 fix: create the key once, before the loop, and split it on every iteration."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.jax303_constant_seed_key_in_loop import FoldStepIndex, HoistKey, SplitCarriedKey
from .keysplit import line_before, split_spelling


class HoistConstantSeedKey(Fixer[HoistKey | FoldStepIndex | SplitCarriedKey]):
    """Unsafe by nature: every iteration now draws different numbers, which is the point."""

    code = "JAX303"

    def fix(
        self, request: HoistKey | FoldStepIndex | SplitCarriedKey, site: Site, doc: Document
    ) -> Fix | None:
        scope, made = site.scope, site.node
        like = made if isinstance(made, ast.Call) else None  # `jax.random` spelt as the call does
        if isinstance(request, SplitCarriedKey):
            return split_carried(request, made, like, site, doc)
        fold_in, imports = split_spelling(doc, scope, like, "fold_in")
        if isinstance(request, FoldStepIndex):
            folded = f"{fold_in}({doc.segment(made)}, {request.index})"
            edits = [doc.edit(doc.start(made), doc.end(made), folded), *imports]
            return doc.fix(Applicability.UNSAFE, "Fold the step index into the key", edits)
        loop, assign, key = request.loop, request.assign, request.key
        subkey = doc.fresh_name("subkey", scope)
        split, more = split_spelling(doc, scope, like)
        imports = [*more, *imports] if request.fold_index is not None else more
        loop_start = doc.line_starts[loop.lineno - 1]
        indent = doc.text[loop_start : doc.start(loop)]
        if indent.strip():
            raise CannotFix("the loop shares its line")
        hoisted = doc.segment(assign)
        if request.fold_index is not None:  # a key of its own for each step of the lax loop
            hoisted = f"{key} = {fold_in}({doc.segment(assign.value)}, {request.fold_index})"
        edits = [
            doc.edit(loop_start, loop_start, f"{indent}{hoisted}{doc.newline}"),
            doc.edit(doc.start(assign), doc.end(assign), f"{key}, {subkey} = {split}({key})"),
            *(doc.edit(doc.start(n), doc.end(n), subkey) for n in request.uses),
            *imports,
        ]
        return doc.fix(Applicability.UNSAFE, "Create the key once and split it per iteration", edits, scope)


def split_carried(
    request: SplitCarriedKey, made: ast.AST, like: ast.Call | None, site: Site, doc: Document
) -> Fix:
    """``carried, key = split(carried)`` for ``key = <made>``; else a subkey split off before the
    statement takes the made key's place."""
    split, imports = split_spelling(doc, site.scope, like)
    carried, statement = request.carried, request.statement
    if request.target is not None:
        new = f"{carried}, {request.target} = {split}({carried})"
        edits = [doc.edit(doc.start(statement), doc.end(statement), new)]
    else:
        subkey = doc.fresh_name("subkey", site.scope)
        edits = [
            line_before(doc, statement, f"{carried}, {subkey} = {split}({carried})"),
            doc.edit(doc.start(made), doc.end(made), subkey),
        ]
    return doc.fix(
        Applicability.UNSAFE, f"Split the carried `{carried}` on every step", [*edits, *imports], site.scope
    )
