"""How a PRNG finding's key is written and held: the argument a call passes it as, whether it is
a plain path (a name, a field, a constant item) that reads the same key each time, and whether
the value it starts from is a local of code that runs once per call (a fix may split it there)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.semantic import api
from jaxlint.semantic.bodies import LOOPING_BODIES
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope

from ..support.blocks import own_nodes
from ..support.paths import plain_path

REPEATING = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def passed_as(call: ast.Call, key: str) -> ast.expr | None:
    """The argument of ``call`` written as ``key``."""
    for argument in [*call.args, *(k.value for k in call.keywords)]:
        if ast.unparse(argument) == key:
            return argument
    return None


def calls_passing(nodes: Iterable[ast.AST], key: str) -> int:
    """How many of ``nodes`` are calls passed ``key`` (as written) as an argument."""
    return sum(isinstance(n, ast.Call) and passed_as(n, key) is not None for n in nodes)


def plain_path_text(key: str) -> bool:
    try:
        return plain_path(ast.parse(key, mode="eval").body)
    except SyntaxError:  # shortened for a message
        return False


def local_of_a_single_run(info: FunctionInfo | None, name: str) -> bool:
    """Whether ``name`` holds a new value on each run of ``info``: a local (or parameter) of a
    function that is not the body of a lax loop (a batch transform's function counts), or, in
    such a body, a parameter that takes a new slice on each step (`lax.map`'s element, `scan`'s
    ``x``), not the carry. A name a nested function closes over counts when that function runs
    once per run of the one binding it."""
    if info is None:
        return False
    scope = info.scope
    if name in scope.globals or name in scope.nonlocals:
        return False
    if name not in scope.bound:
        return runs_once_per_parent_run(info) and local_of_a_single_run(info.parent, name)
    if not info.repeated_by or info.repeated_by not in LOOPING_BODIES:
        return True  # a batch transform (vmap, pmap) traces the function once, for all elements
    carry_position = LOOPING_BODIES.get(info.repeated_by, (0, None))[0]
    positions = info.body_params()
    return name in positions and positions.index(name) != carry_position


def runs_once_per_parent_run(info: FunctionInfo) -> bool:
    """Whether a nested ``def`` runs once each time the function around it runs: it is called
    exactly once there, outside any loop or comprehension, and named nowhere else (not handed to
    a transform, a lax loop or a callback, not decorated, not returned)."""
    node = info.node
    if (
        not isinstance(node, ast.FunctionDef)
        or node.decorator_list
        or info.repeated_by
        or info.transformed_by
    ):
        return False
    place = _only_place(info)
    return place is not None and isinstance(_parent_call(info, place), ast.Call)


def handed_over_once(info: FunctionInfo) -> bool:
    """Whether a lax loop body (a ``def`` or lambda nested in another function) is handed over
    once per run of that function: named (or written, a lambda) once there, outside any loop or
    comprehension. A key it closes over and folds the step index into then draws new numbers."""
    return _only_place(info) is not None


def _only_place(info: FunctionInfo) -> ast.AST | None:
    """Where the function around a nested ``def`` names it (a lambda: the lambda itself), when
    that is the one place, outside any loop or comprehension there."""
    parent = info.parent
    outer = parent.node if parent is not None else None
    if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    nodes = list(own_nodes(outer.body))
    node = info.node
    if isinstance(node, ast.Lambda):
        places: list[ast.AST] = [node]
    else:
        places = [n for n in nodes if isinstance(n, ast.Name) and n.id == node.name]  # pyright: ignore[reportAttributeAccessIssue]
    if len(places) != 1 or any(isinstance(n, REPEATING) and encloses(n, places[0]) for n in nodes):
        return None
    return places[0]


def _parent_call(info: FunctionInfo, name: ast.AST) -> ast.Call | None:
    """The call of the parent's body whose callee is ``name``."""
    outer = info.parent.node if info.parent is not None else None
    body = outer.body if isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
    return next((n for n in own_nodes(body) if isinstance(n, ast.Call) and n.func is name), None)


def drawn_only_at(info: FunctionInfo, root: str, key: str, calls: tuple[ast.Call, ...]) -> bool:
    """Whether, in the function that binds ``root`` (this one or one around it), nothing but
    ``calls`` is passed ``key``: folding one loop's index into it would otherwise repeat the
    draws of another loop over the same indices."""
    owner: FunctionInfo | None = info
    while owner is not None and root not in owner.scope.bound:
        owner = owner.parent
    if owner is None:
        return False
    return not any(
        isinstance(n, ast.Call) and all(n is not c for c in calls) and passed_as(n, key) is not None
        for n in ast.walk(owner.node)
    )


def default_key(key: str) -> tuple[str, str] | None:
    """The function and parameter of a key a call consumes as the parameter's default, as the
    interpreter names it (``noise(..., key=...)``), else None."""
    found = re.fullmatch(r"(\w+)\(\.\.\., (\w+)=\.\.\.\)", key)
    return None if found is None else (found[1], found[2])


MAKER_DEPTH = 4  # names followed to their single binding


def key_made_by(
    ctx: Context, expr: ast.expr, scope: Scope, makers: frozenset[str] = api.KEY_MAKERS, depth: int = 0
) -> ast.Call | None:
    """The call of one of ``makers`` (``jax.random.key``, ``PRNGKey``...) that ``expr`` is known
    to hold a key of: split, folded or indexed from it, through names bound once; else None."""
    if depth > MAKER_DEPTH:
        return None
    if isinstance(expr, ast.Subscript):
        return key_made_by(ctx, expr.value, scope, makers, depth + 1)
    if isinstance(expr, ast.Name):
        found = scope.bound_value(expr.id)
        return None if found is None else key_made_by(ctx, found[0], found[1], makers, depth + 1)
    if not isinstance(expr, ast.Call):
        return None
    qualname = ctx.model.qualname(expr.func, scope)
    if qualname in makers:
        return expr
    if qualname in api.KEY_DERIVERS and expr.args:
        return key_made_by(ctx, expr.args[0], scope, makers, depth + 1)
    return None
