"""A key held in a field or item of a lax loop body's carry (``batch.rng``, ``pair[1]``,
``state["key"]``): a fix splits a new key off it on every step and writes that key back into the
record the body hands back, so the next step draws from a fresh key. Splitting it into fresh
names alone would consume the same carried key again on the next step."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.semantic.bodies import LOOPING_BODIES, carry_parameter, carry_unpacking, stores
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.transforms import TRANSFORMS, body_operand, function_arguments
from jaxlint.semantic.values import record_kind

from ..support.blocks import name_counts, own_nodes, stores_name
from .keypaths import REPEATING, passed_as

FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


@dataclass(frozen=True)
class CarriedLeaf:
    """The record ``owner`` of the carry holds the key at ``leaf``; ``kind`` says how to rebuild
    it with a new key there: ``"tuple"`` (a NamedTuple, ``_replace``), ``"dataclass"``
    (``dataclasses.replace``), ``"dict"`` (``{**owner, ...}``), ``"plain tuple"`` or ``"list"``
    (slices around the new key: the carry keeps its type)."""

    owner: str
    leaf: ast.Attribute | ast.Subscript
    kind: str

    def rebuilt(self, new_key: str, replace: str) -> str:
        """The owner with ``new_key`` in place of the leaf; ``replace`` spells
        ``dataclasses.replace``."""
        owner, leaf = self.owner, self.leaf
        if isinstance(leaf, ast.Attribute):
            if self.kind == "tuple":
                return f"{owner}._replace({leaf.attr}={new_key})"
            return f"{replace}({owner}, {leaf.attr}={new_key})"
        item = leaf.slice.value  # pyright: ignore[reportAttributeAccessIssue]
        if self.kind == "dict":
            return f"{{**{owner}, {_quoted(item)}: {new_key}}}"
        before = f"{owner}[:{item}] + " if item else ""
        middle = f"[{new_key}]" if self.kind == "list" else f"({new_key},)"
        return f"{before}{middle} + {owner}[{item + 1}:]"


def _quoted(item: str) -> str:
    """A dict key as a string literal, in double quotes where that needs no escape."""
    plain = item.isprintable() and '"' not in item and "\\" not in item
    return f'"{item}"' if plain else repr(item)


@dataclass(frozen=True)
class ThreadCarriedKey(FixRequest):
    """Before ``statement`` (a top-level statement of the body), ``new, k1, ... = split(<leaf>,
    n + 1)`` and the owner rebuilt around ``new``, which the body hands back; each of ``draws``
    takes a ``k`` of its own (``fold_in(k, index)`` for one draw in a Python loop over
    ``range``/``enumerate``)."""

    key: str
    carried: CarriedLeaf
    statement: ast.stmt
    draws: tuple[ast.Call, ...]
    index: str | None = None


def thread_carried_key(
    ctx: Context, key: str, draws: tuple[ast.Call, ...], index: str | None = None
) -> ThreadCarriedKey | None:
    """The request for ``draws`` (in source order) of the carried leaf ``key``, when the leaf
    is one (see :func:`carried_leaf`) and the first draw is in a statement of the body itself
    or nested in one."""
    info = ctx.function
    if info is None or not isinstance(info.node, ast.FunctionDef) or not draws:
        return None
    argument = passed_as(draws[0], key)
    carried = carried_leaf(ctx, argument, len(draws)) if argument is not None else None
    statement = next((s for s in info.node.body if encloses(s, draws[0])), None)
    if carried is None or statement is None:
        return None
    repeating = [n for n in own_nodes(info.node.body) if isinstance(n, REPEATING)]
    looped = [draw for draw in draws if any(encloses(loop, draw) for loop in repeating)]
    folds = all(ctx.qualname(draw.func) == "jax.random.fold_in" for draw in looped)
    if (index is None and looped and not folds) or (index is not None and len(looped) != len(draws)):
        return None  # one split serves one run of each draw, or a loop that folds its data in
    return ThreadCarriedKey(key, carried, statement, draws, index)


def hands_back_carried(info: FunctionInfo, name: str) -> bool:
    """Whether ``name`` is the carry of the ``def`` body of a lax loop (the carry parameter, or a
    name unpacked from it at the top of the body), bound nowhere else there, and every
    ``return`` hands it back in the same place."""
    carry = carry_parameter(info)
    if carry is None or not isinstance(info.node, ast.FunctionDef) or info.loop_condition:
        return False
    body = info.node.body
    position = None if name == carry else _unpacked_at(body, carry, name)
    return (name == carry or position is not None) and _hands_back(info, body, name, position)


def carried_leaf(
    ctx: Context, argument: ast.expr, draws: int, info: FunctionInfo | None = None
) -> CarriedLeaf | None:
    """``argument`` (a field or constant item of a name) when that name is the carry of the
    ``def`` body of a ``scan``/``fori_loop``/``while_loop`` (the carry parameter, or a name
    unpacked from it at the top of the body), every ``return`` hands it back in the same place,
    nothing else binds it or reads it from a nested function, and the body reads the leaf only in
    its ``draws`` draws. ``info``: the body, when the draws may be in a function nested in it
    (a ``fori_loop`` lambda); otherwise the function being checked, which draws itself."""
    nested = info is not None
    info = info or ctx.function
    if info is None or not isinstance(info.node, ast.FunctionDef) or info.loop_condition:
        return None
    if not isinstance(argument, (ast.Attribute, ast.Subscript)) or not isinstance(argument.value, ast.Name):
        return None
    owner = argument.value.id
    carry = carry_parameter(info)
    body = info.node.body
    if carry is None or owner in ("self", "cls") or (not nested and read_by_nested(body, owner)):
        return None
    position = None if owner == carry else _unpacked_at(body, carry, owner)
    if owner != carry and position is None:
        return None
    written = ast.unparse(argument)
    nodes = (n for statement in body for n in ast.walk(statement)) if nested else own_nodes(body)
    reads = sum(isinstance(n, (ast.Attribute, ast.Subscript)) and ast.unparse(n) == written for n in nodes)
    if reads != draws or not _hands_back(info, body, owner, position):
        return None
    kind = _kind(ctx, argument, owner, info)
    return CarriedLeaf(owner, argument, kind) if kind is not None else None


def _sequence_kind(ctx: Context, owner: str, info: FunctionInfo) -> str | None:
    """``"plain tuple"`` or ``"list"``: what every lax loop handed this body starts ``owner`` as,
    written as a display there (``(key, 0.0)``, or ``((k1, k2), 0.0)`` for a name unpacked from
    the carry); None when a loop starts it from a name, or the body is named anywhere else."""
    assert isinstance(info.node, ast.FunctionDef)
    carry = carry_parameter(info)
    position = None if owner == carry else _unpacked_at(info.node.body, carry or "", owner)
    inits = _initial_carries(ctx).get(info.node.name)
    if not inits or len(inits) != name_counts(ctx)[info.node.name]:
        return None  # every mention of the body's name must be a loop handed it
    kinds = set()
    for init in inits:
        if position is not None:
            init = init.elts[position] if isinstance(init, ast.Tuple) and position < len(init.elts) else None
        kinds.add(
            "list" if isinstance(init, ast.List) else "plain tuple" if isinstance(init, ast.Tuple) else None
        )
    return kinds.pop() if len(kinds) == 1 else None


def _initial_carries(ctx: Context) -> dict[str, list[ast.expr]]:
    """For each function name a lax loop is handed, the initial carries those loops start from."""
    found = ctx.memo.get("initial_carries")
    if found is not None:
        return found
    found = ctx.memo["initial_carries"] = {}
    for node in ast.walk(ctx.model.tree):
        if not isinstance(node, ast.Call):
            continue
        transform = TRANSFORMS.get(ctx.qualname(node.func) or "")
        position = LOOPING_BODIES.get(transform.name if transform else "", (None, None))[0]
        if transform is None or position is None:
            continue
        init = body_operand(node, transform, position)
        for body in function_arguments(node, transform):
            if isinstance(body, ast.Name) and init is not None:
                found.setdefault(body.id, []).append(init)
    return found


def _unpacked_at(body: list[ast.stmt], carry: str, owner: str) -> int | None:
    """Where ``owner`` sits in ``a, owner, c = carry`` (a top-level statement of the body, every
    target a name), when that is the one binding of ``owner``."""
    targets = carry_unpacking(body, carry)
    if targets is None or not all(isinstance(t, ast.Name) for t in targets) or stores(body, owner) != 1:
        return None
    return next((i for i, t in enumerate(targets) if t.id == owner), None)  # pyright: ignore[reportAttributeAccessIssue]


def _hands_back(info: FunctionInfo, body: list[ast.stmt], owner: str, position: int | None) -> bool:
    """Whether every ``return`` of the body hands ``owner`` back where the carry has it (and
    ``owner`` is bound nowhere else when it is the carry parameter)."""
    if position is None and any(stores_name(n, owner) for n in own_nodes(body)):
        return False
    returns = [n for n in own_nodes(body) if isinstance(n, ast.Return)]
    if not returns or not isinstance(body[-1], ast.Return):
        return False
    returned_position = LOOPING_BODIES[info.repeated_by or ""][1]
    for node in returns:
        carried = node.value
        if returned_position is not None:
            if not isinstance(carried, ast.Tuple) or len(carried.elts) != 2:
                return False
            carried = carried.elts[returned_position]
        if position is not None:
            if not isinstance(carried, ast.Tuple) or position >= len(carried.elts):
                return False
            carried = carried.elts[position]
        if not (isinstance(carried, ast.Name) and carried.id == owner):
            return False
    return True


def carried_names(info: FunctionInfo) -> list[str]:
    """The names a lax loop body holds its carry in: the carry parameter, and the names unpacked
    from it at the top of the body."""
    carry = carry_parameter(info)
    if carry is None or not isinstance(info.node, ast.FunctionDef):
        return []
    unpacked = carry_unpacking(info.node.body, carry) or []
    return [carry, *(target.id for target in unpacked if isinstance(target, ast.Name))]


def read_by_nested(body: list[ast.stmt], owner: str) -> bool:
    """Whether a function or class defined in the body mentions ``owner``."""
    nested = [n for n in own_nodes(body) if isinstance(n, FUNCTION_NODES)]
    return any(isinstance(n, ast.Name) and n.id == owner for inner in nested for n in ast.walk(inner))


def _kind(ctx: Context, leaf: ast.Attribute | ast.Subscript, owner: str, info: FunctionInfo) -> str | None:
    """How the owner is rebuilt: an item by its kind (a string: a dict entry); a field by the
    module's pytree classes that declare it (all of one kind, none custom or equinox, whose
    ``__init__`` may not take the fields), agreeing with the record the model knows, if any."""
    known = record_kind(ctx.value(leaf.value))
    if isinstance(leaf, ast.Subscript):
        item = leaf.slice.value if isinstance(leaf.slice, ast.Constant) else None
        if known is not None or isinstance(item, bool):
            return None
        if isinstance(item, str):
            return "dict"
        return _sequence_kind(ctx, owner, info) if isinstance(item, int) and item >= 0 else None
    declared = ctx.model.record_kind_of_field(leaf.attr)
    return declared if known in (None, declared) else None
