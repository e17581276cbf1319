"""JAX303 fix: create the key once, before the loop, and split it on every iteration."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.prng.jax303_constant_seed_key_in_loop import HoistKey
from .keysplit import split_spelling


class HoistConstantSeedKey(Fixer[HoistKey]):
    """Unsafe by nature: every iteration now draws different numbers, which is the point."""

    code = "JAX303"

    def fix(self, request: HoistKey, site: Site, doc: Document) -> Fix | None:
        loop, assign, key = request.loop, request.assign, request.key
        scope = site.scope
        subkey = doc.fresh_name("subkey", scope)
        split, imports = split_spelling(doc, scope, site.node if isinstance(site.node, ast.Call) else None)
        loop_start = doc.line_starts[loop.lineno - 1]
        indent = doc.text[loop_start : doc.start(loop)]
        if indent.strip():
            raise CannotFix("the loop shares its line")
        hoisted = f"{indent}{doc.segment(assign)}{doc.newline}"
        edits = [
            doc.edit(loop_start, loop_start, hoisted),
            doc.edit(doc.start(assign), doc.end(assign), f"{key}, {subkey} = {split}({key})"),
            *(doc.edit(doc.start(n), doc.end(n), subkey) for n in request.uses),
            *imports,
        ]
        return doc.fix(Applicability.UNSAFE, "Create the key once and split it per iteration", edits, scope)
