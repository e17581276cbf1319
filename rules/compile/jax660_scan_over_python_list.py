"""JAX660: ``lax.scan`` over a Python list of arrays, its body using each step's slice as an array."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope

from ..support.callsites import local_function
from ..support.explain import snippet

SCAN = "jax.lax.scan"


class ScanOverPythonList(Rule):
    """## What it does
    Finds `jax.lax.scan(body, init, xs)` where `xs` is a Python list (a display, a
    comprehension, or a name bound once to one) and the body does arithmetic on its second
    parameter as if it were one array: `lax.scan(smooth, init, frames)` with
    `frames = [jnp.full(3, t) for t in range(5)]` and `acc = 0.9 * acc + frame` in `smooth`.

    ## Why is this bad?
    A list is a pytree: `scan` slices every array in it along its own leading axis, so each
    step's `x` is a list of slices (one per array), not one array per list element, and the
    arithmetic raises `TypeError: unsupported operand type(s) for +: ... and 'list'` (measured
    with JAX 0.10.2). Stack the list first, `jnp.stack(frames)`, to scan over its elements.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    frames = [jnp.full((3,), float(t)) for t in range(5)]

    def smooth(acc, frame):
        acc = 0.9 * acc + frame
        return acc, acc

    lax.scan(smooth, jnp.zeros(3), frames)
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    from jax import lax

    frames = [jnp.full((3,), float(t)) for t in range(5)]

    def smooth(acc, frame):
        acc = 0.9 * acc + frame
        return acc, acc

    lax.scan(smooth, jnp.zeros(3), jnp.stack(frames))
    ```

    ## Fix safety
    No automatic fix.

    ## References
    - [jax.lax.scan](https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html)
    """

    code = "JAX660"
    mentioned = frozenset({"scan"})
    name = "scan-over-python-list"
    message = "`lax.scan` over a Python list whose body treats each step's value as one array"
    outcome = "TypeError: the body gets a list of slices, not an array"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) < 3 or any(isinstance(a, ast.Starred) for a in node.args[:3]):
            return
        if ctx.qualname(node.func) != SCAN:
            return
        xs = node.args[2]
        if not _python_list(ctx, xs, ctx.scope):
            return
        body = local_function(ctx, node.args[0])
        if body is None:
            return
        params = [a.arg for a in (*body.args.posonlyargs, *body.args.args)]
        if len(params) != 2 or body.args.vararg:
            return
        use = _arithmetic_use(body, params[1])
        if use is None:
            return
        ctx.report(
            xs,
            f"`{snippet(ctx, xs)}` is a Python list: `scan` slices each of its arrays along its own "
            f"leading axis, so `{params[1]}` is a list of slices at every step, and "
            f"`{snippet(ctx, use)}` (line {use.lineno}) raises `TypeError`; scan over "
            f"`jnp.stack({snippet(ctx, xs)})`",
        )


def _python_list(ctx: Context, expr: ast.expr, scope: Scope) -> bool:
    """A list of arrays: a display or a comprehension whose elements a ``jax`` function makes
    (a list of numbers is JAX407's: it fails otherwise), or a name bound once to one."""
    expr, scope = scope.followed(expr)
    if isinstance(expr, ast.ListComp):
        return _array_made(ctx, expr.elt, scope)
    return (
        isinstance(expr, ast.List) and bool(expr.elts) and all(_array_made(ctx, e, scope) for e in expr.elts)
    )


def _array_made(ctx: Context, expr: ast.expr, scope: Scope) -> bool:
    """A call of a ``jax`` function (``jnp.full(3, t)``), which makes an array."""
    return isinstance(expr, ast.Call) and (ctx.model.qualname(expr.func, scope) or "").startswith("jax.")


ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.MatMult)


def _operand_of_arithmetic(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ARITHMETIC)
        and any(isinstance(side, ast.Name) and side.id == name for side in (node.left, node.right))
    )


def _arithmetic_use(body: ast.FunctionDef | ast.Lambda, name: str) -> ast.expr | None:
    """An arithmetic operation with ``name`` itself as an operand, where the body never reads
    it as a list (indexes, unpacks or iterates it) and never rebinds it."""
    found: ast.expr | None = None
    for node in ast.walk(body):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return None
        if (
            isinstance(node, (ast.Subscript, ast.Starred))
            and isinstance(node.value, ast.Name)
            and node.value.id == name
        ):
            return None
        if (
            isinstance(node, (ast.For, ast.comprehension))
            and isinstance(node.iter, ast.Name)
            and node.iter.id == name
        ):
            return None
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id == name:
            return None  # `a, b = x`, or an alias
        if found is None and isinstance(node, ast.BinOp) and _operand_of_arithmetic(node, name):
            found = node
    return found
