"""JAX502: ``for ... in range(traced)``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.values import is_traced

from ..support.explain import (
    function_name,
    safe_where_it_always_failed,
    snippet,
    static_advice,
    static_request,
    traced_name,
    why_traced,
)
from ..support.lifting import fori_plan
from ..support.staging import computed_by_numpy, numpy_advice


class PythonRangeOverTracer(Rule):
    """## What it does
    Finds `for i in range(n)` where `n` (or any bound) is a traced value, inside code JAX traces
    abstractly.

    ## Why is this bad?
    `range` needs Python integers: it calls `__index__` on its arguments, and a tracer has no
    concrete value while tracing, so JAX raises `jax.errors.TracerIntegerConversionError`. A
    trip count that comes from data needs `jax.lax.fori_loop` (or `lax.while_loop`); a trip count
    that is really configuration belongs in `static_argnames`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def power_iterate(m, v, num_iters):
        for _ in range(num_iters):
            v = m @ v
            v = v / jnp.linalg.norm(v)
        return v
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def power_iterate(m, v, num_iters):
        def body(_, v):
            v = m @ v
            return v / jnp.linalg.norm(v)
        return jax.lax.fori_loop(0, num_iters, body, v)
    ```

    ## Fix safety
    The fix rewrites the loop to `jax.lax.fori_loop` with the variables the body rebinds as the
    carry, when the body has no `break`, `continue`, `return` or `yield`, or adds the bound to
    `static_argnames` when it is a parameter (of the jitted function, or one its jitted caller
    passes on, as in JAX403). A bound that `jax.numpy` computes from constants alone is computed
    with NumPy instead, as in JAX403, and the loop stays a Python loop. Unsafe: every carried
    variable must keep its shape and dtype from one iteration to the next. The `fori_loop` and
    the static bound are safe where they are in JAX501 and JAX403 (the loop raised on every run).

    The fix rewrites the Example to:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def power_iterate(m, v, num_iters):
        def body_fun(_, v):
            v = m @ v
            v = v / jnp.linalg.norm(v)
            return v
        v = jax.lax.fori_loop(0, num_iters, body_fun, v)
        return v
    ```

    ## References
    - [jax.errors.TracerIntegerConversionError](https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerIntegerConversionError)
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    """

    code = "JAX502"
    traced_only = True
    name = "python-range-over-tracer"
    message = "A Python `for` loop over `range()` of a traced value"
    outcome = "jax.errors.TracerIntegerConversionError"
    fix_title = "Use `jax.lax.fori_loop`, or make the bound static"
    fix_availability = FixAvailability.SOMETIMES

    def visit_ListComp(self, node: ast.ListComp, ctx: Context) -> None:
        self.check_comprehension(node, ctx)

    def visit_SetComp(self, node: ast.SetComp, ctx: Context) -> None:
        self.check_comprehension(node, ctx)

    def visit_DictComp(self, node: ast.DictComp, ctx: Context) -> None:
        self.check_comprehension(node, ctx)

    def visit_GeneratorExp(self, node: ast.GeneratorExp, ctx: Context) -> None:
        self.check_comprehension(node, ctx)

    def check_comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, ctx: Context
    ) -> None:
        """``[f(k) for k in range(n)]``, ``sum(... for k in range(n))``: the same ``range``
        over a traced bound (the first iterable is evaluated where the comprehension is)."""
        if not ctx.abstract:
            return
        iterable = node.generators[0].iter
        bound = self.traced_bound(iterable, ctx)
        if bound is None:
            return
        static = static_request(ctx, traced_name(ctx, bound), bound)
        cure = f"{static_advice(static, ctx)}, or use" if static else "use"
        ctx.report(
            iterable,
            f"`range({snippet(ctx, bound)})` in `{function_name(ctx)}` needs a Python int but "
            f"`{snippet(ctx, bound)}` is traced: JAX raises `TracerIntegerConversionError` "
            f"({why_traced(ctx, bound)}); {cure} `jax.lax.fori_loop` or `jax.vmap`",
            fix=safe_where_it_always_failed(ctx, static, node),
        )

    def traced_bound(self, iterable: ast.expr, ctx: Context) -> ast.expr | None:
        """The first traced argument of ``range(...)``, when ``iterable`` is that call."""
        if not isinstance(iterable, ast.Call) or ctx.qualname(iterable.func) != "builtins.range":
            return None
        return next((a for a in iterable.args if is_traced(ctx.value(a))), None)

    def visit_For(self, node: ast.For, ctx: Context) -> None:
        bound = self.traced_bound(node.iter, ctx) if ctx.abstract else None
        if bound is None:
            return
        name = traced_name(ctx, bound)
        static = static_request(ctx, name, bound)
        staged = computed_by_numpy(ctx, bound)
        cure = f"{static_advice(static, ctx)}, or use" if static else "use"
        cure = f"{numpy_advice(name)}, or use" if staged and not static else cure
        ctx.report(
            node,
            f"`range({snippet(ctx, bound)})` in `{function_name(ctx)}` needs a Python int but "
            f"`{snippet(ctx, bound)}` is traced: JAX raises `TracerIntegerConversionError` "
            f"({why_traced(ctx, bound)}); {cure} `jax.lax.fori_loop`",
            end=node.iter,
            fix=staged or safe_where_it_always_failed(ctx, fori_plan(ctx, node) or static, node),
        )
