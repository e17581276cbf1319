"""JAX103: a traced function reads a global, a closed-over variable or an attribute of a static
``self`` that changes later."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import CACHING_KINDS
from jaxlint.semantic.values import is_instance_of

from ..support.classes import static_self_class

# methods that build an object: what they store on `self` is there before any call
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "setup"})


class StaleGlobalInTracedFunction(Rule):
    """## What it does
    Finds reads, inside a jitted (or otherwise abstractly traced) function, of a module global
    that the program rebinds at run time (a `global` assignment in some function, or a
    module-level `for` loop over it), of a closed-over variable that is rebound after a jitted
    nested function captured it, or of an attribute of a static `self` (a method jitted with
    `static_argnums=0`) that another method, or the caller after a call, changes.

    ## Why is this bad?
    JAX reads the variable once, while tracing, and bakes its value into the compiled program as
    a constant. Later calls reuse the compiled program, so when the variable changes the function
    keeps computing with the old value: no error, just stale results. A static `self` is no
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
        self.check_static_self(function, ctx)

    def check_static_self(self, function: FunctionInfo, ctx: Context) -> None:
        """Attributes of a static ``self`` that the program changes: JAX finds the compiled method
        by the object's hash, its identity, so a changed attribute does not compile it again."""
        cls = static_self_class(ctx, function)
        if cls is None:
            return
        this = function.positional_names()[0]
        reported: set[str] = set()
        for node in own_nodes(getattr(function.node, "body", [])):
            if not (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id == this
                and node.attr not in reported
            ):
                continue
            change = attribute_change(ctx, cls, node.attr, function)
            if change is None:
                continue
            reported.add(node.attr)
            line, changer = change
            ctx.report(
                node,
                f"`{function.name}` reads `{this}.{node.attr}`, which changes at line {line} ({changer}): "
                f"`{this}` is a static argument, and JAX finds the compiled program by its hash (for "
                f"`{cls.name}`, the object's identity), so later calls keep the value traced first; "
                f"pass `{node.attr}` as an argument",
            )

    def changed_at(self, name: str, owner: Scope, function: FunctionInfo, ctx: Context) -> int | None:
        if owner.kind == "module":
            sites = ctx.model.runtime_rebound.get(name)
            return sites[0].lineno if sites else None  # pyright: ignore[reportAttributeAccessIssue]
        if not function.transformed_by & CACHING_KINDS:
            return None  # a lax body or helper is traced afresh each time its caller runs
        return ctx.model.closure_rebinding(owner, name, function.node)


def attribute_change(
    ctx: Context, cls: ast.ClassDef, attr: str, function: FunctionInfo
) -> tuple[int, str] | None:
    """Where the program changes ``attr`` of an object of ``cls`` that may already have run
    ``function``: a store on ``self`` in another method than a constructor, or a store on an
    instance after a call of ``function`` on it. The line and who changes it; None if nowhere."""
    for store in ctx.model.self_stores(cls).get(attr, []):
        method = store.method
        if method.name in CONSTRUCTORS or method is function.node or _builds(ctx, cls, method.name):
            continue
        return store.target.lineno, f"in `{cls.name}.{method.name}`"
    for target, scope, base in ctx.model.index.mutations:
        if not (
            isinstance(target, ast.Attribute)
            and target.attr == attr
            and isinstance(target.value, ast.Name)
            and is_instance_of(ctx.model.value(target.value, scope), cls)
        ):
            continue
        if _called_before(scope, base, getattr(function.node, "name", ""), target):
            return target.lineno, f"`{base}.{attr} = ...`"
    return None


def _builds(ctx: Context, cls: ast.ClassDef, method: str) -> bool:
    """Whether the method named ``method`` only helps construct objects: every use of the name
    in the module is in a constructor of ``cls`` (``self._build()`` in ``__init__``)."""
    uses = [
        node
        for node in ast.walk(ctx.model.tree)
        if isinstance(node, ast.Attribute) and node.attr == method and isinstance(node.ctx, ast.Load)
    ]
    constructors = [m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name in CONSTRUCTORS]
    return bool(uses) and all(any(encloses(c, use) for c in constructors) for use in uses)


def _called_before(scope: Scope, base: str, method: str, store: ast.Attribute) -> bool:
    """Whether ``base.method(...)`` runs before ``store`` in ``scope``: on an earlier line, or in
    a loop that also holds the store."""
    body = getattr(scope.function.node, "body", [])
    for node in own_nodes(body if isinstance(body, list) else [body]):
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)) and _holds_call(node, base, method):
            if any(inner is store for inner in ast.walk(node)):
                return True
        elif _is_call(node, base, method) and node.lineno < store.lineno:  # pyright: ignore[reportAttributeAccessIssue]
            return True
    return False


def _holds_call(loop: ast.AST, base: str, method: str) -> bool:
    return any(_is_call(node, base, method) for node in ast.walk(loop))


def _is_call(node: ast.AST, base: str, method: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == base
    )


def _outer_owner(scope: Scope, name: str) -> Scope | None:
    """The module or enclosing function that binds ``name`` (not an import or a def)."""
    owner = scope.lookup(name)
    if owner is None or owner.function is scope.function:
        return None
    if owner.imports.get(name) is not None or name in owner.defs:
        return None
    return owner
