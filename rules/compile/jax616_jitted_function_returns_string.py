"""JAX616: a function compiled by ``jax.jit`` returns a string."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import PARTIALS

from ..support.explain import snippet

MAX_DEPTH = 6


class JittedFunctionReturnsString(Rule):
    """## What it does
    Finds a function compiled by `jax.jit` (or `flax.nnx.jit`) whose every `return` hands back a
    string or bytes among its results: `return loss, "ok"`, `return {"loss": loss, "tag": tag}`
    with `tag = "train"`, `return f"{x.shape}"`.

    ## Why is this bad?
    Everything a jitted function returns becomes an output of the compiled program, and a string
    is no JAX type: tracing raises `TypeError` ("function ... traced for jit returned a value of
    type <class 'str'>"). Return the string from eager code around the jitted call, or keep it
    out of the results (`equinox.filter_jit` alone passes non-array outputs through).

    ## Example
    ```python
    import jax

    @jax.jit
    def normalise(batch):
        return batch / batch.sum(), "ok"
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def normalise(batch):
        return batch / batch.sum()

    result, status = normalise(batch), "ok"
    ```

    ## Fix safety
    No automatic fix: where the string belongs is the caller's decision.

    ## References
    - [jax.jit](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)
    - [Pytrees](https://docs.jax.dev/en/latest/pytrees.html)
    """

    code = "JAX616"
    name = "jitted-function-returns-string"
    message = "A jitted function returns a string"
    outcome = "TypeError when JAX traces the function"
    visits_anywhere = frozenset({ast.FunctionDef, ast.Lambda})

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_Lambda(self, node: ast.Lambda, ctx: Context) -> None:
        self.check(node, ctx)

    def check(self, node: ast.FunctionDef | ast.Lambda, ctx: Context) -> None:
        info = ctx.model.infos.get(node)
        if info is None or not info.jit_sites:
            return
        strings = [_string_leaf(value, info.scope, 0) for value in returned_expressions(node)]
        if not strings or any(found is None for found in strings):
            return
        found = strings[0]
        assert found is not None
        site = info.jit_sites[0]
        ctx.report(
            found,
            f"`{info.name}` is compiled by `{_jit_name(ctx, site)}` (line {site.lineno}) and returns the string "
            f"`{snippet(ctx, found)}`: a string is no JAX type, so tracing raises `TypeError`; "
            f"return only arrays and keep the string in the eager code that calls `{info.name}`",
        )


def _jit_name(ctx: Context, site: ast.expr) -> str:
    """How the source spells the jit of ``site`` (``jax.jit``, ``nnx.jit``)."""
    if isinstance(site, ast.Call):
        site = site.args[0] if site.args and ctx.qualname(site.func) in PARTIALS else site.func
    return ast.unparse(site)


def _string_leaf(value: ast.expr, scope: Scope, depth: int) -> ast.expr | None:
    """A string (or bytes) certainly among the leaves of ``value``, else None."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, ast.JoinedStr) or (
        isinstance(value, ast.Constant) and isinstance(value.value, (str, bytes))
    ):
        return value
    if isinstance(value, ast.IfExp):  # `"ok" if ready else "empty"`: a string either way
        both = [_string_leaf(branch, scope, depth + 1) for branch in (value.body, value.orelse)]
        return value if all(found is not None for found in both) else None
    if isinstance(value, (ast.Tuple, ast.List)):
        parts = value.elts
    elif isinstance(value, ast.Dict):
        parts = value.values
    elif isinstance(value, ast.Name) and scope.bound.get(value.id) == 1:
        bound = scope.single_value(value.id)
        found = None if bound is None else _string_leaf(bound, scope, depth + 1)
        return None if found is None else value
    else:
        return None
    return next((found for part in parts if (found := _string_leaf(part, scope, depth + 1))), None)
