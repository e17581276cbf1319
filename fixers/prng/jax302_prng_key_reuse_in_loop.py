"""JAX302 fix: a new key for every iteration: split the key at the top of a Python loop body,
split the carried key in a lax loop body, or fold the step index into a key a ``fori_loop`` body
closes over."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.jax302_prng_key_reuse_in_loop import FoldInIndex, SplitInBody, SplitInLoop
from .keysplit import argument_written, split_before, split_spelling, use_subkey


class SplitKeyInLoop(Fixer[SplitInLoop | SplitInBody | FoldInIndex]):
    """Unsafe by nature: the numbers drawn change (each iteration now gets its own)."""

    code = "JAX302"

    def fix(self, request: SplitInLoop | SplitInBody | FoldInIndex, site: Site, doc: Document) -> Fix | None:
        call = site.node
        if not isinstance(call, ast.Call):
            return None
        match request:
            case SplitInLoop(key, loop):
                first = loop.body[0]
                if first.lineno == loop.lineno:
                    raise CannotFix("a one-line loop")
                return self._split(doc, site, call, key, first, f"Split `{key}` on every iteration")
            case SplitInBody(key, statement, drawing):
                return self._split(
                    doc, site, drawing, key, statement, f"Split the carried `{key}` on every step"
                )
            case FoldInIndex(key, index):
                fold_in, imports = split_spelling(doc, site.scope, call, "fold_in")
                name = argument_written(call, key)
                edits = [doc.edit(doc.start(name), doc.end(name), f"{fold_in}({key}, {index})"), *imports]
                return doc.fix(Applicability.UNSAFE, f"Fold the step index into `{key}`", edits, site.scope)

    def _split(
        self, doc: Document, site: Site, call: ast.Call, key: str, before: ast.stmt, title: str
    ) -> Fix:
        subkey = doc.fresh_name("subkey", site.scope)
        edits = [
            *split_before(doc, before, key, subkey, site.scope, like=call),
            use_subkey(doc, call, key, subkey),
        ]
        return doc.fix(Applicability.UNSAFE, title, edits, site.scope)
