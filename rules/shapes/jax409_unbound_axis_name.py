"""JAX409: a collective names an axis that the ``vmap``/``pmap`` mapping it never binds."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.transforms import PARTIALS

from ..support.blocks import name_loads
from ..support.explain import snippet

MAPPINGS = frozenset({"jax.vmap", "jax.pmap"})
# where each mapping takes `axis_name` by position (after the function)
AXIS_NAME_POSITIONS = {"jax.vmap": 3, "jax.pmap": 1}
# collectives and the position of their axis name
COLLECTIVES = {
    **{f"jax.lax.{name}": 1 for name in ("psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter")},
    "jax.lax.axis_index": 0,
}
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class UnboundAxisName(Rule):
    """## What it does
    Finds a collective (`jax.lax.psum`, `pmean`, `pmax`, `pmin`, `all_gather`, `psum_scatter`,
    `axis_index`) naming an axis with a string literal, in a function that a `jax.vmap` or
    `jax.pmap` maps without `axis_name` (or with another name), directly or through a helper it
    calls, where that mapping runs in plain Python code and the function is mapped nowhere else.

    ## Why is this bad?
    An axis name exists only inside a transformation that binds it (`vmap`/`pmap` with
    `axis_name=`, `shard_map` over a mesh). Without one, JAX raises `NameError` ("unbound axis
    name: batch"). Give the mapping the name: `jax.pmap(step, axis_name="batch")`.

    ## Example
    ```python
    import jax

    def center(x):
        return x - jax.lax.pmean(x, "i")

    jax.vmap(center)(jax.numpy.ones((4, 3)))
    ```

    ## Use instead
    ```python
    import jax

    def center(x):
        return x - jax.lax.pmean(x, "i")

    jax.vmap(center, axis_name="i")(jax.numpy.ones((4, 3)))
    ```

    ## Fix safety
    No automatic fix offered yet.

    ## References
    - [jax.vmap: axis_name](https://docs.jax.dev/en/latest/_autosummary/jax.vmap.html)
    - [jax.lax.psum](https://docs.jax.dev/en/latest/_autosummary/jax.lax.psum.html)
    """

    code = "JAX409"
    name = "unbound-axis-name"
    message = "A collective names an axis that its mapping does not bind"
    outcome = "NameError: unbound axis name"
    visits_anywhere = frozenset({ast.Call, ast.FunctionDef})

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        """``@jax.pmap`` (``@partial(jax.pmap, axis_name=...)``) on a function only plain code calls."""
        if len(node.decorator_list) != 1:
            return
        decorator = node.decorator_list[0]
        mapping, named = _decorating_mapping(ctx, decorator)
        info = ctx.model.infos.get(node)
        if mapping is None or info is None or any(c.traced_to_run for c in info.callers):
            return
        if ctx.traced_to_run or ctx.function is not None:
            return  # a def nested in another function: the code around may bind the axis
        self.check(ctx, info, mapping, named, decorator.lineno)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        qualname = ctx.qualname(node.func)
        if qualname not in MAPPINGS or ctx.traced_to_run or not node.args:
            return
        if isinstance(ctx.parent, ast.Call) and node in ctx.parent.args:
            return  # `jax.vmap(jax.vmap(f), axis_name=...)`: an outer mapping may bind it
        found = ctx.model.resolve_function(node.args[0], ctx.scope)
        if found is None or found[1] or not _mapped_only_here(ctx, found[0], node):
            return
        position = AXIS_NAME_POSITIONS[qualname]  # `jax.pmap(f, "i")` names it by position
        named = keyword_argument(node, "axis_name")
        if named is None and len(node.args) > position:
            named = node.args[position]
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return
        self.check(ctx, found[0], qualname, named, node.lineno)

    def check(
        self, ctx: Context, info: FunctionInfo, qualname: str, named: ast.expr | None, line: int
    ) -> None:
        bound = named.value if isinstance(named, ast.Constant) else None
        if named is not None and bound is None:
            return  # a name the code computes
        for collective, axis in _collectives(ctx, info):
            if axis != bound:
                mapping = qualname.removeprefix("jax.")
                ctx.report(
                    collective,
                    f"`{snippet(ctx, collective)}` names axis `{axis!r}`, but `jax.{mapping}` (line "
                    f"{line}) maps `{info.name}` "
                    + ("without `axis_name`" if bound is None else f"with `axis_name={bound!r}`")
                    + f": JAX raises `NameError` (unbound axis name); pass "
                    f"`axis_name={axis!r}` to `jax.{mapping}`",
                )
                return


def _decorating_mapping(ctx: Context, decorator: ast.expr) -> tuple[str | None, ast.expr | None]:
    """``@jax.pmap`` -> ("jax.pmap", None); ``@partial(jax.pmap, axis_name=n)`` -> its name."""
    if isinstance(decorator, ast.Call):
        if ctx.qualname(decorator.func) in PARTIALS and decorator.args:
            inner = ctx.qualname(decorator.args[0])
            if inner in MAPPINGS and len(decorator.args) == 1 and all(k.arg for k in decorator.keywords):
                return inner, keyword_argument(decorator, "axis_name")
        return None, None
    qualname = ctx.qualname(decorator)
    return (qualname, None) if qualname in MAPPINGS else (None, None)


def _mapped_only_here(ctx: Context, info: FunctionInfo, site: ast.Call) -> bool:
    """Whether the function's name is used only as the mapping's argument (a lambda: always)."""
    node = info.node
    if isinstance(node, ast.Lambda):
        return site.args[0] is node
    uses = name_loads(ctx, node.name)
    return len(uses) == 1 and uses[0][0] is site.args[0] and not node.decorator_list


def _collectives(ctx: Context, info: FunctionInfo) -> list[tuple[ast.Call, str]]:
    """Collectives with a literal axis name in the function's body, or in a helper of this
    module it calls by name that nothing else calls."""
    found = _own_collectives(ctx, info)
    for call in _own_calls(info.node):
        helper = ctx.model.resolve_function(call.func, info.scope)
        if helper is not None and not helper[1] and _called_only_from(ctx, helper[0], info):
            found += _own_collectives(ctx, helper[0])
    return found


def _own_collectives(ctx: Context, info: FunctionInfo) -> list[tuple[ast.Call, str]]:
    found = []
    for call in _own_calls(info.node):
        position = COLLECTIVES.get(ctx.model.qualname(call.func, info.scope) or "")
        if position is None:
            continue
        axis = keyword_argument(call, "axis_name")
        if axis is None and len(call.args) > position:
            axis = call.args[position]
        if isinstance(axis, ast.Constant) and isinstance(axis.value, str):
            found.append((call, axis.value))
    return found


def _own_calls(function: ast.AST) -> list[ast.Call]:
    """The calls in a function's body, not in functions nested in it."""
    found: list[ast.Call] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, FUNCTIONS):
            continue
        if isinstance(node, ast.Call):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _called_only_from(ctx: Context, helper: FunctionInfo, caller: FunctionInfo) -> bool:
    node = helper.node
    if isinstance(node, ast.Lambda) or node.decorator_list:
        return False
    calls = _own_calls(caller.node)
    return all(
        isinstance(call, ast.Call) and call.func is use and call in calls
        for use, call in name_loads(ctx, node.name)
    )
