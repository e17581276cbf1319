"""JAX610: ``@jax.jit`` on a method of a plain class: ``self`` is a traced argument, and not a JAX type."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.classes import plain_class
from ..support.jitted import static_parameters


class JittedMethodTracesSelf(Rule):
    """## What it does
    Finds `@jax.jit` (or `@partial(jax.jit, ...)` without `self` among its static arguments)
    on a method of a plain class of this module: one that is not a pytree (not registered,
    not a NamedTuple, a registered dataclass, a flax struct or an equinox `Module`), has no base
    other than such plain classes of this module, and no class decorator but a plain
    `@dataclasses.dataclass`.

    ## Why is this bad?
    `jax.jit` wraps the function defined in the class body, so `obj.method(x)` calls it with
    `self` as its first argument, and jit traces every argument that is not static. An
    instance of a plain class is not a JAX type: the first call raises `TypeError` ("Error
    interpreting argument to ... as an abstract array").

    ## Example
    ```python
    import jax

    class Scaler:
        def __init__(self, factor):
            self.factor = factor

        @jax.jit
        def scale(self, x):
            return x * self.factor
    ```

    ## Use instead
    ```python
    import jax

    class Scaler:
        def __init__(self, factor):
            self.factor = factor

        def scale(self, x):
            return _scale(x, self.factor)

    @jax.jit
    def _scale(x, factor):
        return x * factor
    ```
    Or register the class as a pytree, or mark `self` static (`static_argnums=0`): then the
    object must be hashable, and its attributes are frozen into each compiled version (a
    change to them is not seen unless its hash changes).

    ## Fix safety
    No fix: which remedy fits (a function of the arrays, a pytree registration, a static
    `self` whose attributes never change) depends on how the object is used.

    ## References
    - [JAX FAQ: how to use jit with methods](https://docs.jax.dev/en/latest/faq.html#how-to-use-jit-with-methods)
    """

    code = "JAX610"
    name = "jitted-method-traces-self"
    message = "`jax.jit` on a method traces `self`, which is not a JAX type"
    outcome = "TypeError on the first call: the instance is not a valid JAX type"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        info = ctx.model.infos.get(node)
        if info is None or not info.is_method or not info.positional_names():
            return
        site = next((d for d in node.decorator_list if d in info.jit_sites), None)
        cls = ctx.model.index.parents[node].node
        if site is None or not isinstance(cls, ast.ClassDef) or _not_plain_method(node):
            return
        static = static_parameters(info, site)
        this = info.positional_names()[0]
        if static is None or this in static or not plain_class(ctx, cls):
            return
        ctx.report(
            site,
            f"`jax.jit` on `{cls.name}.{node.name}` traces `{this}` as an argument, but an instance of `{cls.name}` "
            f"is not a JAX type: calling it raises `TypeError`; jit a function of the arrays instead "
            f"(called from the method), register `{cls.name}` as a pytree, or mark `{this}` static "
            f"(`static_argnums=0`: its attributes are then frozen into the compiled function)",
        )


def _not_plain_method(node: ast.FunctionDef) -> bool:
    return any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in node.decorator_list
    )
