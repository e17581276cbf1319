"""JAX309: a ``jax.random`` sampler given a ``dtype`` of a kind it cannot draw."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.dtypes import named_dtype_kind
from ..support.explain import snippet

ALTERNATIVES = {
    "float": "draw floats and convert, or use `jax.random.randint` for integers",
    "int": "use an integer dtype, or a float sampler (`jax.random.uniform`)",
}


class SamplerDtypeOfWrongKind(Rule):
    """## What it does
    Finds a `jax.random` sampler called with a `dtype` of a kind it cannot draw: an integer
    dtype for a float sampler (`uniform`, `normal`, `exponential`, `gamma`, ...), or a float
    dtype for an integer one (`randint`, `poisson`, `geometric`). Which sampler takes which kind
    is measured by running JAX.

    ## Why is this bad?
    JAX raises at the call, eagerly and under `jit` (measured with JAX 0.10.2:
    `jax.random.uniform(key, (), minval=0, maxval=10, dtype=jnp.int32)` raises `ValueError:
    dtype argument to uniform must be a float dtype`). A random integer in a range is
    `jax.random.randint(key, shape, minval, maxval)`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    action = jax.random.uniform(jax.random.key(0), (), minval=0, maxval=4, dtype=jnp.int32)
    ```

    ## Use instead
    ```python
    import jax

    action = jax.random.randint(jax.random.key(0), (), 0, 4)
    ```

    ## Fix safety
    No automatic fix: which sampler was meant is the author's call.

    ## References
    - [jax.random](https://docs.jax.dev/en/latest/jax.random.html)
    """

    code = "JAX309"
    mentioned = frozenset({"dtype"})
    name = "sampler-dtype-of-wrong-kind"
    message = "A jax.random sampler is given a dtype of a kind it cannot draw"
    outcome = "ValueError (or TypeError) at the call"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        dtype = keyword_argument(node, "dtype")
        if dtype is None:
            return
        qualname = ctx.qualname(node.func)
        wanted = measured.sampler_dtype_kinds().get(qualname or "")
        given = named_dtype_kind(ctx.model, dtype, ctx.scope)
        if wanted is None or given is None or given.kind == wanted or given.kind == "bool":
            return
        ctx.report(
            node,
            f"`{qualname}` draws only {'floating-point' if wanted == 'float' else 'integer'} values, but "
            f"is given `dtype={snippet(ctx, dtype)}`: JAX raises at the call; {ALTERNATIVES[wanted]}",
        )
