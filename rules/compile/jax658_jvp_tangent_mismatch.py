"""JAX658: a ``jax.jvp`` tangent written as a Python number that does not match its primal."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.dtypes import dtype_kind
from ..support.explain import snippet

JVP = "jax.jvp"
# constructors whose result has a dimension when given a sequence of data, or a non-empty shape
SEQUENCE_DATA = frozenset({"jax.numpy.array", "jax.numpy.asarray"})
SHAPED = frozenset(f"jax.numpy.{name}" for name in ("ones", "zeros", "full", "empty"))


class JvpTangentMismatch(Rule):
    """## What it does
    Finds `jax.jvp(f, primals, tangents)` whose tangent is a Python number that cannot match
    its primal: a float (a 0-d tangent) for a primal known to have a dimension
    (`jnp.array([0.1, 0.5])`, `jnp.ones(3)`), or an int for a floating-point primal.

    ## Why is this bad?
    A tangent must have its primal's shape and dtype. JAX raises `ValueError: jvp called with
    different primal and tangent shapes` for the scalar tangent of a vector, and `TypeError`
    ("dtypes must be equal") for an integer tangent (measured with JAX 0.10.2). A directional
    derivative passes the direction, `jnp.ones_like(x)` or a unit vector of its shape.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    pos = jnp.array([0.1, 0.5, -0.3])
    value, slope = jax.jvp(lambda p: jnp.sum(p**2), (pos,), (1.0,))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    pos = jnp.array([0.1, 0.5, -0.3])
    value, slope = jax.jvp(lambda p: jnp.sum(p**2), (pos,), (jnp.ones_like(pos),))
    ```

    ## Fix safety
    No automatic fix: the direction is the author's.

    ## References
    - [jax.jvp](https://docs.jax.dev/en/latest/_autosummary/jax.jvp.html)
    """

    code = "JAX658"
    mentioned = frozenset({"jvp"})
    name = "jvp-tangent-mismatch"
    message = "A `jax.jvp` tangent is a Python number that does not match its primal"
    outcome = "ValueError (shapes differ) or TypeError (dtypes differ)"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) < 3 or ctx.qualname(node.func) != JVP:
            return
        primals, tangents = node.args[1], node.args[2]
        if not isinstance(primals, (ast.Tuple, ast.List)) or not isinstance(tangents, (ast.Tuple, ast.List)):
            return
        for primal, tangent in zip(primals.elts, tangents.elts, strict=False):
            problem = self.mismatch(ctx, primal, tangent)
            if problem is not None:
                ctx.report(
                    tangent,
                    f"the tangent `{snippet(ctx, tangent)}` of primal `{snippet(ctx, primal)}` {problem}; "
                    f"pass a tangent of the primal's shape and dtype (`jnp.ones_like(...)`)",
                )
                return

    def mismatch(self, ctx: Context, primal: ast.expr, tangent: ast.expr) -> str | None:
        if not isinstance(tangent, ast.Constant) or isinstance(tangent.value, bool):
            return None
        if isinstance(tangent.value, int):
            kind = dtype_kind(ctx.model, primal, ctx.scope)
            if kind is not None and kind.kind == "float":
                return "is an integer, the primal a float: JAX raises `TypeError` (the dtypes must be equal)"
        if isinstance(tangent.value, (int, float)) and _not_0d(ctx, primal, ctx.scope):
            return "is a scalar, the primal an array of one or more dimensions: JAX raises `ValueError` (shapes differ)"
        return None


def _not_0d(ctx: Context, expr: ast.expr, scope: Scope) -> bool:
    """Whether ``expr`` is an array the code makes with at least one dimension: ``jnp.array`` of
    a list or tuple display, ``jnp.ones(3)`` or ``jnp.zeros((2, 3))`` (a literal shape, not
    ``()``), or a name bound once to one."""
    expr, scope = scope.followed(expr)
    if not isinstance(expr, ast.Call) or not expr.args:
        return False
    qualname = ctx.model.qualname(expr.func, scope)
    first = expr.args[0]
    if qualname in SEQUENCE_DATA:
        return isinstance(first, (ast.List, ast.Tuple))
    if qualname in SHAPED:
        if isinstance(first, (ast.Tuple, ast.List)):
            return bool(first.elts)
        return (
            isinstance(first, ast.Constant)
            and isinstance(first.value, int)
            and not isinstance(first.value, bool)
        )
    return False
