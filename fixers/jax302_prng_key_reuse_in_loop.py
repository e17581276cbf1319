"""JAX302 fix: split the key at the top of the loop body and draw from the subkey."""

from __future__ import annotations

import ast

from jaxlint.controlflow import stored_names
from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import CannotFix, Document, Fixer
from jaxlint.keysplit import split_before, use_subkey


class SplitKeyInLoop(Fixer):
    code = "JAX302"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        key, loop = data.get("key", ""), data.get("loop")
        if not key.isidentifier() or not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            return None
        if key in stored_names(loop.body):
            raise CannotFix("the key is rebound inside the loop")
        first = loop.body[0]
        if first.lineno == loop.lineno:
            raise CannotFix("a one-line loop")
        subkey = doc.fresh_name("subkey", diagnostic.scope)
        call = diagnostic.node
        edits = [
            *split_before(doc, first, key, subkey, diagnostic.scope, like=call),
            use_subkey(doc, call, key, subkey),
        ]
        return doc.fix(Applicability.UNSAFE, f"Split `{key}` on every iteration", edits, diagnostic.scope)
