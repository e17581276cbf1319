"""Calls of jitted functions: which function a call reaches through ``jax.jit``, which of its
parameters are static there (JAX604, JAX606, JAX607), and how long a jitted function made on the
spot lives (JAX601).

Only what the source shows for certain counts: a function decorated with ``@jax.jit`` /
``@partial(jax.jit, static_argnames=...)`` called by its name (or as ``self.method``), a name bound
once to ``jax.jit(f, ...)``, and ``jax.jit(f, ...)(...)`` called on the spot. A ``jax.jit(f)``
elsewhere does not make a plain call of ``f`` jitted, and a ``static_argnums`` that is not a
literal makes the call unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.semantic.api import MUTATING_METHODS
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import FUNCTION_NODES, Scope
from jaxlint.semantic.transforms import PARTIALS
from jaxlint.semantic.values import Value, is_numpy_array, is_plain_static

STATIC_KEYWORDS = ("static_argnums", "static_argnames")
JIT_LEAVES = frozenset({"jit", "pmap"})
FILTER_JITS = frozenset({"equinox.filter_jit"})  # the callee's last name, a cheap gate before resolving
CONTAINERS = frozenset({"builtins.list", "builtins.tuple", "builtins.dict", "builtins.set"})
LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


@dataclass(frozen=True)
class JitCall:
    """A call that goes through ``jax.jit``: the function it runs and how its arguments bind."""

    info: FunctionInfo
    site: ast.expr  # the decorator or the `jax.jit(...)` call
    offset: int  # leading parameters bound before the call's arguments (`self`)
    static: frozenset[str]  # parameters that are static at this jit
    # `eqx.filter_jit`: every argument that is not an array is static (hashed, compiled for)
    filtered: bool = False

    def parameter(self, call: ast.Call, argument: ast.expr) -> str | None:
        """The parameter ``argument`` (one of ``call``'s arguments) binds, when certain."""
        for keyword in call.keywords:
            if keyword.value is argument:
                return keyword.arg
        positional = self.info.positional_names()
        for index, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                return None
            if arg is argument:
                position = index + self.offset
                return positional[position] if position < len(positional) else None
        return None

    def static_arguments(
        self, call: ast.Call, value_of: Callable[[ast.expr], Value] | None = None
    ) -> list[tuple[str, ast.expr]]:
        """The (parameter, argument) pairs of ``call`` that land on static parameters; through
        ``eqx.filter_jit``, with ``value_of`` given, also the arguments that are Python values
        (``sgd_step(w, g, 0.1)``: the float is static there)."""
        found = []
        for argument in [*call.args, *(k.value for k in call.keywords if k.arg)]:
            name = self.parameter(call, argument)
            if name is None:
                continue
            if name in self.static or (
                self.filtered and value_of is not None and _python_value(value_of(argument))
            ):
                found.append((name, argument))
        return found


def _python_value(value: Value) -> bool:
    """A concrete Python value (not a NumPy array, which ``eqx.filter_jit`` traces)."""
    return is_plain_static(value) and not is_numpy_array(value)


def jitted_callee(ctx: Context, call: ast.Call) -> JitCall | None:
    """The jitted function ``call`` runs, or None when the call is not certainly jitted."""
    return jitted_callee_in(ctx, call, ctx.scope)


def jitted_callee_in(ctx: Context, call: ast.Call, scope: Scope) -> JitCall | None:
    """:func:`jitted_callee` for a call in ``scope``."""
    model = ctx.model
    func = call.func
    if isinstance(func, ast.Call):
        chain = model.resolve_chain(func, scope)
        target = None if chain is None else chain.target
        if target is not None and func in target.jit_sites:
            return _jit_call(target, func, 0)
        return None
    found = model.resolve_function(func, scope)
    if found is not None:
        info, offset = found
        node = info.node
        decorators = [] if isinstance(node, ast.Lambda) else node.decorator_list
        site = next((d for d in decorators if d in info.jit_sites), None)
        return None if site is None else _jit_call(info, site, offset)
    if isinstance(func, ast.Name):
        rebound = _rebound_as_jitted(scope, func.id)
        owner = scope.lookup(func.id)
        if rebound is not None and owner is not None and rebound.lineno < call.lineno:
            target = model.infos.get(owner.defs[func.id][0])
            if target is not None and rebound in target.jit_sites:
                return _jit_call(target, rebound, 0)
        value = _single_assignment(scope, func.id)
        if isinstance(value, ast.Call) and owner is not None:
            chain = model.resolve_chain(value, owner)
            target = None if chain is None or chain.offset else chain.target
            if target is not None and value in target.jit_sites:
                return _jit_call(target, value, 0)
    return None


def filter_jitted_callee(ctx: Context, call: ast.Call) -> JitCall | None:
    """The function ``call`` runs through ``eqx.filter_jit``: decorated with it (bare), or a name
    bound once to ``eqx.filter_jit(f)``. Its arguments that are not arrays are static there."""
    func = call.func
    found = ctx.model.resolve_function(func, ctx.scope)
    node = found[0].node if found is not None else None
    if found is not None and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        info, offset = found
        outer = info.scope.parent or ctx.scope
        site = next((d for d in node.decorator_list if _filter_jit(ctx, d, outer)), None)
        if site is not None:
            return JitCall(info, site, offset, frozenset(), filtered=True)
    if not isinstance(func, ast.Name):
        return None
    value = _single_assignment(ctx.scope, func.id)
    owner = ctx.scope.lookup(func.id)
    if not isinstance(value, ast.Call) or owner is None or not _filter_jit(ctx, value.func, owner):
        return None
    target = ctx.model.resolve_function(value.args[0], owner) if len(value.args) == 1 else None
    if target is None or target[1]:
        return None
    return JitCall(target[0], value, 0, frozenset(), filtered=True)


def _filter_jit(ctx: Context, expr: ast.expr, scope: Scope) -> bool:
    transform = ctx.model.transform_of(expr, scope)
    return transform is not None and transform.name in FILTER_JITS


def opaque_static_arguments(ctx: Context, call: ast.Call) -> list[tuple[str, ast.expr]]:
    """The arguments of ``call`` that are static when it runs ``jax.jit`` (or ``pmap``) of a
    function this module does not define (``jax.jit(net.apply, static_argnames=("train",))``),
    each with where it lands. Without the signature, only what JAX applies to the call itself
    counts: a keyword named in ``static_argnames``, a position in ``static_argnums``."""
    site, scope = _jit_site_of(ctx, call)
    if site is None or not site.args:
        return []
    transform = ctx.model.transform_of(site.func, scope)
    if transform is None or transform.kind not in ("jit", "pmap"):
        return []
    chain = ctx.model.resolve_chain(site.args[0], scope)
    if chain is not None and chain.target is not None and transform.kind != "pmap":
        return []  # a function of this module: its signature says more (`jitted_callee`, jit only)
    names, positions = _literal_statics(site, transform.static_argnames, transform.static_argnums)
    how = "pmapped" if transform.kind == "pmap" else "jitted"
    jitted = f"`{ast.unparse(site.args[0])}`, {how} at line {site.lineno}"
    found = [(f"static argument `{k.arg}` of {jitted}", k.value) for k in call.keywords if k.arg in names]
    for index, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred):
            break
        if index in positions:
            found.append((f"static argument {index} of {jitted}", argument))
    return found


def _jit_site_of(ctx: Context, call: ast.Call) -> tuple[ast.Call | None, Scope]:
    """The ``jax.jit(...)`` call ``call`` runs: on the spot, or bound once to the callee's name."""
    if isinstance(call.func, ast.Call):
        return (call.func, ctx.scope) if callee_leaf(call.func) in JIT_LEAVES else (None, ctx.scope)
    if isinstance(call.func, ast.Name):
        value = _single_assignment(ctx.scope, call.func.id)
        owner = ctx.scope.lookup(call.func.id) if isinstance(value, ast.Call) else None
        if owner is not None and isinstance(value, ast.Call) and callee_leaf(value) in JIT_LEAVES:
            return value, owner
    return None, ctx.scope


def _literal_statics(
    site: ast.Call, argnames: str | None, argnums: str | None
) -> tuple[frozenset[str], frozenset[int]]:
    """The names and (non-negative) positions a jit site declares static, where literal."""
    names: set[str] = set()
    positions: set[int] = set()
    for keyword in site.keywords:
        if keyword.arg is None or keyword.arg not in (argnames, argnums):
            continue
        for item in _literal_items(keyword.value) or []:
            if keyword.arg == argnames and isinstance(item, str):
                names.add(item)
            elif keyword.arg == argnums and type(item) is int and item >= 0:
                positions.add(item)
    return frozenset(names), frozenset(positions)


def transformed_callee(ctx: Context, call: ast.Call) -> bool:
    """Whether ``call`` runs a function made by a JAX transformation (``jit``, ``vmap``, ``grad``,
    ``pmap``, ``equinox.filter_jit``...): decorated with one, bound once to one, or transformed on
    the spot. Such a call dispatches device work and returns without waiting for it."""
    model = ctx.model
    func = call.func
    if isinstance(func, ast.Call):
        return _transform_call(ctx, func, ctx.scope)
    found = model.resolve_function(func, ctx.scope)
    if found is not None:
        node = found[0].node
        scope = model.index.parents.get(node, model.index.module)
        decorators = [] if isinstance(node, ast.Lambda) else node.decorator_list
        return any(_is_transform(ctx, d, scope) or _transform_call(ctx, d, scope) for d in decorators)
    if isinstance(func, ast.Name):
        owner = ctx.scope.lookup(func.id)
        value = _single_assignment(ctx.scope, func.id)
        return owner is not None and isinstance(value, ast.Call) and _transform_call(ctx, value, owner)
    return False


def _transform_call(ctx: Context, node: ast.expr, scope: Scope) -> bool:
    """``jax.jit(f, ...)`` or ``functools.partial(jax.jit, ...)``."""
    if not isinstance(node, ast.Call):
        return False
    if _is_transform(ctx, node.func, scope):
        return True
    return (
        ctx.model.qualname(node.func, scope) in PARTIALS
        and bool(node.args)
        and _is_transform(ctx, node.args[0], scope)
    )


def _is_transform(ctx: Context, node: ast.expr, scope: Scope) -> bool:
    transform = ctx.model.transform_of(node, scope)
    return transform is not None and transform.kind not in ("wrapper", "callback", "body")


def declares_static(ctx: Context) -> bool:
    """Whether some jit site of this file declares static arguments (a cheap gate), memoised."""
    found = ctx.memo.get("jitted-static")
    if found is None:
        found = any(
            isinstance(site, ast.Call)
            and any(k.arg in STATIC_KEYWORDS or k.arg is None for k in site.keywords)
            for info in ctx.model.infos.values()
            for site in info.jit_sites
        )
        ctx.memo["jitted-static"] = found
    return found


def _rebound_as_jitted(scope: Scope, name: str) -> ast.Call | None:
    """``f = jax.jit(f, ...)`` rebinding the one ``def f``: its two bindings are the def and the
    jit of it (a call of ``f`` after the rebinding runs the jitted function)."""
    owner = scope.lookup(name)
    if owner is None or owner.bound.get(name) != 2 or len(owner.defs.get(name) or []) != 1:
        return None
    value = owner.assigned.get(name)
    if (
        isinstance(value, ast.Call)
        and callee_leaf(value) in JIT_LEAVES
        and value.args
        and isinstance(value.args[0], ast.Name)
        and value.args[0].id == name
    ):
        return value
    return None


def _single_assignment(scope: Scope, name: str) -> ast.expr | None:
    owner = scope.lookup(name)
    if owner is None or owner.bound.get(name) != 1:
        return None
    return owner.assigned.get(name)


def _jit_call(info: FunctionInfo, site: ast.expr, offset: int) -> JitCall | None:
    static = static_parameters(info, site)
    return None if static is None else JitCall(info, site, offset, static)


def static_parameters(info: FunctionInfo, site: ast.expr) -> frozenset[str] | None:
    """The parameters a jit site declares static (``static_argnums`` and ``static_argnames``
    imply each other, as in ``jax.jit``); None when they are not literals."""
    return declared_parameters(info, site, "static_argnames", "static_argnums")


def donated_parameters(info: FunctionInfo, site: ast.expr) -> frozenset[str] | None:
    """The parameters a jit site donates (``donate_argnums``, ``donate_argnames``); None when
    they are not literals."""
    return declared_parameters(info, site, "donate_argnames", "donate_argnums")


def declared_parameters(
    info: FunctionInfo, site: ast.expr, argnames: str, argnums: str
) -> frozenset[str] | None:
    """The parameters a jit site names in ``argnames`` or by position in ``argnums``; None when
    they are not literals (or a ``**`` spread may name them)."""
    keywords = site.keywords if isinstance(site, ast.Call) else []
    positional = info.positional_names()
    names: set[str] = set()
    for keyword in keywords:
        if keyword.arg not in (argnames, argnums):
            if keyword.arg is None:
                return None
            continue
        items = _literal_items(keyword.value)
        if items is None:
            return None
        for item in items:
            if keyword.arg == argnames and isinstance(item, str):
                names.add(item)
            elif keyword.arg == argnums and type(item) is int:
                index = item + len(positional) if item < 0 else item
                if 0 <= index < len(positional):
                    names.add(positional[index])
            else:
                return None
    return frozenset(names)


def _literal_items(expr: ast.expr) -> list[object] | None:
    """The items of a literal ``static_argnums``/``static_argnames`` (one item for a scalar);
    None when it is not a literal."""
    try:
        value = ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return list(value) if isinstance(value, (tuple, list)) else [value]


# ---------------------------------------------------------------------------- lifetimes


def called_once_per_call(name: str | None, function: ast.AST) -> bool:
    """``f = jax.jit(...)`` in a function body, with ``f`` only called, outside any loop: each call
    of the function compiles once and runs once. (Used in a loop, the compilation is amortised:
    the usual ``train()`` that jits its step once per run.)"""
    if name is None:
        return False
    uses: list[ast.Name] = []
    calls: set[int] = set()
    stack: list[tuple[ast.AST, bool]] = [(statement, False) for statement in getattr(function, "body", [])]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, (*FUNCTION_NODES, ast.ClassDef)):
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            if in_loop:
                return False
            uses.append(node)
        if isinstance(node, ast.Call):
            calls.add(id(node.func))
        looping = in_loop or isinstance(node, LOOPS)
        stack.extend((child, looping) for child in ast.iter_child_nodes(node))
    return bool(uses) and all(id(use) in calls for use in uses)


def assigned_name(parent: ast.AST | None, node: ast.Call) -> str | None:
    """``step`` in ``step = jax.jit(...)``."""
    if (
        isinstance(parent, ast.Assign)
        and parent.value is node
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Name)
    ):
        return parent.targets[0].id
    return None


def used_per_iteration(ctx: Context, name: str | None, loop: ast.AST) -> bool:
    """Whether the loop uses ``name`` only by calling it or handing it to a function (which calls
    it), never by storing it away (``fns.append(step)``, ``table[k] = step``) for later."""
    if name is None:
        return False
    parents = {
        child: node
        for node in ast.walk(loop)
        for child in ast.iter_child_nodes(node)
        if isinstance(child, ast.Name) and child.id == name and isinstance(child.ctx, ast.Load)
    }
    if not parents:
        return False
    for use, parent in parents.items():
        if not isinstance(parent, ast.Call):
            return False  # stored, returned, passed by keyword...
        func = parent.func
        if func is not use and (
            (isinstance(func, ast.Attribute) and func.attr in MUTATING_METHODS)
            or ctx.qualname(func) in CONTAINERS
        ):
            return False
    return True


def plain_jit(ctx: Context, site: ast.expr, scope: Scope) -> bool:
    """``@jax.jit``, ``jax.jit(f, ...)`` or ``partial(jax.jit, ...)``: not a jit that filters
    its arguments first (``eqx.filter_jit``, flax's ``nnx.jit``)."""
    model = ctx.model
    if isinstance(site, ast.Call):
        callee = model.qualname(site.func, scope)
        if callee in PARTIALS and site.args:
            return model.qualname(site.args[0], scope) == "jax.jit"
        return callee == "jax.jit"
    return model.qualname(site, scope) == "jax.jit"
