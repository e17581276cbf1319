"""Key splitting edits shared by the PRNG fixers: a ``key, subkey = split(key)`` line inserted
before a statement, and a consumption switched to the fresh subkey."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.diagnostics import Edit
from jaxlint.fixing.document import CannotFix, Document
from jaxlint.semantic.scopes import Scope


def split_before(
    doc: Document, statement: ast.stmt, key: str, subkey: str, scope: Scope, like: ast.Call | None = None
) -> list[Edit]:
    """Insert ``key, subkey = jax.random.split(key)`` on its own line before ``statement``,
    spelling ``jax.random`` as the call ``like`` does."""
    split, imports = split_spelling(doc, scope, like)
    line_start = doc.line_starts[statement.lineno - 1]
    indent = doc.text[line_start : doc.start(statement)]
    if indent.strip():
        raise CannotFix("the statement shares its line with another statement")
    text = f"{indent}{key}, {subkey} = {split}({key}){doc.newline}"
    return [doc.edit(line_start, line_start, text), *imports]


def split_spelling(
    doc: Document, scope: Scope, like: ast.Call | None, function: str = "split"
) -> tuple[str, list[Edit]]:
    """``jax.random.split`` (or another ``jax.random`` function) spelt like the module spells
    the random call ``like``."""
    func = like.func if like is not None else None
    if isinstance(func, ast.Attribute) and doc.model.qualname(func.value, scope) == "jax.random":
        return f"{doc.segment(func.value)}.{function}", []
    return doc.reference(f"jax.random.{function}", scope)


def key_argument(call: ast.Call, key: str) -> ast.Name:
    """The ``key`` name a ``jax.random`` call (or a helper) consumes."""
    for argument in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(argument, ast.Name) and argument.id == key:
            return argument
    raise CannotFix("the key is not passed by name")


def argument_written(call: ast.Call, key: str) -> ast.expr:
    """The argument of ``call`` whose source is ``key`` (a name, a field, an item)."""
    for argument in [*call.args, *(k.value for k in call.keywords)]:
        if ast.unparse(argument) == key:
            return argument
    raise CannotFix("the key is not passed as written")


def use_subkey(doc: Document, call: ast.Call, key: str, subkey: str) -> Edit:
    name = key_argument(call, key)
    return doc.edit(doc.start(name), doc.end(name), subkey)


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
