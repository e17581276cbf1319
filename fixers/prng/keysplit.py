"""Key splitting edits shared by the PRNG fixers: a ``key, subkey = split(key)`` line inserted
before a statement, and a consumption switched to the fresh subkey."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.diagnostics import Applicability, Edit, Fix, Site
from jaxlint.fixing.document import CannotFix, Document
from jaxlint.semantic.scopes import Scope

from ...rules.prng.carry import ThreadCarriedKey
from ...rules.prng.copies import SplitCopies
from ...rules.prng.keypaths import passed_as


def split_before(
    doc: Document, statement: ast.stmt, key: str, subkey: str, scope: Scope, like: ast.Call | None = None
) -> list[Edit]:
    """Insert ``key, subkey = jax.random.split(key)`` on its own line before ``statement``,
    spelling ``jax.random`` as the call ``like`` does."""
    split, imports = split_spelling(doc, scope, like)
    return [line_before(doc, statement, f"{key}, {subkey} = {split}({key})"), *imports]


def line_before(doc: Document, statement: ast.stmt, *lines: str) -> Edit:
    """``lines``, each on a line of its own, before ``statement``, at its indentation."""
    return doc.line_before(statement, *lines)


def split_spelling(
    doc: Document, scope: Scope, like: ast.Call | None, function: str = "split"
) -> tuple[str, list[Edit]]:
    """``jax.random.split`` (or another ``jax.random`` function) spelt like the module spells
    the random call ``like``."""
    func = like.func if like is not None else None
    if isinstance(func, ast.Attribute) and doc.model.qualname(func.value, scope) == "jax.random":
        return f"{doc.segment(func.value)}.{function}", []
    return doc.reference(f"jax.random.{function}", scope)


def argument_written(call: ast.Call, key: str) -> ast.expr:
    """The argument of ``call`` whose source is ``key`` (a name, a field, an item)."""
    argument = passed_as(call, key)
    if argument is None:
        raise CannotFix("the key is not passed as written")
    return argument


def use_subkey(doc: Document, call: ast.Call, key: str, subkey: str) -> Edit:
    argument = argument_written(call, key)
    return doc.edit(doc.start(argument), doc.end(argument), subkey)


def statement_holding(root: ast.AST, node: ast.AST) -> ast.stmt:
    """The innermost statement under ``root`` that contains ``node``."""
    best: ast.stmt | None = None
    for candidate in ast.walk(root):
        if (
            isinstance(candidate, ast.stmt)
            and encloses(candidate, node)
            and (best is None or encloses(best, candidate))
        ):
            best = candidate
    if best is None:
        raise CannotFix("cannot find the statement")
    return best


def thread_carried_key(doc: Document, site: Site, request: ThreadCarriedKey) -> Fix:
    """``new, subkey... = split(<leaf>, n + 1)`` and the carry's record rebuilt around ``new``
    before the statement holding the first draw; each draw takes a subkey of its own."""
    scope, carried, draws = scope_holding(site.scope, request.statement), request.carried, request.draws
    subkeys = doc.fresh_names("subkey", scope, len(draws))
    new_key = doc.fresh_name("key", scope, subkeys)
    split, imports = split_spelling(doc, scope, draws[0])
    written = doc.segment(argument_written(draws[0], request.key))  # as the user spells it
    count = "" if len(draws) == 1 else f", {len(draws) + 1}"
    replace = ""
    if carried.kind == "dataclass":
        replace, more = doc.reference("dataclasses.replace", scope)
        imports += more
    edits = [
        line_before(
            doc,
            request.statement,
            f"{new_key}, {', '.join(subkeys)} = {split}({written}{count})",
            f"{carried.owner} = {carried.rebuilt(new_key, replace)}",
        ),
        *imports,
    ]
    for draw, subkey in zip(draws, subkeys, strict=True):
        replacement = subkey
        if request.index is not None:
            fold_in, more = split_spelling(doc, scope, draw, "fold_in")
            replacement = f"{fold_in}({subkey}, {request.index})"
            edits += more
        edits.append(use_subkey(doc, draw, request.key, replacement))
    return doc.fix(Applicability.UNSAFE, f"Split the carried `{request.key}` on every step", edits, scope)


def scope_holding(scope: Scope, node: ast.AST) -> Scope:
    """The innermost function scope, from ``scope`` outwards, whose statements hold ``node``."""
    while scope.parent is not None and (
        scope.function.node is node or not encloses(scope.function.node, node)
    ):
        scope = scope.parent
    return scope.function


def split_copies_fix(doc: Document, site: Site, request: SplitCopies) -> Fix:
    """``[key] * n`` -> ``list(jax.random.split(key, n))``; ``jnp.repeat(key[None], n, axis=0)``
    -> ``jax.random.split(key, n)``: one new key per copy."""
    split, imports = split_spelling(doc, site.scope, None)
    count = str(request.count) if isinstance(request.count, int) else doc.segment(request.count)
    made = f"{split}({doc.segment(request.key)}, {count})"
    replacement = f"list({made})" if request.as_list else made
    edits = [doc.edit(doc.start(request.copies), doc.end(request.copies), replacement), *imports]
    return doc.fix(Applicability.UNSAFE, "Split the key into one per copy", edits)
