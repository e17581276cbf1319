"""JAX106: ``next()`` on an iterator from outside a traced function."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import function_name, outer_owner, why_traced


class IteratorNextInTracedFunction(Rule):
    """## What it does
    Finds `next(it)` inside a traced function (or a `lax` loop body) where `it` is an iterator
    defined outside that function: a global data stream, or a closed-over iterator.

    ## Why is this bad?
    `next` runs only while JAX traces the function (once per compilation), and its result is compiled in as a
    constant. A jitted step that pulls its batch with `next(batches)` trains on the first batch
    forever; a `fori_loop` body that calls `next` sees one element for every iteration.
    A bare `jax.vmap` traces the function again on every
    call, so `next` there is not reported there.

    ## Example
    ```python
    import jax

    batches = iter([1.0, 2.0, 3.0])

    @jax.jit
    def accumulate(w):
        return w + next(batches)
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def accumulate(w, batch):
        return w + batch
    ```

    ## Fix safety
    No automatic fix: the data has to be passed in as an argument (or scanned over with
    `lax.scan`).

    ## References
    - [JAX: Common gotchas, pure functions](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions)
    """

    code = "JAX106"
    traced_only = True
    name = "iterator-next-in-traced-function"
    message = "`next()` on an outside iterator in a traced function runs once, at trace time"
    outcome = "the first element is compiled in and reused on every call or iteration"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.trace_reused or ctx.qualname(node.func) != "builtins.next" or not node.args:
            return
        iterator = node.args[0]
        if not isinstance(iterator, ast.Name) or outer_owner(ctx, iterator.id) is None:
            return
        ctx.report(
            node,
            f"`next({iterator.id})` in `{function_name(ctx)}` runs only while JAX traces it (once per compilation): the "
            f"element it returns is compiled in and reused every time ({why_traced(ctx)}); "
            f"pass the data in as an argument",
        )
