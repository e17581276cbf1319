"""JAX621: a flax linen module with parameters called directly, outside ``init``/``apply``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.blocks import name_loads, parents
from ..support.explain import snippet
from ..support.linen import linen_construction, method_named, module_class

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class LinenModuleCalledUnbound(Rule):
    """## What it does
    Finds a flax linen module that has parameters (a layer such as `nn.Dense`, measured to raise
    when called unbound, or a module of this file whose `__call__` is `@nn.compact` or which has
    a `setup`) made and then called
    directly in plain code: `Encoder()(x)`, or `enc = Encoder()` then `enc(x)`, at module level
    or in a function that is only ever called. Code in a module's methods, and functions handed
    elsewhere (to `apply(..., method=f)`, `nn.apply`), run with a bound module and are not checked.

    ## Why is this bad?
    A linen module is a description: its parameters exist only in the variables `init` makes,
    and it runs only bound to them. Called directly, flax raises
    `CallCompactUnboundModuleError` ("Can't call compact methods on unbound modules"; a module
    set up in `setup` raises `AttributeError`). Make the variables with `init` and run it with
    `apply`.

    ## Example
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    model = nn.Dense(2)
    y = model(jnp.ones((1, 3)))
    ```

    ## Use instead
    ```python
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    model = nn.Dense(2)
    variables = model.init(jax.random.key(0), jnp.ones((1, 3)))
    y = model.apply(variables, jnp.ones((1, 3)))
    ```

    ## Fix safety
    No automatic fix: the variables must be made (and kept) by the caller.

    ## References
    - [flax linen: Module.init and apply](https://flax-linen.readthedocs.io/en/latest/api_reference/flax.linen/module.html)
    """

    code = "JAX621"
    name = "linen-module-called-unbound"
    message = "A flax linen module is called outside `init`/`apply`"
    outcome = "CallCompactUnboundModuleError"
    visits_anywhere = frozenset({ast.Call, ast.Attribute})

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        """``model.encoder`` where ``setup`` assigns ``self.encoder``: on an unbound module
        ``setup`` has not run, and flax raises ``AttributeError``."""
        if not isinstance(node.value, ast.Name) or not isinstance(node.ctx, ast.Load):
            return
        if not ctx.mentions("setup"):
            return  # cheap first: only a module with a `setup` assigns submodules there
        construction = linen_construction(ctx, node.value)
        cls = None if construction is None else module_class(ctx, construction, ctx.scope)
        if cls is None or node.attr not in _set_up(cls) or not _plain_code(ctx):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` reads a submodule that `{cls.name}.setup` assigns, on the unbound "
            f"module made at line {construction.lineno}: `setup` runs only inside `init`/`apply`, so "  # pyright: ignore[reportOptionalMemberAccess]
            f"flax raises `AttributeError`; bind the module first (`model.bind(variables).{node.attr}`), "
            f"or run the submodule through a method with `model.apply(variables, x, method=...)`",
        )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not isinstance(node.func, (ast.Name, ast.Call)):
            return
        construction = linen_construction(ctx, node.func)
        if construction is None or not _plain_code(ctx):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node.func)}` is a flax linen module"
            + (
                ""
                if construction is node.func
                else f" (made by `{snippet(ctx, construction)}` at line {construction.lineno})"
            )
            + " called directly: its parameters exist only in the "
            "variables `init` makes, so flax raises `CallCompactUnboundModuleError`; make them with "
            "`variables = module.init(key, x)` and call `module.apply(variables, x)`",
        )


def _plain_code(ctx: Context) -> bool:
    """Module-level code, or a function outside any class that is only ever called by name
    from plain code (not from a module's method, where a helper may make and call layers, nor
    handed to ``apply(..., method=...)``, ``nn.apply`` or anything else)."""
    scope = ctx.scope
    while scope is not None:
        if scope.kind == "class":
            return False
        scope = scope.parent
    function = ctx.function
    return function is None or _only_called_plainly(ctx, function.node, set())


def _only_called_plainly(ctx: Context, node: ast.AST, seen: set[ast.AST]) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.decorator_list:
        return False
    if node in seen:
        return True
    seen.add(node)
    tree_parents = parents(ctx)
    for use, parent in name_loads(ctx, node.name):
        if not (isinstance(parent, ast.Call) and parent.func is use):
            return False
        caller = tree_parents.get(parent)
        while caller is not None and not isinstance(caller, (*FUNCTIONS, ast.ClassDef)):
            caller = tree_parents.get(caller)
        if isinstance(caller, ast.ClassDef) or (
            caller is not None and not _only_called_plainly(ctx, caller, seen)
        ):
            return False
    outer = tree_parents.get(node)
    while outer is not None and not isinstance(outer, (*FUNCTIONS, ast.ClassDef)):
        outer = tree_parents.get(outer)
    return outer is None or _only_called_plainly(ctx, outer, seen)


def _set_up(cls: ast.ClassDef) -> set[str]:
    """The attributes ``setup`` assigns on ``self`` (``self.encoder = nn.Dense(2)``)."""
    setup = method_named(cls, "setup")
    if setup is None:
        return set()
    return {
        target.attr
        for node in ast.walk(setup)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    }
