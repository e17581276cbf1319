"""JAX657: ``jax.vmap(f, out_axes=None)`` where ``f`` returns what its mapped arguments make."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions

from ..support.callsites import local_function
from ..support.explain import snippet

VMAP = "jax.vmap"
# what reads only the shape of a mapped value, which vmap keeps unbatched
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size"})
SHAPE_ONLY_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.type",
        *(
            f"jax.numpy.{name}"
            for name in ("zeros_like", "ones_like", "full_like", "empty_like", "shape", "ndim")
        ),
    }
)


class VmapUnmappedOutputBatched(Rule):
    """## What it does
    Finds `jax.vmap(f, ..., out_axes=None)` where every value `f` returns is computed from an
    argument that `in_axes` maps: `jax.vmap(per_example_loss, in_axes=(None, 0, 0),
    out_axes=None)` with `per_example_loss(w, x, y)` returning `(x @ w - y) ** 2`.

    ## Why is this bad?
    `out_axes=None` says the output is the same for every mapped element, so `vmap` returns it
    once, unbatched. An output computed from a mapped argument differs per element, and JAX
    raises `ValueError: at vmap out_axes, got axis spec None but output was batched on axis 0`
    (measured with JAX 0.10.2). Map the output (`out_axes=0`, the default) and reduce it
    afterwards.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def per_example_loss(w, x, y):
        return (jnp.dot(x, w) - y) ** 2

    losses = jax.vmap(per_example_loss, in_axes=(None, 0, 0), out_axes=None)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def per_example_loss(w, x, y):
        return (jnp.dot(x, w) - y) ** 2

    losses = jax.vmap(per_example_loss, in_axes=(None, 0, 0))
    ```

    ## Fix safety
    No automatic fix: the caller may rely on an unbatched result.

    ## References
    - [jax.vmap](https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html)
    """

    code = "JAX657"
    mentioned = frozenset({"out_axes"})
    name = "vmap-unmapped-output-batched"
    message = "`jax.vmap(..., out_axes=None)` of a function whose output depends on a mapped argument"
    outcome = "ValueError: at vmap out_axes, got axis spec None but output was batched"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        out_axes = keyword_argument(node, "out_axes") or (node.args[2] if len(node.args) > 2 else None)
        if not (isinstance(out_axes, ast.Constant) and out_axes.value is None) or not node.args:
            return
        if ctx.qualname(node.func) != VMAP:
            return
        function = local_function(ctx, node.args[0])
        if function is None:
            return
        mapped = _mapped_params(node, function)
        if not mapped:
            return
        returned = returned_expressions(function)
        read = [_batched_read(ctx, value, mapped) for value in returned]
        if not returned or any(name is None for name in read):
            return
        first = read[0]
        ctx.report(
            out_axes,
            f"`out_axes=None` says `{snippet(ctx, node.args[0])}` returns the same value for every mapped "
            f"element, but it returns what the mapped `{first.id if first else '?'}` makes (line "
            f"{returned[0].lineno}): JAX raises `ValueError` (the output is batched); map the output "
            f"(`out_axes=0`) and reduce it afterwards",
        )


def _mapped_params(call: ast.Call, function: ast.FunctionDef | ast.Lambda) -> set[str]:
    """The parameters ``in_axes`` maps (all with the default ``0``); empty where it does not say."""
    args = function.args
    if args.vararg or args.kwarg:
        return set()
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    in_axes = keyword_argument(call, "in_axes")
    if in_axes is None and len(call.args) > 1:
        in_axes = call.args[1]
    if in_axes is None or (isinstance(in_axes, ast.Constant) and isinstance(in_axes.value, int)):
        return set(names)
    if not isinstance(in_axes, (ast.Tuple, ast.List)) or len(in_axes.elts) != len(names):
        return set()
    return {
        name
        for name, axis in zip(names, in_axes.elts, strict=True)
        if isinstance(axis, ast.Constant) and isinstance(axis.value, int)
    }


def _batched_read(ctx: Context, expr: ast.AST, mapped: set[str]) -> ast.Name | None:
    """A mapped parameter whose value ``expr`` carries (not through its shape alone)."""
    if isinstance(expr, ast.Name):
        return expr if expr.id in mapped and isinstance(expr.ctx, ast.Load) else None
    if isinstance(expr, ast.Attribute) and expr.attr in STATIC_ATTRIBUTES:
        return None
    if isinstance(expr, ast.Call) and ctx.qualname(expr.func) in SHAPE_ONLY_CALLS:
        return None
    if isinstance(expr, (ast.Lambda, ast.comprehension)):
        return None
    for child in ast.iter_child_nodes(expr):
        found = _batched_read(ctx, child, mapped)
        if found is not None:
            return found
    return None
