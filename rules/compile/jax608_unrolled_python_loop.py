"""JAX608: a long Python loop over arrays, unrolled into the compiled program."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.transforms import STAGED

from ..support.explain import function_name, snippet
from ..support.lifting import counted_while_plan, fori_plan
from .loops import computes_on_arrays, liftable, range_trips, while_trips

THRESHOLD = 100


class UnrolledPythonLoop(Rule):
    """## What it does
    Finds a Python `for` loop over `range(N)` with a static trip count inside code JAX traces
    abstractly, when the loop computes on traced arrays and runs its body 100 times or more
    (counting the static `range` loops around it: `for i in range(10): for j in range(20)` runs the
    inner body 200 times).

    ## Why is this bad?
    JAX traces Python control flow by running it: every iteration is recorded again, so the
    compiled program contains N copies of the loop body. Tracing and compilation time grow with N
    (minutes for thousands of iterations) and so does the program size. `jax.lax.fori_loop` (or
    `lax.scan`) traces the body once and runs it N times, and with static bounds it stays
    reverse-differentiable.

    ## Example
    ```python
    import jax

    @jax.jit
    def decay(x):
        for _ in range(1000):
            x = x * 0.999 + 0.001
        return x
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def decay(x):
        return jax.lax.fori_loop(0, 1000, lambda _, x: x * 0.999 + 0.001, x)
    ```

    ## Fix safety
    The fix rewrites the loop to `jax.lax.fori_loop` carrying the variables the body rebinds, when
    the body only computes with JAX (`jax.numpy`/`lax` calls, array methods and arithmetic: no
    helper calls, no `break`, `continue`, `return`, `yield` or container mutation), and uses the
    loop index only to index JAX arrays; a counted `while i < N:` loop whose last statement is
    `i += 1` (or `i = i + 1`) likewise becomes `jax.lax.fori_loop(i, N, ...)` (`N + 1` for `<=`), where nothing
    reads the counter after the loop (the loop leaves it at `N`, `fori_loop` does not change
    it). Unsafe: every carried variable must keep its shape and
    dtype from one iteration to the next, and the index becomes a tracer.

    The fix rewrites the Example to:
    ```python
    import jax

    @jax.jit
    def decay(x):
        def body_fun(_, x):
            x = x * 0.999 + 0.001
            return x
        x = jax.lax.fori_loop(0, 1000, body_fun, x)
        return x
    ```

    ## References
    - [JAX FAQ: jit compilation is slow](https://docs.jax.dev/en/latest/faq.html)
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    """

    code = "JAX608"
    name = "unrolled-python-loop"
    message = "A long Python loop over arrays is unrolled into the compiled program"
    outcome = "slow tracing and compilation; a program with one copy of the body per iteration"
    fix_title = "Use `jax.lax.fori_loop`"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_For(self, node: ast.For, ctx: Context) -> None:
        if not ctx.abstract:
            return
        count = self.unrolled(ctx, node, range_trips(ctx, node))
        if count is None:
            return
        ctx.report(
            node,
            f"`for ... in {snippet(ctx, node.iter)}` in `{function_name(ctx)}` is unrolled: JAX traces "
            f"its body {count} and {_cost(ctx)}; use `jax.lax.fori_loop` (or `lax.scan`)",
            end=node.iter,
            fix=fori_plan(ctx, node) if liftable(ctx, node) else None,
        )

    def visit_While(self, node: ast.While, ctx: Context) -> None:
        if not ctx.abstract:
            return
        count = self.unrolled(ctx, node, while_trips(ctx, node))
        if count is None:
            return
        ctx.report(
            node,
            f"`while {snippet(ctx, node.test)}` in `{function_name(ctx)}` counts statically, so it is "
            f"unrolled: JAX traces its body {count} and {_cost(ctx)}; use "
            f"`jax.lax.fori_loop` (or `lax.scan`)",
            end=node.test,
            fix=counted_while_plan(ctx, node) if liftable(ctx, node) else None,
        )

    def unrolled(self, ctx: Context, node: ast.For | ast.While, trips: int | None) -> str | None:
        """How many copies of the body the compiled program gets, when that is too many (and the
        loops around this one do not already make it so)."""
        if trips is None:
            return None
        outer = 1
        for loop in ctx.loops:
            if isinstance(loop, ast.For):
                outer *= range_trips(ctx, loop) or 1
        if trips * outer < THRESHOLD or outer >= THRESHOLD or not computes_on_arrays(ctx, node):
            return None
        return f"{trips * outer} times" + ("" if outer == 1 else " (with the loops around it)")


def _cost(ctx: Context) -> str:
    """What the unrolled copies cost: staged into one program and compiled (``jit``, a ``lax``
    body), or, under a bare ``vmap``, run one operation at a time on every call."""
    if ctx.level == STAGED:
        return "compiles every copy"
    return "runs every copy one operation at a time, on every call"
