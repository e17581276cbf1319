"""JAX209: ``p -= lr * g`` on the loop variable of ``for p, g in zip(params, grads)``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import is_jax_array, is_traced

from ..support.explain import snippet

ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.FloorDiv)


class AugmentedLoopVariable(Rule):
    """## What it does
    Finds `p -= lr * g` (or `+=`, `*=`, ...) on the variable of the loop around it
    (`for p, g in zip(params, grads):`), when `p` holds a JAX array (known, or the module's
    only array library is JAX) and the loop reads `p` no more after it.

    ## Why is this bad?
    NumPy's `-=` updates an array in place, so the NumPy version of this loop updates
    `params`. A JAX array is immutable: `p -= lr * g` makes a new array and binds it to the
    loop variable only, which the next iteration replaces. The container keeps its old
    arrays, and the step does nothing. Nothing raises. Build the new values:
    `params = [p - lr * g for p, g in zip(params, grads)]`, or
    `jax.tree.map(lambda p, g: p - lr * g, params, grads)`.

    ## Example
    ```python
    import jax.numpy as jnp

    def sgd_step(params, grads, lr=0.1):
        for p, g in zip(params, grads):
            p -= lr * g
        return params

    new_params = sgd_step([jnp.ones(3)], [jnp.ones(3)])
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def sgd_step(params, grads, lr=0.1):
        return [p - lr * g for p, g in zip(params, grads)]

    new_params = sgd_step([jnp.ones(3)], [jnp.ones(3)])
    ```

    ## Fix safety
    No automatic fix: where the new values go (a new list, the container's items) is the
    author's call.

    ## References
    - [JAX: Common gotchas, in-place updates](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates)
    """

    code = "JAX209"
    name = "augmented-loop-variable"
    message = "An augmented assignment to a loop variable holding a JAX array updates nothing"
    outcome = "the container keeps its old arrays: the update is lost, silently"
    severity = "warning"
    visits_anywhere = frozenset({ast.AugAssign})

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        target = node.target
        if not isinstance(target, ast.Name) or not isinstance(node.op, ARITHMETIC) or not ctx.loops:
            return
        loop = ctx.loops[-1]
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or target.id not in _loop_names(loop.target):
            return
        if _counts(ctx, loop.iter) or not _arithmetic(ctx, node.value) or _read_later(loop, node, target.id):
            return
        if not _immutable_array(ctx, target):
            return
        source = _container(loop.iter)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` binds a new value to the loop variable `{target.id}` only: a JAX "
            f"array (like a Python number) is immutable, where NumPy's `{_symbol(node.op)}=` would update "
            f"the array in place, so "
            f"{f'`{source}`' if source else 'what the loop iterates over'} keeps its old arrays and the "
            f"update is lost; build the new values (a list comprehension, or `jax.tree.map`)",
        )


def _arithmetic(ctx: Context, value: ast.expr) -> bool:
    """Whether ``value`` is arithmetic (``lr * g``, a number, an array): not a list that ``+=``
    would extend in place."""
    if isinstance(value, (ast.BinOp, ast.UnaryOp)):
        return True
    if isinstance(value, ast.Constant):
        return type(value.value) in (int, float)
    known = ctx.value(value)
    return is_jax_array(known) or is_traced(known)


def _loop_names(target: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _counts(ctx: Context, iterable: ast.expr) -> bool:
    """``range(n)``: the loop variable is a Python int, whatever happens to it."""
    return isinstance(iterable, ast.Call) and ctx.qualname(iterable.func) == "builtins.range"


def _read_later(loop: ast.For | ast.AsyncFor, node: ast.AugAssign, name: str) -> bool:
    """Whether the loop body reads ``name`` in a statement after ``node`` (the new value used)."""
    seen = False
    for statement in loop.body:
        if seen and any(
            isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
            for n in ast.walk(statement)
        ):
            return True
        if statement is node or any(n is node for n in ast.walk(statement)):
            if statement is not node:
                return True  # nested in a branch or a loop: leave it alone
            seen = True
    return False


def _immutable_array(ctx: Context, target: ast.Name) -> bool:
    """Whether the loop variable holds a JAX array: known to, or the module's only array
    library is JAX (a NumPy array would be updated in place)."""
    value = ctx.value(target)
    return is_jax_array(value) or is_traced(value) or ctx.model.jax_is_only_array_library


def _container(iterable: ast.expr) -> str | None:
    """``params`` in ``zip(params, grads)``, ``enumerate(params)`` or ``params``."""
    if isinstance(iterable, ast.Call) and iterable.args and isinstance(iterable.args[0], ast.Name):
        return iterable.args[0].id
    return iterable.id if isinstance(iterable, ast.Name) else None


def _symbol(op: ast.operator) -> str:
    return {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.FloorDiv: "//"}[
        type(op)
    ]
