"""JAX103: a traced function reads a global, a closed-over variable or an attribute of a static
object that changes later."""

from __future__ import annotations

import ast
from collections.abc import Callable

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import CACHING_KINDS
from jaxlint.semantic.values import instance_classes

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
    object, or the `self` of a method jitted with `static_argnums=0`) that another method, or
    the caller after a call, changes.

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
                    f"`{cls.name}`, the object's identity), so later calls keep the value traced first; "
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
    """Where the program changes ``attr`` of an object that may already have run ``function`` as
    its static ``param``: a store on ``self`` in another method than a constructor, or a store
    on the object after a call that passed it. The line, who changes it and the object's class."""
    is_self = function.is_method and function.positional_names()[0] == param
    cls = static_self_class(ctx, function) if is_self else None
    if is_self and cls is None:
        return None
    if cls is not None:
        for store in ctx.model.self_stores(cls).get(attr, []):
            method = store.method
            if method.name in CONSTRUCTORS or method is function.node or _builds(ctx, cls, method.name):
                continue
            return store.target.lineno, f"in `{cls.name}.{method.name}`", cls
    for target, scope, base in ctx.model.index.mutations:
        if not (
            isinstance(target, ast.Attribute) and target.attr == attr and isinstance(target.value, ast.Name)
        ):
            continue
        classes = instance_classes(ctx.model.value(target.value, scope))
        owner = next((c for c in classes if c is cls or (cls is None and hashes_by_identity(ctx, c))), None)
        if owner is None or len(classes) != 1:
            continue

        def runs(call: ast.AST, base: str = base, scope: Scope = scope) -> bool:
            if is_self:
                return _is_method_call(call, base, function.name)
            return _passes(ctx, call, scope, function, param, base)

        if _runs_before(scope, runs, target):
            return target.lineno, f"`{base}.{attr} = ...`", owner
    return None


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


def _runs_before(scope: Scope, runs: Callable[[ast.AST], bool], store: ast.Attribute) -> bool:
    """Whether a call that ``runs`` picks out runs before ``store`` in ``scope``: on an earlier
    line, or in a loop that also holds the store."""
    body = getattr(scope.function.node, "body", [])
    for node in own_nodes(body if isinstance(body, list) else [body]):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            inner = list(ast.walk(node))
            if any(n is store for n in inner) and any(runs(n) for n in inner):
                return True
        elif isinstance(node, ast.Call) and node.lineno < store.lineno and runs(node):
            return True
    return False


def _is_method_call(node: ast.AST, base: str, method: str) -> bool:
    """``base.method(...)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == base
    )


def _passes(ctx: Context, node: ast.AST, scope: Scope, function: FunctionInfo, param: str, base: str) -> bool:
    """Whether ``node`` calls jitted ``function`` with the object named ``base`` as ``param``."""
    if not isinstance(node, ast.Call):
        return False
    jit = jitted_callee_in(ctx, node, scope)
    if jit is None or jit.info is not function:
        return False
    return any(
        name == param and isinstance(argument, ast.Name) and argument.id == base
        for name, argument in jit.static_arguments(node)
    )


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
