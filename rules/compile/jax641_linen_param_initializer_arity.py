"""JAX641: ``self.param(name, init_fn, *args)`` whose initializer cannot take ``(rng, *args)``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet


class LinenParamInitializerArity(Rule):
    """## What it does
    Finds `self.param(name, init_fn, *init_args)` in a flax linen module where `init_fn`, a
    lambda or a function of this file, cannot be called as `init_fn(rng, *init_args)`: it
    takes fewer (or needs more) positional arguments.

    ## Why is this bad?
    Flax calls the initializer with a PRNG key first, then the arguments given after it:
    `lambda shape: jnp.ones(shape)` receives two arguments and raises `TypeError` ("takes 1
    positional argument but 2 were given") when the module is initialized.

    ## Example
    ```python
    import flax.linen as nn
    import jax.numpy as jnp

    class Scale(nn.Module):
        features: int

        @nn.compact
        def __call__(self, x):
            gamma = self.param("gamma", lambda shape: jnp.ones(shape), (self.features,))
            return x * gamma
    ```

    ## Use instead
    ```python
    import flax.linen as nn
    import jax.numpy as jnp

    class Scale(nn.Module):
        features: int

        @nn.compact
        def __call__(self, x):
            gamma = self.param("gamma", lambda rng, shape: jnp.ones(shape), (self.features,))
            return x * gamma
    ```

    ## Fix safety
    No automatic fix: the initializer's parameters are the author's.

    ## References
    - [flax.linen.Module.param](https://flax.readthedocs.io/en/latest/api_reference/flax.linen/module.html#flax.linen.Module.param)
    """

    code = "JAX641"
    mentioned = frozenset({"flax"})
    name = "linen-param-initializer-arity"
    message = "A linen parameter initializer cannot take the PRNG key and the arguments given"
    outcome = "TypeError: the initializer takes another number of positional arguments"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "param"
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and len(node.args) >= 2
            and ctx.mentions("flax")
        ):
            return
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return
        cls = ctx.model.class_of_self(ctx.scope, "self")
        if cls is None or not ctx.model.is_flax_module(cls):
            return
        initializer = _function(ctx, node.args[1])
        if initializer is None:
            return
        given = 1 + len(node.args) - 2  # the key, then the arguments after the initializer
        arguments = initializer.args
        if arguments.vararg is not None:
            return
        positional = [*arguments.posonlyargs, *arguments.args]
        required = len(positional) - len(arguments.defaults)
        if required <= given <= len(positional):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}`: flax calls the initializer `{snippet(ctx, node.args[1])}` with a "
            f"PRNG key first and then {given - 1} more argument{'s' if given != 2 else ''} ({given} in "
            f"all), but it takes {_takes(required, len(positional))}: initialization raises "
            f"`TypeError`; make the key its first parameter (`lambda rng, shape: ...`)",
        )


def _function(ctx: Context, expr: ast.expr) -> ast.Lambda | ast.FunctionDef | None:
    """The lambda ``expr`` is, or the function of this file it names (bound only by its def)."""
    if isinstance(expr, ast.Lambda):
        return expr
    if isinstance(expr, ast.Name):
        owner = ctx.scope.lookup(expr.id)
        definition = None if owner is None else owner.single_def(expr.id)
        if isinstance(definition, ast.FunctionDef) and not definition.decorator_list:
            return definition
    return None


def _takes(required: int, most: int) -> str:
    if required == most:
        return f"{most} positional argument{'s' if most != 1 else ''}"
    return f"{required} to {most} positional arguments"
