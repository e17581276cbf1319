"""JAX302 fix: a new key for every iteration: split the key at the top of a Python loop body,
split the carried key in a lax loop body, or fold the step index into a key a ``fori_loop`` body
closes over."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document, names_in
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.carry import ThreadCarriedKey
from ...rules.prng.copies import SplitCopies
from ...rules.prng.jax302_prng_key_reuse_in_loop import (
    FoldInIndex,
    SplitAroundInnerLoop,
    SplitInBody,
    SplitInLoop,
)
from .keysplit import (
    argument_written,
    line_before,
    scope_holding,
    split_before,
    split_copies_fix,
    split_spelling,
    statement_holding,
    thread_carried_key,
    use_subkey,
)


class SplitKeyInLoop(
    Fixer[SplitInLoop | SplitInBody | FoldInIndex | ThreadCarriedKey | SplitAroundInnerLoop | SplitCopies]
):
    """Unsafe by nature: the numbers drawn change (each iteration now gets its own)."""

    code = "JAX302"

    def fix(
        self,
        request: SplitInLoop
        | SplitInBody
        | FoldInIndex
        | ThreadCarriedKey
        | SplitAroundInnerLoop
        | SplitCopies,
        site: Site,
        doc: Document,
    ) -> Fix | None:
        call = site.node
        if not isinstance(call, ast.Call):
            return None
        match request:
            case SplitCopies():
                return split_copies_fix(doc, site, request)
            case ThreadCarriedKey():
                return thread_carried_key(doc, site, request)
            case SplitInLoop(key, loop):
                first = loop.body[0]
                if first.lineno == loop.lineno:
                    raise CannotFix("a one-line loop")
                return self._split(doc, site, call, key, first, f"Split `{key}` on every iteration")
            case SplitInBody(key, statement, drawing):
                return self._split(
                    doc, site, drawing, key, statement, f"Split the carried `{key}` on every step"
                )
            case SplitAroundInnerLoop():
                return _split_around_inner_loop(doc, site, call, request)
            case FoldInIndex(key, index, hoist_from):
                fold_in, imports = split_spelling(doc, site.scope, call, "fold_in")
                name = argument_written(call, key)
                written = doc.text[doc.start(name) : doc.end(name)]  # as the user spells it
                if hoist_from is None:
                    edits = [
                        doc.edit(doc.start(name), doc.end(name), f"{fold_in}({written}, {index})"),
                        *imports,
                    ]
                    return doc.fix(
                        Applicability.UNSAFE, f"Fold the step index into `{key}`", edits, site.scope
                    )
                scope = scope_holding(site.scope, hoist_from)
                statement = statement_holding(scope.function.node, hoist_from)
                held = doc.fresh_name("key", scope, sorted(names_in(site.scope.function.node)))
                edits = [
                    line_before(doc, statement, f"{held} = {written}"),
                    doc.edit(doc.start(name), doc.end(name), f"{fold_in}({held}, {index})"),
                    *imports,
                ]
                return doc.fix(Applicability.UNSAFE, f"Fold the step index into `{key}`", edits, scope)

    def _split(
        self, doc: Document, site: Site, call: ast.Call, key: str, before: ast.stmt, title: str
    ) -> Fix:
        subkey = doc.fresh_name("subkey", site.scope)
        edits = [
            *split_before(doc, before, key, subkey, site.scope, like=call),
            use_subkey(doc, call, key, subkey),
        ]
        return doc.fix(Applicability.UNSAFE, title, edits, site.scope)


def _split_around_inner_loop(doc: Document, site: Site, call: ast.Call, request: SplitAroundInnerLoop) -> Fix:
    """``key, subkey = split(key)`` in the carrying body, before the inner loop; the draw takes
    ``fold_in(subkey, index)`` (or ``subkey``, where it folds the index in already)."""
    scope = scope_holding(site.scope, request.statement)
    subkey = doc.fresh_name("subkey", scope, sorted(names_in(scope.function.node)))
    replacement = subkey
    edits = split_before(doc, request.statement, request.key, subkey, scope, like=call)
    if not request.folded:
        fold_in, imports = split_spelling(doc, site.scope, call, "fold_in")
        replacement = f"{fold_in}({subkey}, {request.index})"
        edits += imports
    edits.append(doc.edit(doc.start(request.argument), doc.end(request.argument), replacement))
    return doc.fix(Applicability.UNSAFE, f"Split the carried `{request.key}` on every step", edits, scope)
