"""JAX630: an equinox module whose pytree holds a function passed to plain ``jax.jit``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.equinox import function_leaf_module
from ..support.explain import snippet
from ..support.gradients import DIFFERENTIATIONS, argnums_of
from ..support.jitted import jitted_callee, plain_jit
from ..support.layers import called_layer


class FunctionLeafToPlainJit(Rule):
    """## What it does
    Finds a call of a function compiled with plain `jax.jit` that passes, where the function
    is not told to keep the argument static (or differentiated by plain `jax.grad` and its kin,
    with respect to that argument), an equinox layer whose pytree holds a leaf that
    is no JAX type (`eqx.nn.MLP`, which holds its activation functions; which layers do is
    measured), or an `eqx.Module` of this file that stores one in a field.

    ## Why is this bad?
    `jax.jit` flattens its arguments and traces every leaf: a function leaf is not a valid JAX
    type, and JAX raises `TypeError` ("Error interpreting argument ... as an abstract
    array"). Equinox's `eqx.filter_jit` traces the array leaves and keeps the others static;
    use it, or split the module with `eqx.partition` and pass only its arrays.

    ## Example
    ```python
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    model = eqx.nn.MLP(4, 4, 16, 2, key=jax.random.key(0))

    @jax.jit
    def forward(model, x):
        return model(x)

    y = forward(model, jnp.ones(4))
    ```

    ## Use instead
    ```python
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    model = eqx.nn.MLP(4, 4, 16, 2, key=jax.random.key(0))

    @eqx.filter_jit
    def forward(model, x):
        return model(x)

    y = forward(model, jnp.ones(4))
    ```

    ## Fix safety
    No automatic fix: `eqx.filter_jit` also changes which other arguments are traced.

    ## References
    - [equinox: filtered transformations](https://docs.kidger.site/equinox/api/transformations/)
    """

    code = "JAX630"
    mentioned = frozenset({"equinox"})
    name = "function-leaf-to-plain-jit"
    message = "An equinox module holding a function is passed to plain `jax.jit`"
    outcome = "TypeError: Error interpreting argument as an abstract array"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not (node.args or node.keywords) or not ctx.mentions("equinox"):
            return
        self.check_differentiated(node, ctx)
        jit = jitted_callee(ctx, node)
        if jit is None or not plain_jit(ctx, jit.site, jit.info.scope):
            return
        for argument in [*node.args, *(k.value for k in node.keywords if k.arg)]:
            parameter = jit.parameter(node, argument)
            found = (
                None if parameter is None or parameter in jit.static else function_leaf_module(ctx, argument)
            )
            if found is None:
                continue
            layer, where = found
            ctx.report(
                argument,
                f"`{snippet(ctx, argument)}` is {where}`{snippet(ctx, layer)}` (line {layer.lineno}), "
                f"whose pytree holds a function, passed to `{jit.info.name}` (`{parameter}`), which "
                f"plain `jax.jit` compiles: JAX raises `TypeError` (a function is not a valid JAX "
                f"type); use `eqx.filter_jit`, which keeps the leaves that are not arrays static",
            )
            return

    def check_differentiated(self, node: ast.Call, ctx: Context) -> None:
        """``jax.grad(loss)(model, x)``: plain ``grad`` flattens the arguments it differentiates,
        every leaf, and a function leaf is no JAX type (measured: ``TypeError``)."""
        layer = called_layer(ctx, node.func, DIFFERENTIATIONS)
        for position in [] if layer is None else sorted(argnums_of(layer)):
            if position >= len(node.args) or any(
                isinstance(a, ast.Starred) for a in node.args[: position + 1]
            ):
                continue
            argument = node.args[position]
            found = function_leaf_module(ctx, argument)
            if found is None:
                continue
            held, where = found
            name = layer.transform.removeprefix("jax.")  # pyright: ignore[reportOptionalMemberAccess]
            ctx.report(
                argument,
                f"`{snippet(ctx, argument)}` is {where}`{snippet(ctx, held)}` (line {held.lineno}), whose "
                f"pytree holds a function, and `jax.{name}` differentiates with respect to it: plain "
                f"`{name}` flattens every leaf, and JAX raises `TypeError` (a function is not a valid "
                f"JAX type); use `eqx.filter_grad` (`eqx.filter_value_and_grad`), which differentiates "
                f"the array leaves only",
            )
            return
