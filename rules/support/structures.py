"""What an expression shows of the pytree it makes, from its syntax: ``None``, a tuple, list or
dict display (a dict by its string keys), a copy of a loop's carry dict with keys set or
deleted, or a leaf (a number or an array) with its dtype kind where known. JAX405 compares a
lax body's carry and branches with it; JAX411 the trees of a ``tree.map``."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import is_jax_array

from .dtypes import DtypeKind, dtype_kind

DISPLAYS = (ast.Tuple, ast.List)
IMPLICIT_NONE = ast.Constant(None)  # what a def without `return` hands back


@dataclass(frozen=True)
class Output:
    """One value a function hands back, as far as its expression shows: ``None``, a tuple or
    list display, or a leaf (a number or an array) with its dtype kind where known."""

    node: ast.expr
    scope: Scope
    shape: str  # "none", "tuple", "list", "dict", "carry_dict", "leaf" or "unknown"
    items: tuple[Output, ...] = ()
    kind: DtypeKind | None = None
    implicit: bool = False  # the `None` a def without `return` hands back
    keys: tuple[str, ...] = ()  # a dict's keys (items in their order); a carry copy's added keys
    removed: tuple[str, ...] = ()  # the keys a carry copy deletes
    sites: tuple[ast.stmt, ...] = ()  # the statements that set a carry copy's keys, then delete

    def describe(self) -> str:
        if self.shape in ("tuple", "list"):
            return f"a {self.shape} of {len(self.items)}"
        if self.shape == "dict":
            return f"a dict of keys {', '.join(repr(k) for k in self.keys)}" if self.keys else "an empty dict"
        if self.shape == "carry_dict":
            changes = [f"sets {', '.join(repr(k) for k in self.keys)}"] if self.keys else []
            changes += [f"deletes {', '.join(repr(k) for k in self.removed)}"] if self.removed else []
            return f"a copy of the carry dict that {' and '.join(changes)}"
        if self.shape == "none":
            return "`None`"
        if isinstance(self.node, ast.Constant) and self.kind is not None:
            return {"bool": "a Python bool", "int": "a Python int", "float": "a Python float"}[self.kind.kind]
        return self.kind.describe() if self.kind is not None else "an array"


def output_of(
    ctx: Context,
    expr: ast.expr,
    scope: Scope,
    depth: int = 0,
    function: FunctionInfo | None = None,
    carry: str | None = None,
) -> Output:
    """What ``expr`` shows of the value it makes; a name bound once is read through, and so,
    in what ``function`` returns, is a name's last assignment before its ``return``, and a
    dict it builds from ``carry`` (its carry parameter) there."""
    if isinstance(expr, ast.Name) and depth < 3:
        owner = scope.lookup(expr.id)
        value = None if owner is None else owner.single_value(expr.id)
        built = None if function is None or carry is None else _dict_built(function, expr, carry)
        if built is not None:
            return built
        if isinstance(value, (*DISPLAYS, ast.Dict, ast.Constant)):
            inner = output_of(ctx, value, owner or scope, depth + 1)
            return dataclasses.replace(inner, node=expr, scope=scope)
        if function is not None and owner is function.scope:
            assigned = value if value is not None else _assigned_before_return(function, expr)
            if assigned is not None:
                return output_of(ctx, assigned, scope, depth + 1)  # reported where it is computed
    if isinstance(expr, ast.Constant) and expr.value is None:
        return Output(expr, scope, "none", implicit=expr is IMPLICIT_NONE)
    if isinstance(expr, DISPLAYS):
        if any(isinstance(e, ast.Starred) for e in expr.elts):
            return Output(expr, scope, "unknown")
        items = tuple(output_of(ctx, e, scope, depth, function, carry) for e in expr.elts)
        return Output(expr, scope, "tuple" if isinstance(expr, ast.Tuple) else "list", items)
    if isinstance(expr, ast.Dict):
        keys = _constant_keys(expr)
        if keys is None:
            return Output(expr, scope, "unknown")
        items = tuple(output_of(ctx, v, scope, depth, function, carry) for v in expr.values)
        return Output(expr, scope, "dict", items, keys=keys)
    kind = dtype_kind(ctx.model, expr, scope)
    if kind is not None or _is_leaf(ctx, expr, scope):
        return Output(expr, scope, "leaf", kind=kind)
    return Output(expr, scope, "unknown")


def _assigned_before_return(function: FunctionInfo, name: ast.Name) -> ast.expr | None:
    """What ``name``, read in the ``return`` that ends ``function``'s body, was last assigned
    (``n = n + 0.5``) in the straight-line statements before it, where nothing else between
    binds it (a loop, a branch, an unpacking: unknown)."""
    body = function.node.body
    if not isinstance(body, list) or not body or not isinstance(body[-1], ast.Return):
        return None
    if not encloses(body[-1], name):
        return None
    for statement in reversed(body[:-1]):
        if not any(
            isinstance(n, ast.Name) and n.id == name.id and not isinstance(n.ctx, ast.Load)
            for n in ast.walk(statement)
        ):
            continue
        simple = isinstance(statement, ast.Assign) and len(statement.targets) == 1
        if simple and isinstance(statement.targets[0], ast.Name):  # pyright: ignore[reportAttributeAccessIssue]
            return statement.value  # pyright: ignore[reportAttributeAccessIssue]
        return None
    return None


def _is_leaf(ctx: Context, expr: ast.expr, scope: Scope) -> bool:
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float))
    return is_jax_array(ctx.model.value(expr, scope))


def structure_differs(a: Output, b: Output) -> bool:
    if a.shape == "dict" and b.shape == "carry_dict":  # the carry started as `a`, copied and changed
        return bool(set(b.keys) - set(a.keys) or set(b.removed) & set(a.keys))
    known = ("none", "tuple", "list", "dict", "leaf")
    if a.shape not in known or b.shape not in known:
        return False
    if a.shape != b.shape:
        return True
    if a.shape == "dict":
        return set(a.keys) != set(b.keys)
    return a.shape in ("tuple", "list") and len(a.items) != len(b.items)


def pairs(a: Output, b: Output) -> Iterator[tuple[Output, Output]]:
    """``a`` and ``b`` and, where both are displays of one length (dicts of one key set), their
    items, depth first."""
    yield a, b
    if a.shape == b.shape and a.shape in ("tuple", "list") and len(a.items) == len(b.items):
        for x, y in zip(a.items, b.items):
            yield from pairs(x, y)
    if a.shape == b.shape == "dict" and set(a.keys) == set(b.keys):
        by_key = dict(zip(b.keys, b.items))
        for key, x in zip(a.keys, a.items):
            yield from pairs(x, by_key[key])


def _constant_keys(display: ast.Dict) -> tuple[str, ...] | None:
    """The keys of a dict display, when each is a string literal (no ``**`` spread)."""
    keys = [
        k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None for k in display.keys
    ]
    return None if any(k is None for k in keys) else tuple(keys)  # pyright: ignore[reportReturnType]


COPIES = frozenset({"dict", "copy"})  # `dict(carry)`, `carry.copy()`, `copy.copy(carry)`


def _copies_carry(value: ast.expr, carry: str) -> bool:
    """``dict(carry)``, ``{**carry}``, ``carry.copy()`` or ``copy.copy(carry)``."""
    if isinstance(value, ast.Dict):
        return value.keys == [None] and isinstance(value.values[0], ast.Name) and value.values[0].id == carry
    if not isinstance(value, ast.Call) or value.keywords:
        return False
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr == "copy" and not value.args:
        return isinstance(func.value, ast.Name) and func.value.id == carry
    leaf = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    arguments = value.args
    return (
        leaf in COPIES
        and len(arguments) == 1
        and isinstance(arguments[0], ast.Name)
        and arguments[0].id == carry
    )


def _dict_built(function: FunctionInfo, name: ast.Name, carry: str) -> Output | None:
    """The dict ``name`` holds at the ``return`` that ends ``function``'s body, when the
    straight-line statements before it build it: a copy of the carry (or a display) whose
    string keys are then set (``d["max"] = ...``) or deleted. Anything else that touches
    the name makes it unknown."""
    body = function.node.body
    if not isinstance(body, list) or not body or not isinstance(body[-1], ast.Return):
        return None
    if not encloses(body[-1], name):
        return None
    added: dict[str, ast.stmt] | None = None  # key -> the statement that sets it
    removed: dict[str, ast.stmt] = {}
    for statement in body[:-1]:
        if not any(isinstance(n, ast.Name) and n.id == name.id for n in ast.walk(statement)):
            continue
        key = _keyed_store(statement, name.id)
        if isinstance(statement, ast.Assign) and _assigns_name(statement, name.id):
            added, removed = ({}, {}) if _copies_carry(statement.value, carry) else (None, {})
        elif added is not None and key is not None:
            storing = isinstance(statement, ast.Assign)  # else `del d["k"]`
            (added if storing else removed)[key] = statement
            (removed if storing else added).pop(key, None)
        else:
            added = None
    if added is None or not (added or removed):
        return None
    sites = (*added.values(), *removed.values())
    return Output(name, function.scope, "carry_dict", keys=tuple(added), removed=tuple(removed), sites=sites)


def _assigns_name(statement: ast.Assign, name: str) -> bool:
    return (
        len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == name
    )


def _keyed_store(statement: ast.stmt, name: str) -> str | None:
    """The string key of ``name["k"] = value`` (with ``name`` not read in ``value``) or
    ``del name["k"]``."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(statement.value)):
            target = None  # `d["k"] = f(d)`: what `f` does with `d` is unknown
    elif isinstance(statement, ast.Delete) and len(statement.targets) == 1:
        target = statement.targets[0]
    else:
        return None
    if not (
        isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name
    ):
        return None
    key = target.slice
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
