"""JAX103: a traced function reads a global or closed-over variable that changes later."""

from __future__ import annotations

import ast

from jaxlint.context import Context
from jaxlint.explain import function_name, outer_owner
from jaxlint.rule import Rule

# Transformations that compile once and reuse the result on later calls.
CACHING = frozenset({"jit", "pmap", "filter"})


class StaleGlobalInTracedFunction(Rule):
    """## What it does
    Finds reads, inside a jitted (or otherwise abstractly traced) function, of a module global
    that the program rebinds at run time (a `global` assignment in some function, or a
    module-level `for` loop over it), or of a closed-over variable that is rebound after a jitted
    nested function captured it.

    ## Why is this bad?
    JAX reads the variable once, while tracing, and bakes its value into the compiled program as
    a constant. Later calls reuse the compiled program, so when the variable changes the function
    keeps computing with the old value: no error, just stale results. Constants that never change
    (an `EPS = 1e-6`, a module, a function) are fine and are not reported.

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

    def visit_Name(self, node: ast.Name, ctx: Context) -> None:
        if not isinstance(node.ctx, ast.Load) or not ctx.abstract:
            return
        if isinstance(ctx.parent, ast.Call) and ctx.parent.func is node:
            return
        function = ctx.function
        owner = outer_owner(ctx, node.id)
        if function is None or owner is None or node.id in ctx.scope.function.globals:
            return
        where = self.changed_at(node.id, owner, function.node, ctx)
        if where is None or not ctx.first_time((self.code, function.node, node.id)):
            return
        kind = "global" if owner.kind == "module" else "closed-over variable"
        ctx.report(
            node,
            f"`{function_name(ctx)}` reads {kind} `{node.id}`, which changes at line {where}: "
            f"JAX compiles in the value it has at trace time and later calls keep using it; "
            f"pass `{node.id}` as an argument",
        )

    def changed_at(self, name: str, owner, function_node: ast.AST, ctx: Context) -> int | None:
        if owner.kind == "module":
            sites = ctx.model.runtime_rebound.get(name)
            return sites[0].lineno if sites else None  # type: ignore[attr-defined]
        function = ctx.function
        if function is None or not function.transformed_by & CACHING:
            return None  # a lax body or helper is traced afresh each time its caller runs
        return ctx.model.closure_rebinding(owner, name, function_node)
