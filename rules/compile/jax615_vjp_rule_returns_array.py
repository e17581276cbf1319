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
    `return` of it returns an array (`return jnp.clip(g, -1.0, 1.0)`) rather than a tuple; and
    the `fwd` rule when it returns the output alone (an array, its own argument) or a tuple of
    other than two items, rather than the pair `(output, residuals)`.

    ## Why is this bad?
    `bwd` returns one cotangent per positional argument of `f`, as a tuple, even when `f` takes a
    single argument: when JAX differentiates `f` it raises `TypeError` ("Custom VJP bwd rule must
    produce an output with the same container (pytree) structure as the args tuple of the
    primal function"). Return `(g,)`. `fwd` returns the output and what `bwd` needs (or
    `None`): otherwise JAX raises `TypeError` ("Custom VJP fwd rule ... must produce a pair").

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
    message = "A rule of a `jax.custom_vjp` returns an array, not the tuple JAX expects"
    outcome = "TypeError when JAX differentiates the function"
    visits_anywhere = frozenset({ast.Call})

    def check_fwd(self, node: ast.Call, primal: FunctionInfo, fwd: FunctionInfo, ctx: Context) -> None:
        """``fwd`` returns the primal output alone (an array, or its own argument), or a tuple
        of other than two items: not the pair ``(output, residuals)`` JAX asks for."""
        values = returned_expressions(fwd.node)
        params = set(fwd.positional_names())
        if not values or not all(_not_a_pair(ctx, value, fwd.scope, params) for value in values):
            return
        ctx.report(
            values[0],
            f"the `fwd` rule `{fwd.name}` of `{primal.name}` (line {node.lineno}) returns "
            f"`{ast.unparse(values[0])}`, not a pair: JAX raises `TypeError` when it differentiates "
            f"`{primal.name}` (a `fwd` rule returns `(output, residuals)`); return "
            f"`({ast.unparse(values[0])}, residuals)`, with what `bwd` needs (or `None`)",
        )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "defvjp" and len(node.args) == 2):
            return
        primal = ctx.model.resolve_function(func.value, ctx.scope) or _rewrapped(ctx, func.value)
        if primal is None or primal[0] not in ctx.model.custom_derivatives:
            return
        fwd = ctx.model.resolve_function(node.args[0], ctx.scope)
        if fwd is not None and not fwd[1]:
            self.check_fwd(node, primal[0], fwd[0], ctx)
        bwd = ctx.model.resolve_function(node.args[1], ctx.scope)
        if bwd is None or bwd[1]:
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


def _rewrapped(ctx: Context, expr: ast.expr) -> tuple[FunctionInfo, int] | None:
    info = ctx.model.wrapped_in_place(expr, ctx.scope)
    return None if info is None else (info, 0)


def _array_returns(ctx: Context, function: FunctionInfo) -> list[ast.expr]:
    """The returned values, when every ``return`` of ``function`` returns a JAX array (none
    when one returns something else, or nothing)."""
    values = returned_expressions(function.node)
    scope = function.scope
    return values if values and all(_is_array(ctx, value, scope) for value in values) else []


def _not_a_pair(ctx: Context, value: ast.expr, scope: Scope, params: set[str]) -> bool:
    """Whether a ``fwd`` rule's returned ``value`` is surely no ``(output, residuals)`` pair: a
    tuple or list display of another length, an array, or one of its own arguments (an
    array of the primal's)."""
    if isinstance(value, (ast.Tuple, ast.List)):
        return len(value.elts) != 2 and not any(isinstance(e, ast.Starred) for e in value.elts)
    if isinstance(value, ast.Name) and value.id in params and scope.bound.get(value.id) == 1:
        return not _taken_apart(scope.node, value.id)
    return _is_array(ctx, value, scope)


def _taken_apart(function: ast.AST, name: str) -> bool:
    """Whether ``function`` indexes or unpacks its parameter ``name`` (then maybe a pair)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            return True
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and any(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets)
        ):
            return True
    return False


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
