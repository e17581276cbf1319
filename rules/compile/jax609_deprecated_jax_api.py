"""JAX609: a deprecated or removed JAX API."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import FixAvailability, Rule

from ..support.explain import snippet
from .migrations import (
    CALL_KINDS,
    JIT,
    KEYWORD_MIGRATIONS,
    MIGRATIONS,
    RENAME,
    ApiMigration,
    Migration,
    RenameKeywords,
    ReplaceName,
    RewriteImport,
    call_fix,
    imported_names,
    jit_compatible,
    uses_of,
)

LEAVES = frozenset(old.rsplit(".", 1)[1] for old in MIGRATIONS)


class DeprecatedJaxApi(Rule):
    """## What it does
    Finds uses of JAX APIs that were deprecated or removed, and rewrites them to their current
    form (spelled through an attribute, `from ... import ...`, or an alias):

    | API | Use instead | Deprecated | Removed |
    | --- | --- | --- | --- |
    | `jax.tree_map` | `jax.tree.map` | 0.4.26 | 0.6.0 |
    | `jax.tree_flatten`, `tree_leaves`, `tree_structure`, `tree_transpose`, `tree_unflatten` | `jax.tree.flatten`, `leaves`, `structure`, `transpose`, `unflatten` | 0.3.15 | 0.6.0 |
    | `jax.treedef_is_leaf` | `jax.tree_util.treedef_is_leaf` | 0.3.15 | 0.6.0 |
    | `jax.tree_util.tree_multimap` | `jax.tree.map` | 0.3.5 | 0.3.16 |
    | `jax.experimental.pjit.pjit` | `jax.jit` | 0.8.0 | |
    | `jax.experimental.pjit.with_sharding_constraint` | `jax.lax.with_sharding_constraint` | 0.4.16 | 0.4.24 |
    | `jax.experimental.pjit.PartitionSpec`, `NamedSharding` | `jax.sharding.PartitionSpec`, `NamedSharding` | 0.4.4 | 0.4.11 |
    | `jax.experimental.PartitionSpec` | `jax.sharding.PartitionSpec` | | 0.4.11 |
    | `jax.experimental.maps.Mesh`, `jax.interpreters.pxla.Mesh` | `jax.sharding.Mesh` | 0.4.4 | 0.4.11 |
    | `jax.interpreters.pxla.PartitionSpec` | `jax.sharding.PartitionSpec` | 0.4.4 | 0.4.11 |
    | `jax.experimental.shard_map.shard_map` | `jax.shard_map` (no automatic fix) | 0.8.0 | |
    | `jax.experimental.enable_x64` | `jax.enable_x64` | 0.8.0 | 0.10.0 |
    | `jax.experimental.disable_x64()` | `jax.enable_x64(False)` | 0.8.0 | 0.10.0 |
    | `jax.random.KeyArray`, `jax.random.PRNGKeyArray` | `jax.Array` | 0.4.16 | 0.4.24 |
    | `jax.numpy.DeviceArray`, `jax.interpreters.pxla.ShardedDeviceArray` | `jax.Array` | 0.4.7 | 0.4.14 |
    | `jax.interpreters.xla.DeviceArray` | `jax.Array` | | 0.4.11 |
    | `jax.abstract_arrays.ShapedArray` | `jax.core.ShapedArray` | 0.4.12 | 0.4.16 |
    | `jax.lax.tie_in(x, y)` | `y` | 0.4.24 | 0.4.29 |
    | `jax.ops.index_update(x, idx, y)` (`index_add`, `index_mul`, `index_min`, `index_max`) | `x.at[idx].set(y)` (`.add`, `.multiply`, `.min`, `.max`) | 0.2.22 | 0.3.2 |
    | `jax.numpy.alltrue`, `sometrue`, `product`, `cumproduct` | `jax.numpy.all`, `any`, `prod`, `cumprod` | 0.4.12 | 0.4.16 |
    | `jax.numpy.row_stack`, `trapz` | `jax.numpy.vstack`, `trapezoid` | 0.4.16 | 0.4.24 |
    | `jax.numpy.round_` | `jax.numpy.round` | 0.4.32 | 0.4.38 |
    | `jax.nn.normalize` | `jax.nn.standardize` | 0.3.5 | 0.4.29 |
    | `jax.numpy.in1d` | `jax.numpy.isin(x, y).ravel()` (no automatic fix) | 0.4.16 | 0.4.24 |
    | `jax.numpy.NINF`, `PZERO`, `NZERO` | `-jax.numpy.inf`, `0.0`, `-0.0` (no automatic fix) | 0.4.16 | 0.4.24 |
    | `jax.numpy.issubsctype(x, t)` | `jax.numpy.issubdtype(x.dtype, t)` (no automatic fix) | 0.4.16 | 0.4.24 |
    | `jax.scipy.linalg.tril`, `triu` | `jax.numpy.tril`, `triu` | 0.4.16 | 0.4.24 |
    | `jax.xla_computation(f)(*args)` | `jax.jit(f).trace(*args).lower().compiler_ir('hlo')` (no automatic fix) | 0.4.30 | 0.4.34 |
    | `jax.device_put_replicated`, `device_put_sharded` | `jax.device_put` with a sharding (no automatic fix) | 0.8.1 | 0.10.0 |

    Keyword arguments renamed: `jax.numpy.clip`'s `a_min`/`a_max` (deprecated in 0.4.27,
    removed in 0.10.0) are `min`/`max`.

    `jax.tree_util.tree_map`, `tree_flatten` and the rest of `jax.tree_util` are current and not
    reported.

    ## Why is this bad?
    A removed API fails with `AttributeError` (or `ImportError`) on current JAX; a deprecated one
    warns and will be removed. Each replacement above is the same function or class under its
    current name (or, for `jax.ops.index_*` and `tie_in`, the equivalent expression).

    ## Example
    ```python
    import jax

    def scale(params):
        return jax.tree_map(lambda p: 0.5 * p, params)
    ```

    ## Use instead
    ```python
    import jax

    def scale(params):
        return jax.tree.map(lambda p: 0.5 * p, params)
    ```

    ## Fix safety
    Renames are safe: the replacement is the same function under its current name, and a
    `from ... import old` keeps binding the old name (`from jax.tree import map as tree_map`).
    `pjit` becomes `jax.jit` only where shardings are passed by keyword. `x.at[idx].set(y)` is safe
    when `x` is known to be a JAX array (`jax.ops.index_update` also accepted NumPy arrays, which
    have no `.at`), unsafe otherwise; dropping `tie_in`'s first argument is unsafe when it has side
    effects. An import of a removed `jax.ops` function is deleted once nothing uses it. Renamed
    keywords are safe (the same parameter), unless the new name is passed too.
    `jax.experimental.shard_map.shard_map` is reported without a fix: `jax.shard_map` takes `mesh`,
    `in_specs` and `out_specs` by keyword only and renamed `check_rep` to `check_vma`.

    ## References
    - [JAX changelog](https://docs.jax.dev/en/latest/changelog.html)
    - [JAX API compatibility policy](https://docs.jax.dev/en/latest/api_compatibility.html)
    """

    code = "JAX609"
    name = "deprecated-jax-api"
    message = "A deprecated or removed JAX API is used"
    outcome = "AttributeError / ImportError on current JAX (DeprecationWarning while deprecated)"
    fix_title = "Rewrite to the current JAX API"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Attribute(self, node: ast.Attribute, ctx: Context) -> None:
        if node.attr not in LEAVES or not isinstance(node.ctx, ast.Load):
            return
        migration = MIGRATIONS.get(ctx.model.resolver.spelled(node, ctx.scope) or "")
        if migration is not None:
            parent = ctx.parent
            self.use(
                node, migration, ctx, parent if isinstance(parent, ast.Call) and parent.func is node else None
            )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if node.keywords:
            self.check_keywords(node, ctx)
        if not isinstance(func, ast.Name) or func.id not in imported_names(ctx):
            return
        migration = MIGRATIONS.get(ctx.model.resolver.spelled(func, ctx.scope) or "")
        if migration is not None and migration.kind in CALL_KINDS:
            self.use(func, migration, ctx, node)  # other imported names are fixed at their import

    def visit_ImportFrom(self, node: ast.ImportFrom, ctx: Context) -> None:
        if node.level or not node.module:
            return
        found: list[tuple[ast.alias, Migration]] = []
        migrate: list[tuple[ast.alias, str]] = []
        drop: list[ast.alias] = []
        for alias in node.names:
            migration = MIGRATIONS.get(f"{node.module}.{alias.name}")
            if migration is None:
                continue
            found.append((alias, migration))
            uses = uses_of(ctx, alias.asname or alias.name)
            if migration.kind in CALL_KINDS:
                if not uses:  # the calls were rewritten: the import is all that is left
                    drop.append(alias)
            elif migration.kind == RENAME or (
                migration.kind == JIT and all(jit_compatible(ctx, use) for use in uses)
            ):
                migrate.append((alias, migration.new))
        # One rewrite of the statement for all its names: their fixes are the same edits.
        plan = RewriteImport(node, tuple(migrate), tuple(drop))
        fixed = {id(a) for a, _ in migrate} | {id(a) for a in drop}
        if not migrate and len(fixed) < len(found):
            fixed = set()  # dropping some names now would leave the rest in the rewritten text
        for alias, migration in found:
            fix = plan if id(alias) in fixed else None
            ctx.report(alias, _message(migration, f"`{migration.old}`"), fix=fix)

    def check_keywords(self, node: ast.Call, ctx: Context) -> None:
        """``jnp.clip(x, a_min=0)``: a keyword renamed, reported at the first old one; the fix
        renames them all (safe: the same parameter under its current name)."""
        renames = KEYWORD_MIGRATIONS.get(ctx.qualname(node.func) or "")
        found = [(k, renames[k.arg]) for k in node.keywords if renames and k.arg in renames]
        if not found:
            return
        keyword, migration = found[0]
        new = {m.new for m in renames.values()} if renames else set()
        clash = any(k.arg in new for k in node.keywords)  # `min=` given too: renaming would repeat it
        status = f"was removed in JAX {migration.removed}" if migration.removed else "is deprecated"
        since = (
            f" (deprecated in {migration.deprecated})" if migration.removed and migration.deprecated else ""
        )
        ctx.report(
            keyword,
            f"the keyword `{keyword.arg}` of `{snippet(ctx, node.func)}` {status}{since}: use `{migration.new}`",
            fix=None if clash else RenameKeywords(tuple((k, m.new) for k, m in found)),
        )

    def use(self, node: ast.expr, migration: Migration, ctx: Context, call: ast.Call | None) -> None:
        fix: ApiMigration | None = None
        if migration.kind == RENAME or (migration.kind == JIT and jit_compatible(ctx, node)):
            fix = ReplaceName(migration.new)
        elif call is not None and not any(isinstance(a, ast.Starred) for a in call.args):
            fix = call_fix(ctx, migration, call)
        ctx.report(node, _message(migration, f"`{ast.unparse(node)}`"), fix=fix)


def _message(migration: Migration, spelled: str) -> str:
    since = f" (deprecated in {migration.deprecated})" if migration.removed and migration.deprecated else ""
    new = migration.new if migration.kind in CALL_KINDS else f"`{migration.new}`"
    note = f" ({migration.note})" if migration.note else ""
    return f"{spelled} {migration.status}{since}: use {new}{note}"
