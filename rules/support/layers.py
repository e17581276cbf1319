"""The transformation a called function value is wrapped in (JAX406's ``vmap``, JAX613's
``grad``), when the call's arguments reach that layer unchanged."""

from __future__ import annotations

import ast
from collections.abc import Collection
from functools import cache

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.semantic.imports import CANONICAL_PREFIXES
from jaxlint.semantic.values import FunctionRef, LayerRef, LibraryRef, refs

# wrappers that hand a call's arguments on unchanged
PASSING = frozenset({"jax.jit"})


def called_layer(ctx: Context, func: ast.expr, transforms: Collection[str]) -> LayerRef | None:
    """The innermost layer among ``transforms`` of the one function ``func`` holds, when the
    call's own arguments reach it: nothing bound by ``partial`` or ``self`` around or inside it,
    only ``jax.jit`` outside it. A file that never names a transform cannot have applied it,
    and a name imported from elsewhere carries no layer of this file's, so the model is asked
    only about this file's values in a file that names a transform."""
    gate = ctx.memo.get(("names-a-transform", id(transforms)))  # (the tables are module constants)
    if gate is None:
        leaves = _spelled_leaves(frozenset(transforms))
        gate = ctx.memo[("names-a-transform", id(transforms))] = (leaves, any(map(ctx.mentions, leaves)))
    leaves, named = gate
    if not named:
        return None
    if isinstance(func, (ast.Name, ast.Attribute)) and ctx.qualname(func) is not None:
        return None  # an imported function (`jnp.sum`): only this file's values carry layers
    if isinstance(func, (ast.Name, ast.Attribute)) and _named(func) not in _layer_holders(ctx, leaves):
        return None  # no name of that spelling is ever bound to a transform's result
    found = refs(ctx.value(func))
    if len(found) != 1:
        return None
    ref = next(iter(found))
    if not isinstance(ref, (FunctionRef, LibraryRef)) or not ref.layers:
        return None
    if isinstance(ref, FunctionRef) and (ref.offset or ref.bound or ref.skip):
        return None
    for index, layer in enumerate(ref.layers):
        if layer.transform in transforms:
            outer = ref.layers[index + 1 :]
            if layer.offset or layer.bound or not all(o.transform in PASSING and not o.bound for o in outer):
                return None
            return layer
    return None


def in_axes_argument(layer: LayerRef) -> ast.expr | None:
    """The ``in_axes`` a mapping layer was given: by keyword, or second to ``jax.vmap``
    (``jax.vmap(f, in_axes)``, ``partial(jax.vmap, in_axes)``). None: the default, ``0``."""
    call = layer.call
    if call is None:
        return None  # `@jax.vmap`
    in_axes = keyword_argument(call, "in_axes")
    if in_axes is None and layer.transform == "jax.vmap" and len(call.args) > 1:
        in_axes = call.args[1]
    return in_axes


def literal_in_axes(layer: LayerRef) -> int | list[int | None] | None:
    """``in_axes`` when literal: an int for every argument, or one entry per position (None:
    unmapped; a position with a pytree of axes counts as unknown, so unmapped). None when it
    is not literal or maps nothing."""
    in_axes = in_axes_argument(layer)
    if in_axes is None:
        return 0
    if isinstance(in_axes, ast.Constant):
        return in_axes.value if type(in_axes.value) is int else None
    if isinstance(in_axes, (ast.Tuple, ast.List)):
        return [
            e.value if isinstance(e, ast.Constant) and type(e.value) is int else None for e in in_axes.elts
        ]
    return None


def _named(func: ast.Name | ast.Attribute) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr


def _layer_holders(ctx: Context, leaves: frozenset[str]) -> frozenset[str]:
    """The names the file binds to an expression that names one of the transforms ``leaves``
    (``step = jax.vmap(f)``), the functions it decorates with one, and every attribute it
    stores (memoised per file and transforms): only these can hold a layer of the file's own
    making, from the scope index, without another walk of the tree."""
    key = ("layer-holders", leaves)
    found: frozenset[str] | None = ctx.memo.get(key)
    if found is None:
        holders = _holders_by_word(ctx)
        names = set(ctx.model.stored_attributes())  # (`self.run = ...`: any stored attribute may hold one)
        for leaf in leaves:
            names |= holders.get(leaf, set())
        found = ctx.memo[key] = frozenset(names)
    return found


def _holders_by_word(ctx: Context) -> dict[str, set[str]]:
    """For each name or attribute the file mentions in a bound value or a decorator, the names
    so bound or decorated (one walk per file, whatever the transforms asked about)."""
    found: dict[str, set[str]] | None = ctx.memo.get("layer-holder-words")
    if found is not None:
        return found
    found = ctx.memo["layer-holder-words"] = {}
    model = ctx.model
    bound = [
        (name, [value]) for scope in model.index.scopes.values() for name, value in scope.assigned.items()
    ]
    bound += [(node.name, node.decorator_list) for node, _ in model.index.decorated]  # pyright: ignore[reportAttributeAccessIssue]
    for holder, expressions in bound:
        for expression in expressions:
            for node in ast.walk(expression):
                word = (
                    node.id
                    if isinstance(node, ast.Name)
                    else node.attr
                    if isinstance(node, ast.Attribute)
                    else None
                )
                if word is not None:
                    found.setdefault(word, set()).add(holder)
    return found


@cache
def _spelled_leaves(transforms: frozenset[str]) -> frozenset[str]:
    """The last names the transforms go by in source: ``checkpoint``, and ``remat``, which
    JAX exports as another name of it."""
    names = {
        *transforms,
        *(alias for alias, canonical in CANONICAL_PREFIXES.items() if canonical in transforms),
    }
    return frozenset(name.rpartition(".")[2] for name in names)
