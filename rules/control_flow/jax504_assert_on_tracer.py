"""JAX504: ``assert`` on a traced value."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import function_name, snippet, why_traced
from .conditions import converts_tracer


class AssertOnTracer(Rule):
    """## What it does
    Finds `assert` statements whose condition is a traced value, inside code JAX traces
    abstractly. Assertions on static facts (`assert x.ndim == 2`, `assert x.shape == y.shape`)
    are fine and are not reported.

    ## Why is this bad?
    `assert` calls `bool()` on its condition while JAX traces the function, when a traced value
    has no concrete value, so JAX raises `jax.errors.TracerBoolConversionError`. Runtime checks on
    values need `jax.experimental.checkify` (or `equinox.error_if`), or `jax.debug.callback`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def safe_log(x):
        assert jnp.all(x > 0), "log of non-positive value"
        return jnp.log(x)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import checkify

    def safe_log(x):
        checkify.check(jnp.all(x > 0), "log of non-positive value")
        return jnp.log(x)

    checked_log = jax.jit(checkify.checkify(safe_log))
    ```

    ## Fix safety
    No automatic fix: a runtime check needs `checkify` and a change in how the function is
    called.

    ## References
    - [jax.errors.TracerBoolConversionError](https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerBoolConversionError)
    - [JAX: checkify](https://docs.jax.dev/en/latest/debugging/checkify_guide.html)
    """

    code = "JAX504"
    traced_only = True
    name = "assert-on-tracer"
    message = "`assert` on a traced value"
    outcome = "jax.errors.TracerBoolConversionError"

    def visit_Assert(self, node: ast.Assert, ctx: Context) -> None:
        if not ctx.abstract:
            return
        culprit = converts_tracer(ctx, node.test)
        if culprit is None:
            return
        ctx.report(
            node,
            f"`assert` on traced `{snippet(ctx, culprit)}` in `{function_name(ctx)}` raises "
            f"`TracerBoolConversionError` ({why_traced(ctx, culprit)}); "
            f"use `jax.experimental.checkify` for runtime checks",
            end=node.test,
        )
