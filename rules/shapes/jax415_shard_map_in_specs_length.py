"""JAX415: a ``shard_map`` whose tuple ``in_specs`` has another length than the function has
parameters."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.transforms import PARTIALS

from ..support.explain import snippet

SHARD_MAPS = frozenset({"jax.shard_map", "jax.experimental.shard_map.shard_map"})


class ShardMapInSpecsLength(Rule):
    """## What it does
    Finds `jax.shard_map(f, mesh=..., in_specs=(P("dp"),), ...)` (called, or as a
    `partial` decorator) with a tuple `in_specs` of another length than the number of
    parameters `f` requires, where `f` has neither defaults nor `*args`.

    ## Why is this bad?
    A tuple `in_specs` gives one spec per positional argument, and every call passes `f` its
    required arguments: JAX raises `ValueError` ("pytree structure error: different lengths
    of tuple") when the mapped function is called. Give every argument its spec (`P()` for
    one that is replicated).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((1,), ("dp",))

    def local_sq_err(pred, target):
        return jnp.sum((pred - target) ** 2, keepdims=True)

    f = jax.shard_map(local_sq_err, mesh=mesh, in_specs=(P("dp"),), out_specs=P("dp"))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((1,), ("dp",))

    def local_sq_err(pred, target):
        return jnp.sum((pred - target) ** 2, keepdims=True)

    f = jax.shard_map(local_sq_err, mesh=mesh, in_specs=(P("dp"), P("dp")), out_specs=P("dp"))
    ```

    ## Fix safety
    No automatic fix: which spec the missing argument takes is the author's call.

    ## References
    - [JAX: shard_map](https://docs.jax.dev/en/latest/notebooks/shard_map.html)
    """

    code = "JAX415"
    name = "shard-map-in-specs-length"
    message = "A `shard_map`'s tuple `in_specs` has another length than the function has parameters"
    outcome = "ValueError: pytree structure error: different lengths of tuple"
    visits_anywhere = frozenset({ast.Call, ast.FunctionDef})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not node.args or not ctx.mentions("in_specs") or ctx.qualname(node.func) not in SHARD_MAPS:
            return
        found = ctx.model.resolve_function(node.args[0], ctx.scope)
        if found is not None and not found[1]:
            self.check(node, found[0].node, ctx)

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        if (
            not node.decorator_list
            or not ctx.mentions("in_specs")
            or isinstance(ctx.scope.node, ast.ClassDef)
        ):
            return  # (a method's `self` would take a spec too)
        for decorator in node.decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and ctx.qualname(decorator.func) in PARTIALS
                and decorator.args
                and ctx.qualname(decorator.args[0]) in SHARD_MAPS
            ):
                self.check(decorator, node, ctx)

    def check(self, site: ast.Call, function: ast.AST, ctx: Context) -> None:
        in_specs = keyword_argument(site, "in_specs")
        required = _required_positional(function)
        if not isinstance(in_specs, (ast.Tuple, ast.List)) or required is None:
            return
        if any(isinstance(e, ast.Starred) for e in in_specs.elts) or len(in_specs.elts) == required:
            return
        entries = len(in_specs.elts)
        name = getattr(function, "name", "the lambda")
        ctx.report(
            site,
            f"`in_specs={snippet(ctx, in_specs)}` has {entries} entr{'ies' if entries != 1 else 'y'}, but "
            f"`{name}` takes {required} argument{'s' * (required != 1)}: calling the mapped function raises "
            f"`ValueError` (pytree structure error: different lengths of tuple); give every argument "
            f"its spec, `P()` for one that is replicated",
        )


def _required_positional(function: ast.AST) -> int | None:
    """How many positional arguments every call must pass ``function``: None where it takes
    ``*args``, defaults or keyword-only parameters (calls may vary)."""
    args = getattr(function, "args", None)
    if not isinstance(args, ast.arguments) or args.vararg or args.defaults or args.kwonlyargs:
        return None
    return len(args.posonlyargs) + len(args.args)
