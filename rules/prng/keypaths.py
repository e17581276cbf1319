"""How a PRNG finding's key is written and held: the argument a call passes it as, whether it is
a plain path (a name, a field, a constant item) that reads the same key each time, and whether
the value it starts from is a local of code that runs once per call (a fix may split it there)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxlint.semantic.functions import FunctionInfo


def passed_as(call: ast.Call, key: str) -> ast.expr | None:
    """The argument of ``call`` written as ``key``."""
    for argument in [*call.args, *(k.value for k in call.keywords)]:
        if ast.unparse(argument) == key:
            return argument
    return None


def plain_path(node: ast.expr) -> bool:
    """A name, field or constant item: reading it twice reads the same key, with no effect."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def path_root(node: ast.expr) -> str | None:
    """The name a field or item path starts from: ``batch`` of ``batch.keys[0]``."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def calls_passing(nodes: Iterable[ast.AST], key: str) -> int:
    """How many of ``nodes`` are calls passed ``key`` (as written) as an argument."""
    return sum(isinstance(n, ast.Call) and passed_as(n, key) is not None for n in nodes)


def plain_path_text(key: str) -> bool:
    try:
        return plain_path(ast.parse(key, mode="eval").body)
    except SyntaxError:  # shortened for a message
        return False


def local_of_a_single_run(info: FunctionInfo | None, name: str) -> bool:
    """Whether ``name`` is a local (or parameter) of ``info``, a function that is not itself the
    body of a lax loop: a key it holds is fresh on each call, not constant across repetitions."""
    if info is None or info.repeated_by:
        return False
    scope = info.scope
    return name in scope.bound and name not in scope.globals and name not in scope.nonlocals
