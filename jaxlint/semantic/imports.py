"""Qualified names: what a name or attribute chain refers to through imports and aliases.

``jnp.zeros`` after ``import jax.numpy as jnp`` is ``jax.numpy.zeros``; ``random.normal`` after
``from jax import random`` is ``jax.random.normal``; ``np.zeros`` after ``import jax.numpy as np``
is ``jax.numpy.zeros`` too. A local binding that shadows an import resolves to nothing.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from jaxlint.semantic.scopes import BUILTIN_NAMES, Scope

# Spellings of one API that JAX and its ecosystem export under several names.
CANONICAL_PREFIXES = {
    "jax.random.PRNGKey": "jax.random.PRNGKey",
    "jax.tree_util.tree_map": "jax.tree.map",
    "jax.tree_map": "jax.tree.map",
    "jax.remat": "jax.checkpoint",
    "jax.ad_checkpoint.checkpoint": "jax.checkpoint",
    "jax.ad_checkpoint.remat": "jax.checkpoint",
    "jax.experimental.shard_map.shard_map": "jax.shard_map",
    "jax.experimental.pjit.pjit": "jax.jit",
    "jax.api.jit": "jax.jit",
    "flax.linen.module.Module": "flax.linen.Module",
    "flax.linen.module.compact": "flax.linen.compact",
    "jax.experimental.io_callback": "jax.experimental.io_callback",
    # flax's control flow and pmap take modules among their operands and trace like JAX's own
    # (measured with JAX 0.10.2 and flax 0.12: a Python `if` on an operand raises in each)
    "flax.nnx.cond": "jax.lax.cond",
    "flax.nnx.switch": "jax.lax.switch",
    "flax.nnx.fori_loop": "jax.lax.fori_loop",
    "flax.nnx.while_loop": "jax.lax.while_loop",
    "flax.nnx.pmap": "jax.pmap",
}


class Resolver:
    """Resolves expressions to qualified names, scope-aware, with memoisation."""

    def __init__(self, module: Scope, package: str = "") -> None:
        self.module = module
        self.package = package  # for relative imports: `from .utils import f`
        self.aliases: dict[str, str] = {}  # module-level `jr = jax.random`
        self._cache: dict[tuple[str, int], str | None] = {}

    def name(self, name: str, scope: Scope) -> str | None:
        """The qualified name ``name`` refers to in ``scope``, or None."""
        key = (name, id(scope))
        if key in self._cache:
            return self._cache[key]
        owner = scope.lookup(name)
        result: str | None
        if owner is None:
            star = self.star_imported(name)
            result = (
                f"builtins.{name}" if name in BUILTIN_NAMES else None if star is None else self.absolute(star)
            )
        else:
            if owner.only_imported(name):
                result = self.absolute(owner.imports[name])
            elif owner is self.module:
                result = self.aliases.get(name)
            else:
                result = None
        self._cache[key] = result
        return result

    def star_imported(self, name: str) -> str | None:
        """``m.name`` for a name bound nowhere in a module whose one ``from m import *`` is
        then what binds it (several: which one is not known)."""
        stars = self.module.star_imports
        if len(stars) != 1:
            return None
        return f"{stars[0]}.{name}" if not stars[0].endswith(".") else stars[0] + name

    def absolute(self, imported: str) -> str | None:
        """``imported`` with a relative import (``.utils.f``) made absolute, canonicalised."""
        if not imported.startswith("."):
            return canonical(imported)
        level = len(imported) - len(imported.lstrip("."))
        rest = imported[level:]
        parts = self.package.split(".") if self.package else []
        if level - 1 > len(parts) or not parts:
            return None
        base = parts[: len(parts) - (level - 1)]
        return ".".join([*base, rest]) if rest else ".".join(base)

    def qualname(self, expr: ast.AST, scope: Scope) -> str | None:
        """The qualified name of a ``Name`` or ``Attribute`` chain, or None."""
        if isinstance(expr, ast.Name):
            return self.name(expr.id, scope)
        if isinstance(expr, ast.Attribute):
            base = self.qualname(expr.value, scope)
            if base is None:
                return None
            return canonical(f"{base}.{expr.attr}")
        return None

    def spelled(self, expr: ast.AST, scope: Scope) -> str | None:
        """The qualified name as the source spells it, before folding aliases of one API
        together: ``jax.tree_map`` stays ``jax.tree_map`` (``qualname`` says ``jax.tree.map``)."""
        if isinstance(expr, ast.Name):
            owner = scope.lookup(expr.id)
            if owner is None:
                return f"builtins.{expr.id}" if expr.id in BUILTIN_NAMES else self.star_imported(expr.id)
            if owner.only_imported(expr.id):
                return owner.imports[expr.id]
            return self.aliases.get(expr.id) if owner is self.module else None
        if isinstance(expr, ast.Attribute):
            base = self.spelled(expr.value, scope)
            return None if base is None else f"{base}.{expr.attr}"
        return None

    def learn_aliases(self, tree: ast.Module) -> None:
        """Module-level ``jr = jax.random`` style aliases, when that is the name's only binding."""
        for stmt in tree.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, (ast.Name, ast.Attribute))
            ):
                name = stmt.targets[0].id
                target = self.qualname(stmt.value, self.module)
                if target and self.module.bound.get(name) == 1 and _is_api(target):
                    self.aliases[name] = target
                    self._cache.clear()


@lru_cache(maxsize=65536)
def canonical(qualname: str) -> str:
    """Fold known aliases of one API onto a single spelling."""
    if not qualname.startswith(("jax.", "flax.")):
        return qualname
    for prefix, replacement in CANONICAL_PREFIXES.items():
        if qualname == prefix or qualname.startswith(prefix + "."):
            return replacement + qualname[len(prefix) :]
    return qualname


def _is_api(qualname: str) -> bool:
    root = qualname.split(".")[0]
    return root in {"jax", "flax", "equinox", "numpy", "functools", "optax", "chex", "math"}
