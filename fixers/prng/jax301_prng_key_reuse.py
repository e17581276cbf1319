"""JAX301 fix: split the key before its first use, which takes the subkey; the reuse then
consumes the fresh key."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.jax301_prng_key_reuse import SplitBeforeFirstUse
from .keysplit import split_before, statement_holding, use_subkey


class SplitReusedKey(Fixer[SplitBeforeFirstUse]):
    """Unsafe by nature: both draws change (they now use distinct keys, which is the point)."""

    code = "JAX301"

    def fix(self, request: SplitBeforeFirstUse, site: Site, doc: Document) -> Fix | None:
        key, first = request.key, request.first
        statement = statement_holding(site.scope.function.node, first)
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            raise CannotFix("the first use is in a definition")
        subkey = doc.fresh_name("subkey", site.scope)
        edits = [
            *split_before(doc, statement, key, subkey, site.scope, like=first),
            use_subkey(doc, first, key, subkey),
        ]
        return doc.fix(Applicability.UNSAFE, f"Split `{key}` before its first use", edits, site.scope)
