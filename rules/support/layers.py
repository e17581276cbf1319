"""The transformation a called function value is wrapped in (JAX406's ``vmap``, JAX613's
``grad``), when the call's arguments reach that layer unchanged."""

from __future__ import annotations

import ast
from collections.abc import Collection

from jaxlint.engine.context import Context
from jaxlint.semantic.values import FunctionRef, LayerRef, LibraryRef, refs

# wrappers that hand a call's arguments on unchanged
PASSING = frozenset({"jax.jit"})


def called_layer(ctx: Context, func: ast.expr, transforms: Collection[str]) -> LayerRef | None:
    """The innermost layer among ``transforms`` of the one function ``func`` holds, when the
    call's own arguments reach it: nothing bound by ``partial`` or ``self`` around or inside it,
    only ``jax.jit`` outside it. A file that never names a transform cannot have applied it,
    so the model is asked only where one is named (most calls of most files are not)."""
    if not any(ctx.mentions(name.rpartition(".")[2]) for name in transforms):
        return None
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
