"""JAX303 fix: create the key once, before the loop, and split it on every iteration."""

from __future__ import annotations

import ast

from jaxlint.controlflow import own_nodes
from jaxlint.diagnostics import Applicability, Diagnostic, Fix
from jaxlint.fix import CannotFix, Document, Fixer
from jaxlint.keysplit import split_spelling


class HoistConstantSeedKey(Fixer):
    code = "JAX303"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        loop, assign = data.get("loop"), data.get("assign")
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or not isinstance(assign, ast.Assign):
            return None
        if assign not in loop.body or len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
            return None
        key = assign.targets[0].id
        later = loop.body[loop.body.index(assign) + 1 :]
        uses = [n for n in own_nodes(later) if isinstance(n, ast.Name) and n.id == key]
        earlier = loop.body[: loop.body.index(assign)]
        if any(isinstance(n, ast.Name) and n.id == key for n in own_nodes(earlier)) or any(
            not isinstance(n.ctx, ast.Load) for n in uses
        ):
            raise CannotFix("the key is used or rebound elsewhere in the loop")
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) for n in own_nodes(later)):
            raise CannotFix("the loop body defines functions")
        scope = diagnostic.scope
        subkey = doc.fresh_name("subkey", scope)
        split, imports = split_spelling(doc, scope, diagnostic.node)
        loop_start = doc.line_starts[loop.lineno - 1]
        indent = doc.text[loop_start : doc.start(loop)]
        if indent.strip():
            raise CannotFix("the loop shares its line")
        hoisted = f"{indent}{doc.segment(assign)}{doc.newline}"
        edits = [
            doc.edit(loop_start, loop_start, hoisted),
            doc.edit(doc.start(assign), doc.end(assign), f"{key}, {subkey} = {split}({key})"),
            *(doc.edit(doc.start(n), doc.end(n), subkey) for n in uses),
            *imports,
        ]
        return doc.fix(Applicability.UNSAFE, "Create the key once and split it per iteration", edits, scope)
