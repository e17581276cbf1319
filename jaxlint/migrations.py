"""Deprecated and removed JAX APIs and their current form (JAX609).

Versions come from JAX's CHANGELOG and were checked against the JAX sources at each release tag
(``_deprecations`` tables: a function while deprecated, ``None`` once removed). ``deprecated`` is
None where the changelog names only the removal.
"""

from __future__ import annotations

from dataclasses import dataclass

RENAME = "rename"  # a drop-in replacement: same function or class under another name
JIT = "jit"  # pjit -> jit: the same, but in_shardings/out_shardings became keyword-only
AT = "at"  # jax.ops.index_update(x, i, v) -> x.at[i].set(v)
TIE_IN = "tie_in"  # jax.lax.tie_in(x, y) -> y
DISABLE_X64 = "disable_x64"  # jax.experimental.disable_x64() -> jax.enable_x64(False)
REPORT = "report"  # no mechanical rewrite


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
            return f"removed in JAX {self.removed}"
        return f"deprecated since JAX {self.deprecated}"


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
]
MIGRATIONS: dict[str, Migration] = {m.old: m for m in _TABLE}
AT_METHODS = {
    "jax.ops.index_update": "set",
    "jax.ops.index_add": "add",
    "jax.ops.index_mul": "multiply",
    "jax.ops.index_min": "min",
    "jax.ops.index_max": "max",
}
AT_KEYWORDS = ("indices_are_sorted", "unique_indices")  # index_*'s 4th and 5th parameters
