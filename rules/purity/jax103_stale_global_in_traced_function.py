"""JAX103: a traced function reads a global, a closed-over variable or an attribute of a static
object that changes later."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope, parameter_defaults
from jaxlint.semantic.transforms import CACHING_KINDS, COMPILING_TRANSFORMS, PARTIALS

from ..support.classes import hash_basis, jitted_once_bound, module_bound_jits, static_everywhere
from ..support.explain import snippet
from .static_objects import attribute_change, attribute_reads


class StaleGlobalInTracedFunction(Rule):
    """## What it does
    Finds reads, inside a jitted (or otherwise abstractly traced) function, of an environment
    variable (`os.environ.get("SCALE")`) that the program sets again between two calls, of a
    module object bound with `functools.partial` (`jax.jit(partial(apply, cfg))`) that the
    program changes in place between two calls, of a module global
    that the program rebinds at run time (a `global` assignment in some function, a
    module-level `for` loop over it, or code that rebinds it, or changes the entry or the class
    attribute the function reads, between two calls of the function with the same arguments or
    in a loop that calls it: module code, or an eager function such as a `main` or a training
    loop), of a closed-over variable that is rebound after a jitted
    nested function captured it, or of an attribute of a static object argument (a config
    object, or the `self` of a method jitted with `static_argnums=0`) that the program changes
    between two calls on the same object (a store, or a method that stores on `self`).

    ## Why is this bad?
    JAX reads the variable once, while tracing, and bakes its value into the compiled program as
    a constant. Later calls reuse the compiled program, so when the variable changes the function
    keeps computing with the old value: no error, just stale results. A static object is no
    different: JAX finds the compiled program by the object's hash, which for a plain class is
    its identity, so changing an attribute does not compile the method again. Constants that never change
    (an `EPS = 1e-6`, a module, a function) are fine and are not reported. A bare `jax.vmap` traces the function again on every
    call, so a global read there is not reported there. Nor is a global that is read again
    after it changes: one the entry point (`main`) sets before it runs anything of the module,
    one whose writer then calls `f.clear_cache()`, or one read by a function jitted as a new
    function object at each call (`jax.jit(jax.grad(loss))(w)`, traced every time).

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
            return  # traced afresh on every call (a bare vmap): it reads the new value
        reported: set[str] = set()
        for read in function.outer_reads:
            name = read.id
            owner = _outer_owner(function.scope, name)
            if name in reported or owner is None or name in function.scope.globals:
                continue
            where = self.changed_at(name, owner, function, ctx)
            if where is None or _stored_into(ctx, read):
                continue
            reported.add(name)
            kind = "global" if owner.kind == "module" else "closed-over variable"
            part = _part_read(function, read)
            what = f"{kind} `{name}`" if part is None else f"`{snippet(ctx, part)}` of {kind} `{name}`"
            cached_by = _eager_body_cache(function, ctx)
            kept = (
                f"`{cached_by}` caches the trace of `{function.name}` (keyed on the function, even "
                f"called eagerly) with the value it has then, and later calls keep using it"
                if cached_by
                else "JAX compiles in the value it has at trace time and later calls keep using it"
            )
            ctx.report(
                read,
                f"`{function.name}` reads {what}, which changes at line {where}: {kept}; pass "
                f"`{name if part is None else snippet(ctx, part)}` as an argument",
            )
        self.check_environment(function, ctx)
        self.check_partial_bound(function, ctx)
        self.check_static_objects(function, ctx)
        self.check_called_globals(function, reported, ctx)

    def check_called_globals(self, function: FunctionInfo, reported: set[str], ctx: Context) -> None:
        """``ACTIVATION(w * x)`` where module code rebinds ``ACTIVATION`` between two calls of the
        compiled function: the program holds the function traced first."""
        body = getattr(function.node, "body", [])
        for node in own_nodes(body if isinstance(body, list) else [body]):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            owner = _outer_owner(function.scope, name)
            if name in reported or owner is None or owner.kind != "module" or name in function.scope.globals:
                continue
            site = ctx.model.stale_callee_rebinding(name, function)
            if site is None:
                continue
            reported.add(name)
            ctx.report(
                node.func,
                f"`{function.name}` calls global `{name}`, which is rebound at line {site.lineno} "  # pyright: ignore[reportAttributeAccessIssue]
                f"between calls of `{function.name}`: JAX compiled the function `{name}` held at trace time "
                f"into the program, and later calls keep running it; pass the function as a static "
                f"argument (`static_argnames`), or choose with `lax.switch`",
            )

    def check_partial_bound(self, function: FunctionInfo, ctx: Context) -> None:
        """``jax.jit(partial(apply, cfg))`` (or ``def update(p, cfg=CFG)``) with module-level
        ``cfg`` changed in place between two calls: the partial (or the default) hands the trace
        that object, whose contents are compiled in."""
        bound = [
            (param, name, "bound by `functools.partial` to")
            for param, name in _bound_through_partial(function, ctx)
        ]
        bound += [(param, name, "whose default is") for param, name in _bound_by_default(function)]
        for param, name, how in bound:
            site = ctx.model.bound_object_changed(name, function, param)
            if site is None:
                continue
            reads = [
                n
                for n in ast.walk(function.node)
                if isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Load)
            ]
            changed = ctx.model.parent_map.get(site)  # `CFG.weight_decay = 0.5`: read `cfg.weight_decay`
            read = next(
                (
                    r
                    for r in reads
                    if isinstance(changed, ast.Attribute) and _attribute_of(ctx, r) == changed.attr
                ),
                reads[0] if reads else None,
            )
            if read is None:
                continue
            part = _part_read(function, read)
            what = f"`{param}`" if part is None else f"`{snippet(ctx, part)}`"
            ctx.report(
                read,
                f"`{function.name}` reads {what}, {how} module-level `{name}`, "
                f"which changes at line {site.lineno}: JAX compiles in what `{name}` held at trace time and "  # pyright: ignore[reportAttributeAccessIssue]
                f"later calls keep using it; pass it as an argument",
            )

    def check_environment(self, function: FunctionInfo, ctx: Context) -> None:
        """``os.environ.get("SCALE")`` read while tracing, and ``os.environ["SCALE"] = ...`` set
        between two calls: the environment is state of the process, read once per trace."""
        for read in _environment_reads(function, ctx):
            root = read.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if not isinstance(root, ast.Name):
                continue
            part = _part_read(function, read) or read
            written = _environment_written(ctx)
            variable = _constant_key(part)
            if written is not None and variable not in written:
                continue  # the program sets other variables only
            site = ctx.model.stale_rebinding(root.id, function)
            if site is None:
                continue
            ctx.report(
                read,
                f"`{function.name}` reads the environment, `{snippet(ctx, part)}`, which changes at line "
                f"{site.lineno}: JAX compiles in the value it has at trace time and later calls keep "  # pyright: ignore[reportAttributeAccessIssue]
                f"using it; read it outside and pass it as an argument",
            )
            return

    def check_static_objects(self, function: FunctionInfo, ctx: Context) -> None:
        """Attributes of a static object argument (``self`` included) that the program changes:
        JAX finds the compiled program by the object's hash, its identity for a plain class, so
        a changed attribute does not compile the function again."""
        params = set(static_everywhere(function))
        bound = jitted_once_bound(ctx, function) is not None
        held = module_bound_jits(ctx, function) if function.is_method else {}
        if bound or held:
            params.add(function.positional_names()[0])  # the bound `self`, a constant of its trace
        for param in sorted(params):
            reported: set[str] = set()
            for read in attribute_reads(function, param):
                change = None if read.attr in reported else attribute_change(ctx, function, param, read.attr)
                if change is None:
                    continue
                reported.add(read.attr)
                line, changer, cls = change
                is_self = param == function.positional_names()[0]
                if bound and is_self:
                    why = f"`__init__` jits the bound method once, with `{param}` a constant of its trace"
                elif held and is_self:
                    holder, (owner, jit) = next(iter(held.items()))
                    why = (
                        f"`{holder} = {snippet(ctx, jit)}` at line {jit.lineno} jits the method bound to "
                        f"`{owner}` once, which is a constant of its trace"
                    )
                else:
                    why = (
                        f"`{param}` is a static argument, and JAX finds the compiled program by its hash "
                        f"(for `{cls.name}`, {hash_basis(ctx, cls)})"
                    )
                ctx.report(
                    read,
                    f"`{function.name}` reads `{param}.{read.attr}`, which changes at line {line} ({changer}): "
                    f"{why}, so later calls with arguments of the same shapes keep the value traced first; "
                    f"pass `{read.attr}` as an argument",
                )

    def changed_at(self, name: str, owner: Scope, function: FunctionInfo, ctx: Context) -> int | None:
        if owner.kind == "module":
            site = ctx.model.stale_rebinding(name, function)
            return None if site is None else site.lineno  # pyright: ignore[reportAttributeAccessIssue]
        if not function.transformed_by & CACHING_KINDS:
            return None  # a lax body or helper is traced afresh each time its caller runs
        return ctx.model.closure_rebinding(owner, name, function.node)


def _eager_body_cache(function: FunctionInfo, ctx: Context) -> str | None:
    """The ``lax`` function that caches ``function``'s trace where it is a body of one and no
    compiled function traces it (``jax.lax.scan``), else None."""
    if function.transformed_by != {"body"} or ctx.model.compiled_root(function) is not None:
        return None
    if function.repeated_by:
        return function.repeated_by
    site = function.branch_of
    return None if site is None else ctx.model.qualname(site.func, function.scope.parent or function.scope)


def _stored_into(ctx: Context, name: ast.Name) -> bool:
    """``history[-1] = 1.0``: the name is written through, not read (JAX104's)."""
    holder = ctx.model.parent_map.get(name)
    return (
        isinstance(holder, (ast.Subscript, ast.Attribute))
        and holder.value is name
        and isinstance(holder.ctx, (ast.Store, ast.Del))
    )


def _attribute_of(ctx: Context, name: ast.Name) -> str | None:
    """``attr`` where ``name`` is read as ``name.attr``."""
    holder = ctx.model.parent_map.get(name)
    return holder.attr if isinstance(holder, ast.Attribute) else None


def _bound_by_default(function: FunctionInfo) -> list[tuple[str, str]]:
    """(parameter, module name) for each parameter whose default is a module-level name
    (``def update(p, g, cfg=CFG)``): a call that leaves it out hands the trace that object."""
    outer = function.scope.parent  # where the defaults are evaluated
    if outer is None:
        return []
    return [
        (param, default.id)
        for param, default in parameter_defaults(function.node.args).items()
        if isinstance(default, ast.Name)
        and (owner := outer.lookup(default.id)) is not None
        and owner.parent is None
    ]


def _bound_through_partial(function: FunctionInfo, ctx: Context) -> list[tuple[str, str]]:
    """(parameter, module name) for each module name a jit site binds to a parameter of
    ``function`` through ``functools.partial`` (``jax.jit(partial(apply, cfg))``)."""
    key = "partial-bound"
    if not ctx.mentions("partial"):
        return []
    if key not in ctx.memo:
        ctx.memo[key] = _partial_bindings(ctx)
    return ctx.memo[key].get(function.node, [])


def _partial_bindings(ctx: Context) -> dict[ast.AST, list[tuple[str, str]]]:
    """:func:`_bound_through_partial` for every function of the module, from the model's index
    of transformation calls."""
    found: dict[ast.AST, list[tuple[str, str]]] = {}
    model, module = ctx.model, ctx.model.index.module
    for node, scope in model.index.calls:  # (the calls of transformations, among others)
        if not node.args or model.qualname(node.func, scope) not in COMPILING_TRANSFORMS:
            continue
        wrapped = node.args[0]
        if not isinstance(wrapped, ast.Call) or not wrapped.args:
            continue
        if model.qualname(wrapped.func, scope) not in PARTIALS:
            continue
        target = model.resolve_function(wrapped.args[0], scope)
        if target is None or target[1]:
            continue
        names = target[0].positional_names()
        bound = [(names[i], a) for i, a in enumerate(wrapped.args[1:]) if i < len(names)]
        bound += [(k.arg, k.value) for k in wrapped.keywords if k.arg is not None]
        for param, argument in bound:
            if isinstance(argument, ast.Name) and scope.lookup(argument.id) is module:
                found.setdefault(target[0].node, []).append((param, argument.id))
    return found


def _environment_reads(function: FunctionInfo, ctx: Context) -> list[ast.Attribute]:
    """The reads of ``os.environ`` in ``function``'s own code."""
    if not ctx.mentions("environ"):
        return []
    body = getattr(function.node, "body", [])
    nodes = own_nodes(body if isinstance(body, list) else [body])
    return [
        n
        for n in nodes
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Load)
        and ctx.model.qualname(n, function.scope) == "os.environ"
    ]


def _environment_written(ctx: Context) -> set[object] | None:
    """The variables the module sets in ``os.environ`` (``os.environ["X"] = ...``); None where
    it sets some it does not name (``os.environ.update(...)``, a computed name)."""
    key = "environment-written"
    if key in ctx.memo:
        return ctx.memo[key]
    written: set[object] | None = set()
    module = ctx.model.index.module
    for node in ast.walk(ctx.model.tree):
        stored = isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load)
        if stored and ctx.model.qualname(node.value, module) == "os.environ":  # pyright: ignore[reportAttributeAccessIssue]
            name = _constant_key(node)  # pyright: ignore[reportArgumentType]
            if name is None:
                written = None
                break
            written.add(name)
        elif _environment_mutator(ctx, node):
            written = None
            break
    ctx.memo[key] = written
    return written


def _environment_mutator(ctx: Context, node: ast.AST) -> bool:
    """``os.environ.update(...)`` and the like: variables changed that the code does not name."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("update", "setdefault", "pop", "clear")
        and ctx.model.qualname(node.func.value, ctx.model.index.module) == "os.environ"
    )


def _constant_key(part: ast.expr) -> object:
    """``"X"`` in ``os.environ["X"]`` or ``os.environ.get("X", ...)``; None when not a constant."""
    if isinstance(part, ast.Subscript) and isinstance(part.slice, ast.Constant):
        return part.slice.value
    if isinstance(part, ast.Call) and part.args and isinstance(part.args[0], ast.Constant):
        return part.args[0].value
    return None


def _part_read(function: FunctionInfo, read: ast.expr) -> ast.expr | None:
    """``CONFIG["lr"]``, ``CONFIG.get("lr", 0.1)`` or ``Sampling.temperature`` where ``read`` is
    the name of it."""
    nodes = list(ast.walk(function.node))
    part = next((n for n in nodes if isinstance(n, (ast.Subscript, ast.Attribute)) and n.value is read), None)
    call = next((n for n in nodes if isinstance(n, ast.Call) and n.func is part), None)
    return call or part


def _outer_owner(scope: Scope, name: str) -> Scope | None:
    """The module or enclosing function that binds ``name`` (not an import or a function; a
    class, whose attributes the program may change, at module level)."""
    owner = scope.lookup(name)
    if owner is None or owner.function is scope.function:
        return None
    if owner.imports.get(name) is not None:
        return None
    defs = owner.defs.get(name, [])
    if defs and not (owner.kind == "module" and all(isinstance(d, ast.ClassDef) for d in defs)):
        return None
    return owner
