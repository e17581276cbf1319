"""JAX103: a traced function reads a global, a closed-over variable or an attribute of a static
object that changes later."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import CACHING_KINDS
from jaxlint.semantic.values import instance_classes

from ..support.blocks import leaves_block, statement_path
from ..support.classes import hashes_by_identity, static_everywhere, static_self_class
from ..support.jitted import jitted_callee_in

# methods that build an object: what they store on `self` is there before any call
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "setup"})


class StaleGlobalInTracedFunction(Rule):
    """## What it does
    Finds reads, inside a jitted (or otherwise abstractly traced) function, of a module global
    that the program rebinds at run time (a `global` assignment in some function, or a
    module-level `for` loop over it), of a closed-over variable that is rebound after a jitted
    nested function captured it, or of an attribute of a static object argument (a config
    object, or the `self` of a method jitted with `static_argnums=0`) that the program changes
    between two calls on the same object (a store, or a method that stores on `self`).

    ## Why is this bad?
    JAX reads the variable once, while tracing, and bakes its value into the compiled program as
    a constant. Later calls reuse the compiled program, so when the variable changes the function
    keeps computing with the old value: no error, just stale results. A static object is no
    different: JAX finds the compiled program by the object's hash, which for a plain class is
    its identity, so changing an attribute does not compile the method again. Constants that never change
    (an `EPS = 1e-6`, a module, a function) are fine and are not reported. A bare `jax.vmap` or `jax.checkpoint` traces the function again on every
    call, so a global read there is not reported there.

    ## Example
    ```python
    import jax

    scale = 1.0

    def set_scale(value):
        global scale
        scale = value

    @jax.jit
    def apply_scale(x):
        return x * scale
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def apply_scale(x, scale):
        return x * scale
    ```

    ## Fix safety
    No automatic fix: the value has to become an argument (traced, or static with
    `static_argnames` if it decides shapes), which changes every call site.

    ## References
    - [JAX: Common gotchas, pure functions](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions)
    """

    code = "JAX103"
    name = "stale-global-in-traced-function"
    message = "A traced function reads a variable that changes later: its traced value is frozen"
    outcome = "the value at trace time is compiled in; later changes are silently ignored"
    severity = "warning"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_Lambda(self, node: ast.Lambda, ctx: Context) -> None:
        self.check(node, ctx)

    def check(self, node: ast.AST, ctx: Context) -> None:
        function = ctx.model.info(node)
        if function is None or not function.abstract or function.only_traced_for_shapes:
            return
        if not ctx.model.caches_trace(function):
            return  # traced afresh on every call (a bare vmap or checkpoint): it reads the new value
        reported: set[str] = set()
        for read in function.outer_reads:
            name = read.id
            owner = _outer_owner(function.scope, name)
            if name in reported or owner is None or name in function.scope.globals:
                continue
            where = self.changed_at(name, owner, function, ctx)
            if where is None:
                continue
            reported.add(name)
            kind = "global" if owner.kind == "module" else "closed-over variable"
            ctx.report(
                read,
                f"`{function.name}` reads {kind} `{name}`, which changes at line {where}: JAX compiles "
                f"in the value it has at trace time and later calls keep using it; pass `{name}` as an argument",
            )
        self.check_static_objects(function, ctx)

    def check_static_objects(self, function: FunctionInfo, ctx: Context) -> None:
        """Attributes of a static object argument (``self`` included) that the program changes:
        JAX finds the compiled program by the object's hash, its identity for a plain class, so
        a changed attribute does not compile the function again."""
        for param in static_everywhere(function):
            reported: set[str] = set()
            for read in _attribute_reads(function, param):
                change = None if read.attr in reported else attribute_change(ctx, function, param, read.attr)
                if change is None:
                    continue
                reported.add(read.attr)
                line, changer, cls = change
                ctx.report(
                    read,
                    f"`{function.name}` reads `{param}.{read.attr}`, which changes at line {line} ({changer}): "
                    f"`{param}` is a static argument, and JAX finds the compiled program by its hash (for "
                    f"`{cls.name}`, the object's identity), so later calls with arguments of the same shapes keep the value traced first; "
                    f"pass `{read.attr}` as an argument",
                )

    def changed_at(self, name: str, owner: Scope, function: FunctionInfo, ctx: Context) -> int | None:
        if owner.kind == "module":
            sites = ctx.model.runtime_rebound.get(name)
            return sites[0].lineno if sites else None  # pyright: ignore[reportAttributeAccessIssue]
        if not function.transformed_by & CACHING_KINDS:
            return None  # a lax body or helper is traced afresh each time its caller runs
        return ctx.model.closure_rebinding(owner, name, function.node)


def attribute_change(
    ctx: Context, function: FunctionInfo, param: str, attr: str
) -> tuple[int, str, ast.ClassDef] | None:
    """Where the program changes ``attr`` of an object between two runs of ``function`` with
    it as its static ``param``: a store on the object, or a call of a method that stores on
    ``self`` (not a constructor), after a call that passed the object and before another one, or
    in a loop that does both, the object never rebound in between. The line, how it changes
    and the object's class; None where no such sequence is in sight."""
    is_self = function.is_method and function.positional_names()[0] == param
    cls = static_self_class(ctx, function) if is_self else None
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
        id(scope): scope for target, scope, _ in ctx.model.index.mutations if _stores_attribute(target, attr)
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
        method = getattr(function.node, "name", "")
        if isinstance(func, ast.Attribute) and func.attr == method and isinstance(func.value, ast.Name):
            return [func.value.id]
        return []
    jit = jitted_callee_in(ctx, node, scope)
    if jit is None or jit.info is not function:
        return []
    return [a.id for name, a in jit.static_arguments(node) if name == param and isinstance(a, ast.Name)]


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


def _attribute_reads(function: FunctionInfo, param: str) -> list[ast.Attribute]:
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


def _outer_owner(scope: Scope, name: str) -> Scope | None:
    """The module or enclosing function that binds ``name`` (not an import or a def)."""
    owner = scope.lookup(name)
    if owner is None or owner.function is scope.function:
        return None
    if owner.imports.get(name) is not None or name in owner.defs:
        return None
    return owner
