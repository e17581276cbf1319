"""JAX109: ``jax.pure_callback`` called for its side effect, its result unused, in compiled code."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule

from ..support.explain import function_name, snippet, why_traced

PURE_CALLBACKS = frozenset({"jax.pure_callback"})


@dataclass(frozen=True)
class DebugCallback(FixRequest):
    """``jax.pure_callback(f, shapes, *args)`` -> ``jax.debug.callback(f, *args)``."""

    call: ast.Call


class PureCallbackResultUnused(Rule):
    """## What it does
    Finds `jax.pure_callback(...)` whose result is thrown away (a statement of its own, or
    bound to `_`) in code that JAX compiles (`jax.jit`, the body of a `lax` loop): a callback
    called for what it does on the host (records, logs, writes), not for what it returns.

    ## Why is this bad?
    JAX takes a pure callback at its word: it has no side effects, so a call whose result is
    unused computes nothing the program needs, and the compiler removes it. The callback
    silently never runs. A callback made for its side effects is `jax.debug.callback` (or
    `jax.experimental.io_callback`, when the order of the calls matters).

    ## Example
    ```python
    import jax

    seen = []

    @jax.jit
    def step(x):
        jax.pure_callback(seen.append, jax.ShapeDtypeStruct((), bool), x)
        return x + 1.0
    ```

    ## Use instead
    ```python
    import jax

    seen = []

    @jax.jit
    def step(x):
        jax.debug.callback(seen.append, x)
        return x + 1.0
    ```

    ## Fix safety
    Unsafe: `jax.debug.callback` runs the callback on every call, but its calls may be
    reordered; where the order matters, use `io_callback(..., ordered=True)`.

    ## References
    - [JAX: External callbacks](https://docs.jax.dev/en/latest/external-callbacks.html)
    """

    code = "JAX109"
    traced_only = True
    name = "pure-callback-result-unused"
    message = "A `jax.pure_callback` whose result is unused is removed by the compiler"
    outcome = "the callback never runs"
    severity = "warning"
    fix_title = "Replace with `jax.debug.callback`"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Expr(self, node: ast.Expr, ctx: Context) -> None:
        self.check(node.value, ctx)

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        if all(isinstance(t, ast.Name) and t.id == "_" for t in node.targets):
            self.check(node.value, ctx)

    def check(self, call: ast.expr, ctx: Context) -> None:
        if not isinstance(call, ast.Call) or not ctx.trace_reused or not ctx.traced_to_run:
            return
        if ctx.qualname(call.func) not in PURE_CALLBACKS:
            return
        ctx.report(
            call,
            f"`{snippet(ctx, call)}` in `{function_name(ctx)}` throws its result away ({why_traced(ctx)}): "
            f"JAX treats a pure callback as free of side effects, so the compiler removes a call "
            f"whose result nothing uses and the callback never runs; call `jax.debug.callback` "
            f"for a side effect",
            fix=DebugCallback(call),
        )
