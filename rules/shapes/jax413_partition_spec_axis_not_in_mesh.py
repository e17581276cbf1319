"""JAX413: a ``PartitionSpec`` names an axis that the mesh it is used with does not have."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.tracing import str_literals
from jaxlint.semantic.transforms import PARTIALS

from ..support.explain import snippet

MESHES = frozenset({"jax.sharding.Mesh", "jax.make_mesh"})
SPECS = frozenset({"jax.sharding.PartitionSpec", "jax.P"})
NAMED_SHARDINGS = frozenset({"jax.sharding.NamedSharding"})
SHARD_MAPS = frozenset({"jax.shard_map", "jax.experimental.shard_map.shard_map"})


class PartitionSpecAxisNotInMesh(Rule):
    """## What it does
    Finds a `PartitionSpec` naming an axis that the mesh it is used with does not define, where
    the mesh is made in the file with literal axis names (`Mesh(devices, ("data", "model"))`,
    `jax.make_mesh((4, 2), ("data", "model"))`): in `NamedSharding(mesh, P(...))`, and in the
    `in_specs`/`out_specs` of `jax.shard_map(..., mesh=mesh)` (called, or under `partial`).
    Also a mesh given another number of axis names than its devices have dimensions
    (`Mesh(devices.reshape(2, 4), ("data",))`, `jax.make_mesh((2, 4), ("data",))`).

    ## Why is this bad?
    A partition spec shards array dimensions over named mesh axes. A name the mesh does not have
    raises `ValueError`: `NamedSharding` when it is made ("Resource axis: tensor of P('data',
    'tensor') is not found in mesh: ('data', 'model')"), `shard_map` when the mapped function is
    called ("in_specs argument must refer to an axis marked as manual"). Use one of the mesh's
    axis names, or `None` to replicate that dimension. A mesh names each dimension of its devices:
    with more or fewer names, `Mesh` raises `ValueError` ("Mesh requires the ndim of its first
    argument (`devices`) to equal the length of its second argument").

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((1, 1), ("data", "model"))
    w = jax.device_put(jnp.ones((16, 8)), NamedSharding(mesh, P("data", "tensor")))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((1, 1), ("data", "model"))
    w = jax.device_put(jnp.ones((16, 8)), NamedSharding(mesh, P("data", "model")))
    ```

    ## Fix safety
    No automatic fix: which axis was meant is the author's call.

    ## References
    - [JAX: Distributed arrays and automatic parallelization](https://docs.jax.dev/en/latest/notebooks/Distributed_arrays_and_automatic_parallelization.html)
    """

    code = "JAX413"
    name = "partition-spec-axis-not-in-mesh"
    message = "A `PartitionSpec` names an axis the mesh does not have"
    outcome = "ValueError: Resource axis ... is not found in mesh"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.mentions("mesh") and not ctx.mentions("Mesh"):
            return
        qualname = ctx.qualname(node.func)
        if qualname in MESHES:
            self.check_mesh(node, qualname, ctx)
            return
        if qualname in PARTIALS and node.args:  # `@partial(jax.shard_map, mesh=mesh, ...)`
            qualname = ctx.qualname(node.args[0]) if ctx.qualname(node.args[0]) in SHARD_MAPS else None
        if qualname in NAMED_SHARDINGS:
            mesh = node.args[0] if node.args else keyword_argument(node, "mesh")
            spec = node.args[1] if len(node.args) > 1 else keyword_argument(node, "spec")
            self.check(mesh, [spec], "`NamedSharding` raises `ValueError` when it is made", ctx)
        elif qualname in SHARD_MAPS:
            mesh = keyword_argument(node, "mesh")
            specs = [keyword_argument(node, "in_specs"), keyword_argument(node, "out_specs")]
            self.check(mesh, specs, "calling the `shard_map`-ped function raises `ValueError`", ctx)

    def check_mesh(self, node: ast.Call, qualname: str, ctx: Context) -> None:
        """``Mesh(devices.reshape(2, 4), ("data",))``, ``jax.make_mesh((2, 4), ("data",))``: one
        axis name per dimension of the devices, or ``ValueError``."""
        names = node.args[1] if len(node.args) > 1 else keyword_argument(node, "axis_names")
        shape = (
            node.args[0]
            if node.args
            else keyword_argument(node, "axis_shapes" if qualname == "jax.make_mesh" else "devices")
        )
        if not isinstance(names, (ast.Tuple, ast.List)) or shape is None:
            return
        dims = _literal_dims(ctx, shape) if qualname == "jax.make_mesh" else _reshaped_dims(ctx, shape)
        if dims is None or dims == len(names.elts):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` gives {len(names.elts)} axis name{'s' * (len(names.elts) != 1)} for "
            f"devices of {dims} dimensions: JAX raises `ValueError` (Mesh requires the ndim of `devices` "
            f"to equal the number of axis names); name every dimension",
        )

    def check(self, mesh: ast.expr | None, specs: list[ast.expr | None], effect: str, ctx: Context) -> None:
        axes = _mesh_axes(ctx, mesh)
        if axes is None or mesh is None:
            return
        for spec in specs:
            for call, name in _named_axes(ctx, spec):
                if name not in axes:
                    ctx.report(
                        call,
                        f"`{snippet(ctx, call)}` names axis `{name!r}`, which mesh `{snippet(ctx, mesh)}` "
                        f"does not have (its axes: {', '.join(repr(a) for a in axes)}): {effect}; name one "
                        f"of its axes, or `None` to replicate that dimension",
                    )
                    return


def _literal_dims(ctx: Context, shape: ast.expr) -> int | None:
    """How many dimensions a literal shape ``(2, 4)`` has (a name bound once to one too)."""
    shape = ctx.scope.written_value(shape)
    if isinstance(shape, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in shape.elts):
        return len(shape.elts)
    return None


def _reshaped_dims(ctx: Context, devices: ast.expr) -> int | None:
    """How many dimensions ``<array>.reshape(2, 4)`` (or ``.reshape((2, 4))``) makes, where the
    devices are reshaped in place or through a name bound once to that."""
    devices = ctx.scope.written_value(devices)
    if not (isinstance(devices, ast.Call) and isinstance(devices.func, ast.Attribute)):
        return None
    if devices.func.attr != "reshape" or not devices.args or devices.keywords:
        return None
    if len(devices.args) == 1:
        return _literal_dims(ctx, devices.args[0]) if not isinstance(devices.args[0], ast.Constant) else 1
    return None if any(isinstance(a, ast.Starred) for a in devices.args) else len(devices.args)


def _mesh_axes(ctx: Context, mesh: ast.expr | None) -> tuple[str, ...] | None:
    """The literal axis names of the mesh ``mesh`` is, made here or bound once to a name."""
    mesh = None if mesh is None else ctx.scope.written_value(mesh)
    if not isinstance(mesh, ast.Call) or ctx.qualname(mesh.func) not in MESHES:
        return None
    names = mesh.args[1] if len(mesh.args) > 1 else keyword_argument(mesh, "axis_names")
    found = str_literals(names)
    if not found or not isinstance(names, (ast.Tuple, ast.List, ast.Constant)):
        return None
    return tuple(e.value for e in names.elts) if isinstance(names, (ast.Tuple, ast.List)) else (names.value,)  # pyright: ignore


def _named_axes(ctx: Context, spec: ast.expr | None) -> Iterator[tuple[ast.Call, str]]:
    """Each literal axis name of each ``PartitionSpec(...)`` written in ``spec``."""
    if spec is None:
        return
    for call in ast.walk(spec):
        if not isinstance(call, ast.Call) or ctx.qualname(call.func) not in SPECS:
            continue
        for entry in call.args:
            items = entry.elts if isinstance(entry, (ast.Tuple, ast.List)) else [entry]
            for item in items:
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    yield call, item.value
