"""JAX624: a flax linen module's ``__call__`` that makes submodules without ``@nn.compact``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.linen import COMPACT, linen_construction


class LinenSubmoduleOutsideCompact(Rule):
    """## What it does
    Finds a submodule made inline (`nn.Dense(16)(x)`) in the `__call__` of a flax linen module
    that is not decorated with `@nn.compact`, in a class with no compact method.

    ## Why is this bad?
    flax lets a module make its submodules in `setup`, or inline in a method wrapped in
    `@nn.compact`. Anywhere else, `init` and `apply` raise `AssignSubModuleError` ("Submodule
    Dense must be defined in `setup()` or in a method wrapped in `@compact`"). Decorate
    `__call__` with `@nn.compact`, or make the submodules in `setup`.

    ## Example
    ```python
    import flax.linen as nn

    class Classifier(nn.Module):
        def __call__(self, x):
            return nn.Dense(3)(nn.relu(nn.Dense(16)(x)))
    ```

    ## Use instead
    ```python
    import flax.linen as nn

    class Classifier(nn.Module):
        @nn.compact
        def __call__(self, x):
            return nn.Dense(3)(nn.relu(nn.Dense(16)(x)))
    ```

    ## Fix safety
    No automatic fix: `setup` or `@nn.compact` is the author's choice.

    ## References
    - [flax linen: setup vs compact](https://flax-linen.readthedocs.io/en/latest/guides/flax_fundamentals/setup_or_nncompact.html)
    """

    code = "JAX624"
    name = "linen-submodule-outside-compact"
    message = "A linen `__call__` without `@nn.compact` makes submodules inline"
    outcome = "AssignSubModuleError from flax"
    visits_anywhere = frozenset({ast.ClassDef})

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        if not ctx.model.is_flax_module(node):
            return
        methods = [s for s in node.body if isinstance(s, ast.FunctionDef)]
        if any(_compact(ctx, m) for m in methods):
            return  # `__call__` may run inside a compact method
        call = next((m for m in methods if m.name == "__call__"), None)
        if call is None:
            return
        for inner in ast.walk(call):
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Call):
                made = linen_construction(ctx, inner.func)
                if made is not None:
                    ctx.report(
                        made,
                        f"`{snippet(ctx, made)}` makes a submodule inline in `{node.name}.__call__`, "
                        f"which is not decorated with `@nn.compact`: flax raises "
                        f"`AssignSubModuleError` at `init`/`apply`; decorate `__call__` with "
                        f"`@nn.compact`, or make the submodule in `setup`",
                    )
                    return


def _compact(ctx: Context, method: ast.FunctionDef) -> bool:
    scope = ctx.model.index.scopes.get(method)
    parent = scope.parent if scope is not None else None
    return any(ctx.model.qualname(d, parent or ctx.scope) in COMPACT for d in method.decorator_list)
