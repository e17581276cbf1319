"""Deprecated and removed JAX APIs, their current form, and how a use of one is rewritten (JAX609).

Versions come from JAX's CHANGELOG and were checked against the JAX sources at each release tag
(``_deprecations`` tables: a function while deprecated, ``None`` once removed). ``deprecated`` is
None where the changelog names only the removal.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.semantic.transforms import PARTIALS
from jaxlint.semantic.values import is_jax_array

from ..support.blocks import parents, side_effect_free

RENAME = "rename"  # a drop-in replacement: same function or class under another name
JIT = "jit"  # pjit -> jit: the same, but in_shardings/out_shardings became keyword-only
AT = "at"  # jax.ops.index_update(x, i, v) -> x.at[i].set(v)
TIE_IN = "tie_in"  # jax.lax.tie_in(x, y) -> y
DISABLE_X64 = "disable_x64"  # jax.experimental.disable_x64() -> jax.enable_x64(False)
REPORT = "report"  # no mechanical rewrite


@dataclass(frozen=True)
class ReplaceName(FixRequest):
    """A use of a renamed API -> ``new``, spelt through the module's aliases (imported if needed)."""

    new: str


@dataclass(frozen=True)
class RewriteImport(FixRequest):
    """``from module import ...``: each alias in ``migrate`` is imported from its new home (bound
    to the same name) on a line above; those in ``drop`` (no use left) are removed."""

    statement: ast.ImportFrom
    migrate: tuple[tuple[ast.alias, str], ...]
    drop: tuple[ast.alias, ...]


@dataclass(frozen=True)
class IndexUpdateToAt(FixRequest):
    """``jax.ops.index_<method>(x, idx, y, ...)`` (``call``) -> ``x.at[idx].<method>(y, ...)``.
    ``safe``: ``x`` is known to be a JAX array (a NumPy array was updated in place)."""

    call: ast.Call
    method: str
    safe: bool


@dataclass(frozen=True)
class DropTieIn(FixRequest):
    """``jax.lax.tie_in(x, y)`` (``call``) -> ``y``, parenthesised unless ``bare``. ``safe``: ``x``
    is a pure expression, so nothing is lost by not evaluating it."""

    call: ast.Call
    safe: bool
    bare: bool


@dataclass(frozen=True)
class DisableX64(FixRequest):
    """``jax.experimental.disable_x64()`` (``call``) -> ``jax.enable_x64(False)``."""

    call: ast.Call


@dataclass(frozen=True)
class RenameKeywords(FixRequest):
    """``jnp.clip(x, a_min=0, a_max=1)`` -> ``jnp.clip(x, min=0, max=1)``: each keyword of
    ``renamed`` takes its new name."""

    renamed: tuple[tuple[ast.keyword, str], ...]


ApiMigration = ReplaceName | RewriteImport | IndexUpdateToAt | DropTieIn | DisableX64 | RenameKeywords


@dataclass(frozen=True)
class KeywordMigration:
    """A keyword argument of a current function renamed (the same meaning under a new name)."""

    old: str
    new: str
    deprecated: str | None
    removed: str | None


# keywords renamed, by function (CHANGELOG: `jnp.clip`'s `a_min`/`a_max` deprecated in 0.4.27 for
# `min`/`max`, removed in 0.10.0)
KEYWORD_MIGRATIONS: dict[str, dict[str, KeywordMigration]] = {
    "jax.numpy.clip": {
        "a_min": KeywordMigration("a_min", "min", "0.4.27", "0.10.0"),
        "a_max": KeywordMigration("a_max", "max", "0.4.27", "0.10.0"),
    },
}


@dataclass(frozen=True)
class Migration:
    old: str
    new: str  # the replacement's qualified name (RENAME, JIT), else how to write it
    deprecated: str | None
    removed: str | None
    kind: str = RENAME
    note: str = ""

    @property
    def status(self) -> str:
        if self.removed:
            return f"was removed in JAX {self.removed}"
        return f"is deprecated since JAX {self.deprecated}"


_TABLE = [
    Migration("jax.tree_map", "jax.tree.map", "0.4.26", "0.6.0"),
    Migration("jax.tree_flatten", "jax.tree.flatten", "0.3.15", "0.6.0"),
    Migration("jax.tree_leaves", "jax.tree.leaves", "0.3.15", "0.6.0"),
    Migration("jax.tree_structure", "jax.tree.structure", "0.3.15", "0.6.0"),
    Migration("jax.tree_transpose", "jax.tree.transpose", "0.3.15", "0.6.0"),
    Migration("jax.tree_unflatten", "jax.tree.unflatten", "0.3.15", "0.6.0"),
    Migration("jax.treedef_is_leaf", "jax.tree_util.treedef_is_leaf", "0.3.15", "0.6.0"),
    Migration("jax.tree_util.tree_multimap", "jax.tree.map", "0.3.5", "0.3.16"),
    Migration("jax.experimental.pjit.pjit", "jax.jit", "0.8.0", None, JIT),
    Migration(
        "jax.experimental.pjit.with_sharding_constraint",
        "jax.lax.with_sharding_constraint",
        "0.4.16",
        "0.4.24",
    ),
    Migration("jax.experimental.pjit.PartitionSpec", "jax.sharding.PartitionSpec", "0.4.4", "0.4.11"),
    Migration("jax.experimental.pjit.NamedSharding", "jax.sharding.NamedSharding", "0.4.4", "0.4.11"),
    Migration("jax.experimental.PartitionSpec", "jax.sharding.PartitionSpec", None, "0.4.11"),
    Migration("jax.experimental.maps.Mesh", "jax.sharding.Mesh", "0.4.4", "0.4.11"),
    Migration("jax.interpreters.pxla.Mesh", "jax.sharding.Mesh", "0.4.4", "0.4.11"),
    Migration("jax.interpreters.pxla.PartitionSpec", "jax.sharding.PartitionSpec", "0.4.4", "0.4.11"),
    Migration(
        "jax.experimental.shard_map.shard_map",
        "jax.shard_map",
        "0.8.0",
        None,
        REPORT,
        "`mesh`, `in_specs` and `out_specs` are keyword-only there, and `check_rep` became `check_vma`",
    ),
    Migration("jax.experimental.enable_x64", "jax.enable_x64", "0.8.0", "0.10.0"),
    Migration("jax.experimental.disable_x64", "jax.enable_x64(False)", "0.8.0", "0.10.0", DISABLE_X64),
    Migration("jax.random.KeyArray", "jax.Array", "0.4.16", "0.4.24"),
    Migration("jax.random.PRNGKeyArray", "jax.Array", "0.4.16", "0.4.24"),
    Migration("jax.numpy.DeviceArray", "jax.Array", "0.4.7", "0.4.14"),
    Migration("jax.interpreters.pxla.ShardedDeviceArray", "jax.Array", "0.4.7", "0.4.14"),
    Migration("jax.interpreters.xla.DeviceArray", "jax.Array", None, "0.4.11"),
    Migration("jax.abstract_arrays.ShapedArray", "jax.core.ShapedArray", "0.4.12", "0.4.16"),
    Migration("jax.lax.tie_in", "its second argument", "0.4.24", "0.4.29", TIE_IN),
    Migration("jax.ops.index_update", "x.at[idx].set(y)", "0.2.22", "0.3.2", AT),
    Migration("jax.ops.index_add", "x.at[idx].add(y)", "0.2.22", "0.3.2", AT),
    Migration("jax.ops.index_mul", "x.at[idx].multiply(y)", "0.2.22", "0.3.2", AT),
    Migration("jax.ops.index_min", "x.at[idx].min(y)", "0.2.22", "0.3.2", AT),
    Migration("jax.ops.index_max", "x.at[idx].max(y)", "0.2.22", "0.3.2", AT),
    Migration("jax.numpy.alltrue", "jax.numpy.all", "0.4.12", "0.4.16"),
    Migration("jax.numpy.sometrue", "jax.numpy.any", "0.4.12", "0.4.16"),
    Migration("jax.numpy.product", "jax.numpy.prod", "0.4.12", "0.4.16"),
    Migration("jax.numpy.cumproduct", "jax.numpy.cumprod", "0.4.12", "0.4.16"),
    Migration("jax.numpy.row_stack", "jax.numpy.vstack", "0.4.16", "0.4.24"),
    Migration("jax.numpy.trapz", "jax.numpy.trapezoid", "0.4.16", "0.4.24"),
    Migration("jax.numpy.round_", "jax.numpy.round", "0.4.32", "0.4.38"),
    Migration("jax.nn.normalize", "jax.nn.standardize", "0.3.5", "0.4.29"),
    # NumPy NEP 52 clean-up (CHANGELOG: deprecated 0.4.16, removed 0.4.24)
    Migration("jax.numpy.in1d", "jax.numpy.isin(x, y).ravel()", "0.4.16", "0.4.24", REPORT),
    Migration("jax.numpy.NINF", "-jax.numpy.inf", "0.4.16", "0.4.24", REPORT),
    Migration("jax.numpy.PZERO", "0.0", "0.4.16", "0.4.24", REPORT),
    Migration("jax.numpy.NZERO", "-0.0", "0.4.16", "0.4.24", REPORT),
    Migration("jax.numpy.issubsctype", "jax.numpy.issubdtype(x.dtype, t)", "0.4.16", "0.4.24", REPORT),
    Migration("jax.scipy.linalg.tril", "jax.numpy.tril", "0.4.16", "0.4.24"),
    Migration("jax.scipy.linalg.triu", "jax.numpy.triu", "0.4.16", "0.4.24"),
    Migration(
        "jax.xla_computation",
        "jax.jit(f).trace(*args).lower().compiler_ir('hlo')",
        "0.4.30",
        "0.4.34",
        REPORT,
        "the ahead-of-time lowering APIs",
    ),
    Migration("jax.device_put_replicated", "jax.device_put", "0.8.1", "0.10.0", REPORT, "with a sharding"),
    Migration("jax.device_put_sharded", "jax.device_put", "0.8.1", "0.10.0", REPORT, "with a sharding"),
]
MIGRATIONS: dict[str, Migration] = {m.old: m for m in _TABLE}
# jax.ops.index_* -> the `.at[]` method that replaced it
INDEX_OP_AT_METHODS = {
    "jax.ops.index_update": "set",
    "jax.ops.index_add": "add",
    "jax.ops.index_mul": "multiply",
    "jax.ops.index_min": "min",
    "jax.ops.index_max": "max",
}
AT_KEYWORDS = ("indices_are_sorted", "unique_indices")  # index_*'s 4th and 5th parameters
CALL_KINDS = (AT, TIE_IN, DISABLE_X64)


# ---------------------------------------------------------------------------- rewriting uses


def call_fix(ctx: Context, migration: Migration, call: ast.Call) -> ApiMigration | None:
    args, keywords = call.args, [k.arg for k in call.keywords]
    if any(_rewritten_call(ctx, n) for a in args for n in ast.walk(a)):
        return None  # the inner call is rewritten first; this one on the next pass
    if migration.kind == AT and 3 <= len(args) <= 5 and all(k in AT_KEYWORDS for k in keywords):
        safe = is_jax_array(ctx.value(args[0]))
        return IndexUpdateToAt(call, INDEX_OP_AT_METHODS[migration.old], safe)
    if migration.kind == TIE_IN and len(args) == 2 and not keywords:
        bare = _in_own_slot(ctx, call) or isinstance(
            args[1], (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)
        )
        return DropTieIn(call, safe=_pure(ctx, args[0]), bare=bare)
    if migration.kind == DISABLE_X64 and not args and not keywords:
        return DisableX64(call)
    return None


def _rewritten_call(ctx: Context, node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    migration = MIGRATIONS.get(ctx.model.resolver.spelled(node.func, ctx.scope) or "")
    return migration is not None and migration.kind in CALL_KINDS


def _in_own_slot(ctx: Context, call: ast.Call) -> bool:
    """Whether ``call`` fills a slot of its own (a statement's value, an argument, an element), so
    any expression can replace it without parentheses."""
    parent = _parent_of(ctx, call)
    if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Expr, ast.keyword)):
        return True
    if isinstance(parent, ast.Call):
        return call in parent.args
    return isinstance(parent, (ast.List, ast.Tuple, ast.Set))


def _pure(ctx: Context, node: ast.expr) -> bool:
    return side_effect_free(ctx, node) and not any(isinstance(n, ast.Call) for n in ast.walk(node))


def jit_compatible(ctx: Context, node: ast.expr) -> bool:
    """Whether ``node`` (a use of ``pjit``) is called with shardings by keyword only: a call with
    at most the function positionally, a bare decorator, or ``partial(pjit, **keywords)``."""
    parent = _parent_of(ctx, node)
    if isinstance(parent, ast.Call):
        if parent.func is node:
            return len(parent.args) <= 1 and not any(isinstance(a, ast.Starred) for a in parent.args)
        return ctx.model.qualname(parent.func, ctx.scope) in PARTIALS and parent.args == [node]
    return isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in parent.decorator_list


def _parent_of(ctx: Context, node: ast.expr) -> ast.AST | None:
    if ctx.parent is not None and node in ast.iter_child_nodes(ctx.parent):
        return ctx.parent
    return parents(ctx).get(node)


def uses_of(ctx: Context, name: str) -> list[ast.Name]:
    """Module-wide loads of ``name`` (an import's binding)."""
    return [
        n for n in parents(ctx) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]


def imported_names(ctx: Context) -> frozenset[str]:
    """Names some scope of this file binds by importing an API listed in the migrations."""
    names = ctx.memo.get("JAX609-names")
    if names is None:
        index = ctx.model.index
        names = frozenset(
            name
            for scope in [index.module, *index.functions]
            for name, qualname in scope.imports.items()
            if qualname in MIGRATIONS
        )
        ctx.memo["JAX609-names"] = names
    return names
