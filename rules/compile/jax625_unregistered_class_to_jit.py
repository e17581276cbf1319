"""JAX625: an instance of a plain class of this module passed to a jitted function."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import instance_classes, refs

from ..support.blocks import name_loads
from ..support.explain import snippet
from ..support.jitted import jitted_callee, plain_jit


class UnregisteredClassToJit(Rule):
    """## What it does
    Finds a call of a `jax.jit`-compiled function that passes, where the function is not told to
    keep the argument static, an instance of a plain class of this module: a class with no base,
    no decorator, no `__jax_array__`, whose name is never handed to anything (such as
    `jax.tree_util.register_pytree_node`).

    ## Why is this bad?
    `jit` flattens its arguments into arrays, and JAX knows how to flatten only arrays,
    numbers and registered pytrees (tuples, lists, dicts, NamedTuples, registered dataclasses,
    flax structs, equinox modules...). Any other object raises `TypeError` ("Error interpreting
    argument ... as an abstract array"). Register the class as a pytree
    (`@jax.tree_util.register_dataclass` on a `@dataclass`, or `register_pytree_node_class`),
    pass its arrays instead, or mark the parameter static if the object is hashable and
    constant.

    ## Example
    ```python
    import jax

    class Params:
        def __init__(self, w, b):
            self.w, self.b = w, b

    @jax.jit
    def forward(p, x):
        return x @ p.w + p.b

    forward(Params(w, b), x)
    ```

    ## Use instead
    ```python
    from dataclasses import dataclass

    import jax

    @jax.tree_util.register_dataclass
    @dataclass
    class Params:
        w: jax.Array
        b: jax.Array

    @jax.jit
    def forward(p, x):
        return x @ p.w + p.b

    forward(Params(w, b), x)
    ```

    ## Fix safety
    No automatic fix: registering the class decides which attributes are traced.

    ## References
    - [JAX: pytrees, custom pytree nodes](https://docs.jax.dev/en/latest/custom_pytrees.html)
    """

    code = "JAX625"
    name = "unregistered-class-to-jit"
    message = "An instance of a class JAX does not know as a pytree is passed to a jitted function"
    outcome = "TypeError: Error interpreting argument as an abstract array"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not node.args and not node.keywords:
            return
        jit = jitted_callee(ctx, node)
        if jit is None or not plain_jit(ctx, jit.site, jit.info.scope):
            return
        for argument in [*node.args, *(k.value for k in node.keywords if k.arg)]:
            parameter = jit.parameter(node, argument)
            if parameter is None or parameter in jit.static:
                continue
            value = ctx.value(argument)
            classes = instance_classes(value)
            if len(classes) != 1 or len(refs(value)) != 1 or not _plain_class(ctx, classes[0]):
                continue
            ctx.report(
                argument,
                f"`{snippet(ctx, argument)}` is an instance of `{classes[0].name}`, a class JAX does not "
                f"know as a pytree, passed to jitted `{jit.info.name}` (`{parameter}`): JAX raises "
                f"`TypeError` (it cannot interpret it as an array); register `{classes[0].name}` as a "
                f"pytree (`@jax.tree_util.register_dataclass` on a dataclass), pass its arrays, or "
                f"make `{parameter}` static",
            )
            return


def _plain_class(ctx: Context, cls: ast.ClassDef) -> bool:
    """A class with no base but ``object``, no decorator or metaclass, no ``__jax_array__``,
    whose name is only ever called (never handed to a registration or anything else)."""
    if cls.decorator_list or cls.keywords:
        return False
    if any(not (isinstance(b, ast.Name) and b.id == "object") for b in cls.bases):
        return False
    if any(isinstance(s, ast.FunctionDef) and s.name == "__jax_array__" for s in cls.body):
        return False
    return all(
        isinstance(parent, ast.Call) and parent.func is use for use, parent in name_loads(ctx, cls.name)
    )
