"""JAX615: the ``bwd`` rule of a ``jax.custom_vjp`` returns an array, not a tuple."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import is_jax_array, is_traced


class VjpRuleReturnsArray(Rule):
    """## What it does
    Finds the `bwd` rule given to `f.defvjp(fwd, bwd)` of a `jax.custom_vjp` function when every
    `return` of it returns an array (`return jnp.clip(g, -1.0, 1.0)`) rather than a tuple.

    ## Why is this bad?
    `bwd` returns one cotangent per positional argument of `f`, as a tuple, even when `f` takes a
    single argument: when JAX differentiates `f` it raises `TypeError` ("Custom VJP bwd rule must
    produce an output with the same container (pytree) structure as the args tuple of the
    primal function"). Return `(g,)`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.custom_vjp
    def clip_gradient(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        return jnp.clip(g, -1.0, 1.0)

    clip_gradient.defvjp(fwd, bwd)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.custom_vjp
    def clip_gradient(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        return (jnp.clip(g, -1.0, 1.0),)

    clip_gradient.defvjp(fwd, bwd)
    ```

    ## Fix safety
    No automatic fix yet: wrapping the value in a one-element tuple is right for a function of
    one argument; a function of several needs a cotangent for each.

    ## References
    - [Custom derivative rules](https://docs.jax.dev/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html)
    """

    code = "JAX615"
    name = "vjp-rule-returns-array"
    message = "The `bwd` rule of a `jax.custom_vjp` returns an array, not a tuple"
    outcome = "TypeError when JAX differentiates the function"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "defvjp" and len(node.args) == 2):
            return
        primal = ctx.model.resolve_function(func.value, ctx.scope)
        bwd = ctx.model.resolve_function(node.args[1], ctx.scope)
        if primal is None or primal[0] not in ctx.model.custom_derivatives or bwd is None or bwd[1]:
            return
        returned = _array_returns(ctx, bwd[0])
        if not returned:
            return
        count = len(primal[0].positional_names()) - len(ctx.model.custom_derivatives[primal[0]])
        remedy = (
            f"return `({ast.unparse(returned[0])},)`"
            if count == 1
            else f"return a tuple of {count} cotangents, one per differentiable argument"
        )
        ctx.report(
            returned[0],
            f"the `bwd` rule `{bwd[0].name}` of `{primal[0].name}` (line {node.lineno}) returns an "
            f"array: JAX raises `TypeError` when it differentiates `{primal[0].name}` (a `bwd` rule "
            f"returns a tuple, one cotangent per positional argument); {remedy}",
        )


def _array_returns(ctx: Context, function: FunctionInfo) -> list[ast.expr]:
    """The returned values, when every ``return`` of ``function`` returns a JAX array (none
    when one returns something else, or nothing)."""
    values = returned_expressions(function.node)
    scope = function.scope
    return values if values and all(_is_array(ctx, value, scope) for value in values) else []


# arithmetic that on two tracers gives an array (`+` would join two tuples)
ARRAY_ARITHMETIC = (ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.MatMult)


def _is_array(ctx: Context, value: ast.expr, scope: Scope) -> bool:
    """Whether ``value`` is a JAX array: known to be one, or arithmetic on two tracers."""
    if is_jax_array(ctx.model.value(value, scope)):
        return True
    return (
        isinstance(value, ast.BinOp)
        and isinstance(value.op, ARRAY_ARITHMETIC)
        and is_traced(ctx.model.value(value.left, scope))
        and is_traced(ctx.model.value(value.right, scope))
    )
