"""JAX652: a flax linen submodule given a literal ``name=`` inside a loop."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.blocks import COMPREHENSIONS, parents
from ..support.explain import snippet
from ..support.linen import module_class

LINEN = "flax.linen."


class LinenSubmoduleNameInLoop(Rule):
    """## What it does
    Finds a flax linen submodule built with a constant `name=` (`nn.Dense(8, name="proj")`)
    inside a `for` or `while` loop, or a comprehension, of a linen module's method.

    ## Why is this bad?
    A submodule's name must be unique in its parent: the second iteration creates another
    submodule under the same name, and flax raises `NameInUseError` ("Could not create
    submodule "proj" ... Name in use", measured with flax 0.12.8). Leave the name out (flax
    numbers the layers, `Dense_0`, `Dense_1`, ...) or make it differ per iteration
    (`name=f"proj_{i}"`).

    ## Example
    ```python
    import flax.linen as nn

    class Tower(nn.Module):
        @nn.compact
        def __call__(self, x):
            for _ in range(3):
                x = nn.Dense(8, name="proj")(x)
            return x
    ```

    ## Use instead
    ```python
    import flax.linen as nn

    class Tower(nn.Module):
        @nn.compact
        def __call__(self, x):
            for i in range(3):
                x = nn.Dense(8, name=f"proj_{i}")(x)
            return x
    ```

    ## Fix safety
    No automatic fix: the parameter names change, and checkpoints follow them.

    ## References
    - [Flax: NameInUseError](https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.NameInUseError)
    """

    code = "JAX652"
    mentioned = frozenset({"name"})
    name = "linen-submodule-name-in-loop"
    message = "A flax linen submodule gets a constant `name=` inside a loop"
    outcome = "flax.errors.NameInUseError on the loop's second iteration"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        name = keyword_argument(node, "name")
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            return
        loop = _repeating(ctx, node)
        if loop is None or _runs_once(loop) or not self.in_linen_method(ctx):
            return
        if not self.constructs_module(ctx, node):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` is built on every iteration of the loop at line {getattr(loop, 'lineno', '?')} "
            f"under the one name {name.value!r}: flax raises `NameInUseError` on the second; leave "
            f"`name=` out, or make it differ per iteration (an f-string of the loop index)",
        )

    def in_linen_method(self, ctx: Context) -> bool:
        """Whether the code is in a method of a linen module class of this file."""
        owner = ctx.model.index.parents.get(ctx.scope.function.node)
        return (
            owner is not None
            and isinstance(owner.node, ast.ClassDef)
            and ctx.model.is_flax_module(owner.node)
        )

    def constructs_module(self, ctx: Context, call: ast.Call) -> bool:
        qualname = ctx.qualname(call.func) or ""
        last = qualname.removeprefix(LINEN)
        if last != qualname and "." not in last and last[:1].isupper():
            return True
        return module_class(ctx, call, ctx.scope) is not None


def _repeating(ctx: Context, node: ast.AST) -> ast.AST | None:
    """The innermost loop of the function around ``node`` that runs it again on each
    iteration: a ``for``/``while`` statement, or a comprehension whose element holds it."""
    function = ctx.scope.function.node
    parent_of = parents(ctx)
    child, parent = node, parent_of.get(node)
    while parent is not None and parent is not function:
        if isinstance(parent, COMPREHENSIONS) and child is not parent.generators[0]:
            return parent
        if isinstance(parent, (ast.For, ast.While)) and any(child is s for s in parent.body):
            return parent
        child, parent = parent, parent_of.get(parent)
    return None


def _runs_once(loop: ast.AST) -> bool:
    """``for _ in range(1)`` or over a one-element display: at most one iteration."""
    if isinstance(loop, ast.For):
        iterable = loop.iter
    elif isinstance(loop, COMPREHENSIONS):
        iterable = loop.generators[0].iter
    else:
        return False
    if isinstance(iterable, (ast.List, ast.Tuple)):
        return len(iterable.elts) <= 1
    if (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Name)
        and iterable.func.id == "range"
        and len(iterable.args) == 1
    ):
        bound = iterable.args[0]
        return isinstance(bound, ast.Constant) and isinstance(bound.value, int) and bound.value <= 1
    return False
