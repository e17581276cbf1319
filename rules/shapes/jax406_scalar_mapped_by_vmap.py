"""JAX406: a Python number passed where ``jax.vmap`` maps an axis."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet
from ..support.layers import called_layer, literal_in_axes

MAPPING = frozenset({"jax.vmap"})


class ScalarMappedByVmap(Rule):
    """## What it does
    Finds a call of a `jax.vmap`-ped function (also under `jax.jit`) that passes a Python
    number (`2.0`, `True`), or a 0-d array made from one (`jnp.asarray(0.5)`, `jnp.float32(2)`),
    written there or bound once to a name, where `vmap` maps an axis: a positional
    argument whose `in_axes` entry is an integer (`in_axes=0` by default), or any keyword
    argument, which `vmap` always maps along axis 0.

    ## Why is this bad?
    A number has no axis to map over: JAX raises `ValueError` ("vmap was requested to map its
    argument along axis 0, which implies that its rank should be at least 1, but is only 0").
    Mark the argument unmapped with `None` in `in_axes` (`in_axes=(0, None)`), and pass it by
    position, or close over it.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def scaled_norm(v, scale):
        return scale * jnp.linalg.norm(v)

    jax.vmap(scaled_norm)(jnp.ones((5, 3)), 2.0)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def scaled_norm(v, scale):
        return scale * jnp.linalg.norm(v)

    jax.vmap(scaled_norm, in_axes=(0, None))(jnp.ones((5, 3)), 2.0)
    ```

    ## Fix safety
    No automatic fix: whether the argument was meant to be a batch is the author's call.

    ## References
    - [jax.vmap](https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html)
    """

    code = "JAX406"
    name = "scalar-mapped-by-vmap"
    message = "A Python number is passed where `jax.vmap` maps an axis"
    outcome = "ValueError: vmap cannot map an argument of rank 0"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        candidates = [*node.args, *(k.value for k in node.keywords)]
        if not any(_python_number(ctx, a) for a in candidates):
            return  # cheap first: most calls pass no Python scalar
        layer = called_layer(ctx, node.func, MAPPING)
        if layer is None:
            return
        axes = literal_in_axes(layer)
        if axes is None or any(isinstance(a, ast.Starred) for a in node.args):
            return
        mapped: list[ast.expr] = [
            argument
            for index, argument in enumerate(node.args)
            if (axes if isinstance(axes, int) else axes[index] if index < len(axes) else None) is not None
        ]
        if isinstance(axes, int) or len(axes) == len(node.args):
            # keywords are mapped along axis 0 (a tuple `in_axes` of another length than the
            # positional arguments raises about `in_axes` itself)
            mapped += [k.value for k in node.keywords if k.arg is not None]
        for argument in mapped:
            if _python_number(ctx, argument):
                ctx.report(
                    argument,
                    f"`{snippet(ctx, argument)}` is a scalar of rank 0, but `jax.vmap` (line "
                    f"{layer.site.lineno}) maps this argument along an axis: JAX raises `ValueError` "  # pyright: ignore[reportAttributeAccessIssue]
                    f"(an argument of rank 0 has no axis to map); mark it unmapped with `None` in "
                    f"`in_axes` and pass it by position, or close over it",
                )
                return


def _python_number(ctx: Context, argument: ast.expr, depth: int = 0, scope: Scope | None = None) -> bool:
    """A Python number, or a 0-d array made from one (``jnp.asarray(0.5)``, ``jnp.float32(2)``),
    written there or bound once to a name: no axis to map."""
    scope = scope or ctx.scope
    if isinstance(argument, ast.UnaryOp) and isinstance(argument.op, ast.USub):
        argument = argument.operand
    if isinstance(argument, ast.Constant):
        return type(argument.value) in (int, float, bool)
    if isinstance(argument, ast.Call) and len(argument.args) == 1 and depth < 3 and _scalar_maker(argument):
        qualname = ctx.model.qualname(argument.func, scope) or ""
        scalar = qualname in ZERO_D_MAKERS or qualname.removeprefix("jax.numpy.") in SCALAR_TYPES
        return scalar and _python_number(ctx, argument.args[0], depth + 1, scope)
    if isinstance(argument, ast.Name) and depth < 3:
        found = scope.bound_value(argument.id)
        return found is not None and _python_number(ctx, found[0], depth + 1, found[1])
    return False


def _scalar_maker(call: ast.Call) -> bool:
    """A cheap look at the name a call is written with: ``asarray``, ``float32``..."""
    tail = callee_leaf(call)
    return tail in ("array", "asarray") or tail in SCALAR_TYPES


# `jnp.asarray(0.5)`: a 0-d array made from a number (measured: vmap raises as for the number)
ZERO_D_MAKERS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
SCALAR_TYPES = frozenset(
    {"float32", "float16", "bfloat16", "float64", "int32", "int8", "int16", "int64", "uint8", "uint32"}
)
