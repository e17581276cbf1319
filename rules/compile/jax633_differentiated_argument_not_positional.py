"""JAX633: a differentiated function called without the positional argument ``argnums`` names."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.gradients import DIFFERENTIATIONS, argnums_of
from ..support.layers import called_layer

# what each differentiation raises (`jacrev`/`jacfwd` check positions as `static_argnums` does)
ERRORS = {"grad": "TypeError", "jacrev": "ValueError", "jacfwd": "ValueError"}


class DifferentiatedArgumentNotPositional(Rule):
    """## What it does
    Finds a call of a function made by `jax.grad` (or `value_and_grad`, `jacrev`, `jacfwd`,
    `hessian`, also under `jax.jit`) that passes fewer positional arguments than its
    `argnums=` needs: the differentiated argument is given by keyword (`dloss(w, x, y=y)` with
    `argnums=2`), or left to its default.

    ## Why is this bad?
    `argnums` counts the positional arguments of each call; keyword arguments are never
    differentiated. JAX raises `TypeError` ("differentiating with respect to argnums=2
    requires at least 3 positional arguments to be passed by the caller, but got only 2")
    for `grad` and `value_and_grad`, and `ValueError` for `jacrev`, `jacfwd` and `hessian`.
    Pass the argument by position.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def loss(w, x, y):
        return jnp.mean((x @ w - y) ** 2)

    dloss_dy = jax.grad(loss, argnums=2)
    g = dloss_dy(jnp.zeros(2), jnp.ones((4, 2)), y=jnp.ones(4))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def loss(w, x, y):
        return jnp.mean((x @ w - y) ** 2)

    dloss_dy = jax.grad(loss, argnums=2)
    g = dloss_dy(jnp.zeros(2), jnp.ones((4, 2)), jnp.ones(4))
    ```

    ## Fix safety
    No automatic fix: moving a keyword argument into its position is left to the author.

    ## References
    - [jax.grad](https://docs.jax.dev/en/latest/_autosummary/jax.grad.html)
    """

    code = "JAX633"
    name = "differentiated-argument-not-positional"
    message = "A differentiated function is called without the positional argument `argnums` names"
    outcome = (
        "TypeError: differentiating with respect to argnums=k requires at least k+1 positional arguments"
    )
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.mentions("argnums") or any(isinstance(a, ast.Starred) for a in node.args):
            return  # (the default, argnums=0, needs one positional argument: any call gives it)
        layer = called_layer(ctx, node.func, DIFFERENTIATIONS)
        if layer is None:
            return
        passed = len(node.args)
        beyond = sorted(i for i in argnums_of(layer) if i >= passed)
        if not beyond:
            return
        error = ERRORS[DIFFERENTIATIONS[layer.transform]]
        keyword = next((k for k in node.keywords if k.arg is not None), None)
        given = f" (the call passes `{keyword.arg}=` by keyword)" if keyword is not None else ""
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` passes {passed} positional argument{'s' * (passed != 1)}, but "
            f"`{layer.transform}` (line {layer.site.lineno}) differentiates with respect to position "  # pyright: ignore[reportAttributeAccessIssue]
            f"{beyond[-1]}: `argnums` counts positional arguments only, and JAX raises `{error}`"
            f"{given}; pass the differentiated argument by position",
        )
