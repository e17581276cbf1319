"""Static objects whose attributes the program changes between two runs of a jitted function
(JAX103): the runs, the changes and the rebindings of each object in a scope, in order."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import instance_classes

from ..support.blocks import leaves_block, statement_path
from ..support.classes import bound_jit_holders, hashes_by_identity, module_bound_jits, static_self_class
from ..support.jitted import jitted_callee_in

# methods that build an object: what they store on `self` is there before any call
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "setup"})


def attribute_change(
    ctx: Context, function: FunctionInfo, param: str, attr: str
) -> tuple[int, str, ast.ClassDef] | None:
    """Where the program changes ``attr`` of an object between two runs of ``function`` with
    it as its static ``param``: a store on the object, or a call of a method that stores on
    ``self`` (not a constructor), after a call that passed the object and before another one, or
    in a loop that does both, the object never rebound in between. The line, how it changes
    and the object's class; None where no such sequence is in sight."""
    is_self = function.is_method and function.positional_names()[0] == param
    cls = static_self_class(ctx, function, attr) if is_self else None
    if is_self and cls is None:
        return None
    setters: dict[str, int] = {}
    if cls is not None:
        for store in ctx.model.self_stores(cls).get(attr, []):
            method = store.method
            if (
                method.name not in CONSTRUCTORS
                and method is not function.node
                and not _builds(ctx, cls, method.name)
                and _always_stores(method, store.target)
            ):
                setters.setdefault(method.name, store.target.lineno)
    stored_in = {
        id(scope) for target, scope, _ in ctx.model.index.mutations if _stores_attribute(target, attr)
    }
    for scope in [ctx.model.index.module, *ctx.model.index.functions]:
        if id(scope) in stored_in or setters.keys() & scope.called:
            found = _stale_sequence(ctx, scope, function, param, attr, cls, setters)
            if found is not None:
                return found
    return None


def _stores_attribute(target: ast.AST, attr: str) -> bool:
    return isinstance(target, ast.Attribute) and target.attr == attr and isinstance(target.value, ast.Name)


def _stale_sequence(
    ctx: Context,
    scope: Scope,
    function: FunctionInfo,
    param: str,
    attr: str,
    cls: ast.ClassDef | None,
    setters: dict[str, int],
) -> tuple[int, str, ast.ClassDef] | None:
    """In ``scope``: an object run by ``function``, changed, then run again (see
    :func:`attribute_change`)."""
    body = getattr(scope.node, "body", [])
    nodes = list(own_nodes(body if isinstance(body, list) else [body]))
    uses: dict[str, list[int]] = {}
    binds: dict[str, list[int]] = {}
    changes: list[tuple[str, ast.AST, str, ast.ClassDef]] = []  # the object, where, how, its class
    for node in nodes:
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            binds.setdefault(node.id, []).append(line)
        elif isinstance(node, ast.Call):
            for base in _runs_on(ctx, node, scope, function, param, cls is not None):
                uses.setdefault(base, []).append(line)
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in setters and isinstance(func.value, ast.Name):
                owner = _owner_class(ctx, func.value, scope, cls)
                if owner is not None:
                    where = f"`{func.value.id}.{func.attr}(...)`, which stores `self.{attr}` at line {setters[func.attr]}"
                    changes.append((func.value.id, node, where, owner))
        elif _stores_attribute(node, attr) and isinstance(node.ctx, ast.Store):  # pyright: ignore[reportAttributeAccessIssue]
            value = node.value  # pyright: ignore[reportAttributeAccessIssue]
            owner = _owner_class(ctx, value, scope, cls)
            if owner is not None:
                changes.append((value.id, node, f"`{value.id}.{attr}` is assigned", owner))
    loops = [n for n in nodes if isinstance(n, (ast.For, ast.While, ast.AsyncFor))]
    statements = body if isinstance(body, list) else []
    for base, change, where, owner in changes:
        line = getattr(change, "lineno", 0)
        runs = uses.get(base, [])
        rebound = binds.get(base, [])
        # a `return` or `break` after the change ends what can see it (the line it ends on)
        horizon = _exit_after(statements, change)
        later = [r for r in runs if line < r and (horizon is None or r <= horizon)]
        if any(
            before < line and not any(before < b < after for b in rebound)
            for before in runs
            for after in later
        ):
            return line, where, owner
        for loop in loops if horizon is None else []:
            start, end = loop.lineno, getattr(loop, "end_lineno", loop.lineno) or loop.lineno
            if (
                start <= line <= end
                and any(start <= r <= end for r in runs)
                and not any(start <= b <= end for b in rebound)
            ):
                return line, where, owner
    return None


def _always_stores(method: ast.FunctionDef | ast.AsyncFunctionDef, target: ast.Attribute) -> bool:
    """Whether every call of ``method`` stores ``target`` on the object it was called on: the
    store is a statement of the method's body itself (not under an ``if``, a loop or a ``try``),
    and the method never rebinds ``self`` (``self = copy.copy(self)``)."""
    this = method.args.args[0].arg if method.args.args else None
    rebinds = any(
        isinstance(n, ast.Name) and n.id == this and not isinstance(n.ctx, ast.Load)
        for n in own_nodes(method.body)
    )
    return not rebinds and any(
        isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and encloses(statement, target)
        for statement in method.body
    )


def _exit_after(statements: list[ast.stmt], node: ast.AST) -> int | None:
    """The last line of the first statement after the one holding ``node``, in its block, that
    leaves the block (``return``, ``break``, ``raise``); None where control falls through."""
    path = statement_path(statements, node)
    if not path:
        return None
    block, index = path[-1]
    for following in block[index + 1 :]:
        if leaves_block([following], in_loop=False):
            return getattr(following, "end_lineno", None) or following.lineno
    return None


def _owner_class(ctx: Context, base: ast.expr, scope: Scope, cls: ast.ClassDef | None) -> ast.ClassDef | None:
    """The class of the object ``base`` names: ``cls`` for a static ``self``; else its one class,
    when that class hashes by identity."""
    if not isinstance(base, ast.Name):
        return None
    classes = instance_classes(ctx.model.value(base, scope))
    if len(classes) != 1:
        return None
    if cls is not None:
        return cls if classes[0] is cls else None
    return classes[0] if hashes_by_identity(ctx, classes[0]) else None


def _runs_on(
    ctx: Context, node: ast.Call, scope: Scope, function: FunctionInfo, param: str, is_self: bool
) -> list[str]:
    """The names of the objects ``node`` runs ``function`` with as ``param``: ``obj.method(...)``
    for a static ``self``, ``f(x, cfg)`` for another static parameter."""
    func = node.func
    if is_self:
        module_held = module_bound_jits(ctx, function)
        if module_held:  # `probs(x)`, with `probs = jax.jit(sampler.probs)`; `sampler.probs(x)` runs eagerly
            return [module_held[func.id][0]] if isinstance(func, ast.Name) and func.id in module_held else []
        held = bound_jit_holders(ctx, function)
        # held under another name, `obj.method(...)` runs the method eagerly, not the jitted one
        names = held[1] if held is not None else {getattr(function.node, "name", "")}
        if isinstance(func, ast.Attribute) and func.attr in names and isinstance(func.value, ast.Name):
            return [func.value.id]
        if (
            "__call__" in names
            and isinstance(func, ast.Name)
            and _calls_object_of(ctx, func, scope, function)
        ):
            return [func.id]  # `scaler(x)` runs `Scaler.__call__`
        return []
    jit = jitted_callee_in(ctx, node, scope)
    if jit is None or jit.info is not function:
        return []
    return [a.id for name, a in jit.static_arguments(node) if name == param and isinstance(a, ast.Name)]


def _calls_object_of(ctx: Context, func: ast.Name, scope: Scope, method: FunctionInfo) -> bool:
    """Whether ``func`` names an object of the class that defines ``method``."""
    owner = ctx.model.index.parents.get(method.node)
    return owner is not None and owner.node in instance_classes(ctx.model.value(func, scope))


def _builds(ctx: Context, cls: ast.ClassDef, method: str) -> bool:
    """Whether the method named ``method`` only helps construct objects: every use of the name
    in the module is in a constructor of ``cls`` (``self._build()`` in ``__init__``)."""
    loads: dict[str, list[ast.Attribute]] | None = ctx.memo.get("attribute-loads")
    if loads is None:  # one walk of the module for every question
        loads = ctx.memo["attribute-loads"] = {}
        for node in ast.walk(ctx.model.tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                loads.setdefault(node.attr, []).append(node)
    uses = loads.get(method, [])
    constructors = [m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name in CONSTRUCTORS]
    return bool(uses) and all(any(encloses(c, use) for c in constructors) for use in uses)


def attribute_reads(function: FunctionInfo, param: str) -> list[ast.Attribute]:
    """The reads of ``param.<attr>`` in the function's own body."""
    body = getattr(function.node, "body", [])
    return [
        node
        for node in own_nodes(body if isinstance(body, list) else [body])
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id == param
    ]
