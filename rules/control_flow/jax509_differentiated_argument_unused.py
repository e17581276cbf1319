"""JAX509: a function differentiated with respect to an argument it never reads."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.differentiation import differentiated_params


class DifferentiatedArgumentUnused(Rule):
    """## What it does
    Finds a function differentiated in reverse mode (`jax.grad`, `value_and_grad`, `jacrev`,
    `nnx.grad`, `eqx.filter_grad`...) with respect to a parameter its body never reads, typically
    a lambda that closes over the outer variable instead of using its own argument
    (`jax.grad(lambda p: loss(params, x))(params)`).

    ## Why is this bad?
    The output does not depend on the differentiated argument, so its gradient is zero
    everywhere: JAX returns zeros without a warning, and training silently stops (the outer
    `params` the lambda reads are constants to the differentiation).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def loss(params, x):
        return jnp.sum((x @ params) ** 2)

    params, x = jnp.ones(3), jnp.ones((2, 3))
    grads = jax.grad(lambda p: loss(params, x))(params)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def loss(params, x):
        return jnp.sum((x @ params) ** 2)

    params, x = jnp.ones(3), jnp.ones((2, 3))
    grads = jax.grad(lambda p: loss(p, x))(params)
    ```

    ## Fix safety
    No automatic fix: which name the body should read is the author's call.

    ## References
    - [JAX: jax.grad](https://docs.jax.dev/en/latest/_autosummary/jax.grad.html)
    - [Flax: nnx.grad](https://flax.readthedocs.io/en/latest/api_reference/flax.nnx/transforms.html)
    """

    code = "JAX509"
    mentioned = frozenset({"grad", "jac", "hessian"})
    name = "differentiated-argument-unused"
    message = "A function is differentiated with respect to an argument it never reads"
    outcome = "the gradient is zero everywhere, silently"
    severity = "warning"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_Lambda(self, node: ast.Lambda, ctx: Context) -> None:
        self.check(node, ctx)

    def check(self, node: ast.FunctionDef | ast.Lambda, ctx: Context) -> None:
        info = ctx.model.infos.get(node)
        if info is None or not info.reverse_sites or info in ctx.model.custom_derivatives:
            return
        if node.args.vararg or node.args.kwarg or _placeholder_body(node):
            return
        read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
        if info.is_method and info.positional_names():
            read.add(info.positional_names()[0])  # `self` differentiated: JAX610's (not a JAX type)
        for transform, site, call, offset in info.reverse_sites:
            unused = sorted(
                param
                for param in differentiated_params(info, call, offset)
                if param not in read and not param.startswith("_")
            )
            if unused:
                what = "the lambda" if isinstance(node, ast.Lambda) else f"`{node.name}`"
                param = next(a for a in [*node.args.posonlyargs, *node.args.args] if a.arg == unused[0])
                ctx.report(
                    node if isinstance(node, ast.Lambda) else param,
                    f"`{transform.removeprefix('jax.')}` (line {getattr(site, 'lineno', '?')}) "
                    f"differentiates {what} with respect to `{unused[0]}`, which its body never reads: "
                    f"the gradient is zero everywhere, silently; compute the output from "
                    f"`{unused[0]}` (not from a variable closed over)",
                )
                return


def _placeholder_body(node: ast.FunctionDef | ast.Lambda) -> bool:
    """A body that returns a constant or does nothing (a stub, a test's zero function)."""
    if isinstance(node, ast.Lambda):
        return isinstance(node.body, ast.Constant)
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return all(
        isinstance(s, (ast.Pass, ast.Raise))
        or (isinstance(s, ast.Return) and (s.value is None or isinstance(s.value, ast.Constant)))
        for s in body
    )
