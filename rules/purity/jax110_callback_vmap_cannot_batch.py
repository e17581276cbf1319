"""JAX110: a host callback that ``vmap`` cannot batch, in a function ``vmap`` maps."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.functions import FunctionInfo

from ..support.explain import function_name, snippet

PURE_CALLBACK = "jax.pure_callback"
IO_CALLBACKS = frozenset({"jax.experimental.io_callback"})
BATCHING_KINDS = frozenset({"vmap", "filter_vmap"})
DEPTH = 4  # callers followed up to a vmap


class CallbackVmapCannotBatch(Rule):
    """## What it does
    Finds a host callback that `jax.vmap` cannot batch, in a function that `vmap` maps (itself,
    or a function it is called from or nested in): `jax.pure_callback(...)` without
    `vmap_method=`, and `io_callback(..., ordered=True)`.

    ## Why is this bad?
    `vmap` must know how to run the host function on a batch. Without `vmap_method`, JAX raises
    `NotImplementedError` ("vmap is only supported for the pure_callback primitive when
    vmap_method is one of ..."); an ordered `io_callback` cannot be batched at all (`ValueError:
    Cannot vmap ordered IO callback`). Measured with JAX 0.10.2, under `vmap` and under
    `jit(vmap(...))`. `vmap_method="sequential"` calls the host function once per element;
    `"expand_dims"`/`"broadcast_all"` hand it the whole batch.

    ## Example
    ```python
    import jax
    import numpy as np

    def sinc(x):
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(np.sinc, out, x)

    y = jax.vmap(sinc)(jax.numpy.ones((4, 3)))
    ```

    ## Use instead
    ```python
    import jax
    import numpy as np

    def sinc(x):
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(np.sinc, out, x, vmap_method="sequential")

    y = jax.vmap(sinc)(jax.numpy.ones((4, 3)))
    ```

    ## Fix safety
    No automatic fix: which `vmap_method` the host function supports is the author's call.

    ## References
    - [jax.pure_callback](https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html)
    - [External callbacks](https://docs.jax.dev/en/latest/external-callbacks.html)
    """

    code = "JAX110"
    mentioned = frozenset({"callback"})
    name = "callback-vmap-cannot-batch"
    message = "A host callback that `vmap` cannot batch runs in a function `vmap` maps"
    outcome = "NotImplementedError / ValueError when vmap traces it"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        qualname = ctx.qualname(node.func)
        if qualname == PURE_CALLBACK:
            if keyword_argument(node, "vmap_method") is not None or keyword_argument(node, "vectorized"):
                return
            error, cure = "`NotImplementedError`", 'pass `vmap_method=` (`"sequential"` runs it per element)'
        elif qualname in IO_CALLBACKS:
            ordered = keyword_argument(node, "ordered")
            if not (isinstance(ordered, ast.Constant) and ordered.value is True):
                return
            error, cure = "`ValueError` (an ordered callback cannot be batched)", "drop `ordered=True`"
        else:
            return
        mapped = _mapped(ctx.function, 0) if ctx.function is not None else None
        if mapped is None or any(isinstance(a, ast.Starred) for a in node.args):
            return
        where = "" if mapped is ctx.function else f" (called within `{mapped.name}`)"
        why = f" ({mapped.why})" if "vmap" in mapped.why else ""
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` in `{function_name(ctx)}`{where}: `vmap` maps it{why} and cannot "
            f"batch this callback: JAX raises {error}; {cure}",
        )


def _mapped(info: FunctionInfo, depth: int) -> FunctionInfo | None:
    """The function that a ``vmap`` maps, among ``info``, the functions it is nested in and the
    functions that call it."""
    if info.transformed_by & BATCHING_KINDS:
        return info
    if depth >= DEPTH:
        return None
    for other in [*([info.parent] if info.parent is not None else []), *info.callers]:
        found = _mapped(other, depth + 1)
        if found is not None:
            return found
    return None
