"""JAX302 fix: split the key at the top of the loop body and draw from the subkey."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.jax302_prng_key_reuse_in_loop import SplitInLoop
from .keysplit import split_before, use_subkey


class SplitKeyInLoop(Fixer[SplitInLoop]):
    """Unsafe by nature: the numbers drawn change (each iteration now gets its own)."""

    code = "JAX302"

    def fix(self, request: SplitInLoop, site: Site, doc: Document) -> Fix | None:
        key, loop, call = request.key, request.loop, site.node
        if not isinstance(call, ast.Call):
            return None
        first = loop.body[0]
        if first.lineno == loop.lineno:
            raise CannotFix("a one-line loop")
        subkey = doc.fresh_name("subkey", site.scope)
        edits = [
            *split_before(doc, first, key, subkey, site.scope, like=call),
            use_subkey(doc, call, key, subkey),
        ]
        return doc.fix(Applicability.UNSAFE, f"Split `{key}` on every iteration", edits, site.scope)
