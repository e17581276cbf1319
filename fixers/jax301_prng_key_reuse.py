"""JAX301 fix: split the key before its first use, which takes the subkey; the reuse then
consumes the fresh key."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import CannotFix, Document, Fixer
from jaxlint.keysplit import split_before, statement_holding, use_subkey


class SplitReusedKey(Fixer):
    code = "JAX301"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        key = (diagnostic.fix_data or {}).get("key", "")
        event = doc.model.key_events(diagnostic.scope).get(diagnostic.node)
        if not key.isidentifier() or event is None or not isinstance(event.first, ast.Call):
            return None
        first = event.first
        function = diagnostic.scope.function.node
        statement = statement_holding(function, first)
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            raise CannotFix("the first use is in a definition")
        subkey = doc.fresh_name("subkey", diagnostic.scope)
        edits = [
            *split_before(doc, statement, key, subkey, diagnostic.scope, like=first),
            use_subkey(doc, first, key, subkey),
        ]
        return doc.fix(Applicability.UNSAFE, f"Split `{key}` before its first use", edits, diagnostic.scope)
