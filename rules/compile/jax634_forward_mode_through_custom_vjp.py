"""JAX634: forward-mode differentiation of a function that calls a ``jax.custom_vjp`` function."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope

from ..support.blocks import own_nodes
from ..support.explain import snippet

# transformations that push JVP tracers into the function: `hessian` is `jacfwd` of `jacrev`
# (measured with JAX 0.10.2: `jax.linearize` of a custom_vjp function works)
FORWARD_MODE = {"jax.jvp": "jvp", "jax.jacfwd": "jacfwd", "jax.hessian": "hessian"}
MAX_DEPTH = 6  # helpers followed from the differentiated function


class ForwardModeThroughCustomVjp(Rule):
    """## What it does
    Finds `jax.jvp`, `jax.jacfwd` or `jax.hessian` applied to a function that calls a
    `jax.custom_vjp` function of this module, directly or through its helpers and the
    transformations around them (`jax.jacfwd(jax.grad(energy))`).

    ## Why is this bad?
    A `custom_vjp` function defines only its reverse-mode derivative. Forward mode (a JVP)
    cannot go through it: JAX raises `TypeError: can't apply forward-mode autodiff (jvp) to a
    custom_vjp function.` `jax.hessian` is `jacfwd(jacrev(f))`, so it fails too. Use
    reverse mode twice (`jax.jacrev(jax.jacrev(f))`), or define the derivative with
    `jax.custom_jvp`, which supports both modes.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.custom_vjp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    softplus.defvjp(lambda x: (softplus(x), x), lambda x, g: (g * jax.nn.sigmoid(x),))

    def energy(x):
        return jnp.sum(softplus(x))

    curvature = jax.hessian(energy)(jnp.array([0.5, -0.5]))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.custom_vjp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    softplus.defvjp(lambda x: (softplus(x), x), lambda x, g: (g * jax.nn.sigmoid(x),))

    def energy(x):
        return jnp.sum(softplus(x))

    curvature = jax.jacrev(jax.jacrev(energy))(jnp.array([0.5, -0.5]))
    ```

    ## Fix safety
    No automatic fix: whether to differentiate in reverse mode twice or to write a
    `custom_jvp` rule is the author's call.

    ## References
    - [JAX: Custom derivative rules](https://docs.jax.dev/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html)
    """

    code = "JAX634"
    name = "forward-mode-through-custom-vjp"
    message = "Forward-mode differentiation reaches a `jax.custom_vjp` function"
    outcome = "TypeError: can't apply forward-mode autodiff (jvp) to a custom_vjp function"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.model.custom_vjps or not node.args or ctx.mentions("stop_gradient"):
            return  # (a stopped input carries no tangent into the custom_vjp function)
        mode = FORWARD_MODE.get(ctx.qualname(node.func) or "")
        if mode is None:
            return
        found = _custom_vjp_reached(ctx, node.args[0], ctx.scope)
        if found is None:
            return
        custom, path = found
        through = f", through {' and '.join(path)}," if path else ""
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` differentiates in forward mode{' (hessian is jacfwd of jacrev)' * (mode == 'hessian')}"
            f"{through} into `{custom.name}`, a `jax.custom_vjp` function (line {custom.node.lineno}): JAX "
            f"raises `TypeError` (can't apply forward-mode autodiff (jvp) to a custom_vjp function); "
            f"differentiate in reverse mode (`jax.jacrev(jax.jacrev(f))` for a Hessian), or define "
            f"the rule with `jax.custom_jvp`",
        )


def _custom_vjp_reached(ctx: Context, expr: ast.expr, scope: Scope) -> tuple[FunctionInfo, list[str]] | None:
    """The ``custom_vjp`` function of this module that the function ``expr`` names calls, at
    most ``MAX_DEPTH`` helpers deep, and the helpers on the way."""
    seen: set[FunctionInfo] = set()
    start = _function_named(ctx, expr, scope)
    frontier: list[tuple[FunctionInfo, list[str]]] = [] if start is None else [(start, [])]
    for _ in range(MAX_DEPTH):
        following: list[tuple[FunctionInfo, list[str]]] = []
        for info, path in frontier:
            if info in ctx.model.custom_vjps:
                return info, path
            if info in seen:
                continue
            seen.add(info)
            body = (
                info.node.body
                if isinstance(info.node, (ast.FunctionDef, ast.AsyncFunctionDef))
                else [info.node.body]
            )
            calls = [node for node in own_nodes(body) if isinstance(node, ast.Call)]  # pyright: ignore[reportArgumentType]
            callees = [_function_named(ctx, call.func, info.scope) for call in calls]
            following.extend((callee, [*path, _named(info)]) for callee in callees if callee is not None)
        frontier = following
    return None


def _named(info: FunctionInfo) -> str:
    return "the lambda" if info.name == "<lambda>" else f"`{info.name}`"


def _function_named(ctx: Context, expr: ast.expr, scope: Scope) -> FunctionInfo | None:
    """The function of this module ``expr`` names: itself, the function transformations or a
    ``partial`` around it wrap (``jax.grad(energy)``, the model's ``resolve_chain``), or the
    def a name wraps in place (``f = jax.custom_vjp(f)``)."""
    chain = ctx.model.resolve_chain(expr, scope)
    if chain is not None and chain.target is not None:
        return chain.target
    return ctx.model.wrapped_in_place(expr, scope)
