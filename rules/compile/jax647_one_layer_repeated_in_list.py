"""JAX647: ``[nn.Dense(4)] * 3``: one layer object repeated, where distinct layers were meant."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet

# libraries whose capitalised names are layer classes, and how their repeated instance behaves
# (measured with flax 0.12.8 and equinox 0.13.8)
LAYER_LIBRARIES = {
    "flax.linen.": "flax",
    "flax.nnx.": "flax",
    "equinox.nn.": "equinox",
}
MODULE_BASES = {"flax.linen.Module": "flax", "flax.nnx.Module": "flax", "equinox.Module": "equinox"}
# capitalised names without parameters to share (repeating them is harmless), or not layers
NOT_SHARED = frozenset({"Dropout", "Identity", "Lambda", "Rngs", "RngStream", "GraphDef", "State"})


@dataclass(frozen=True)
class ComprehensionOfLayers(FixRequest):
    """``[Layer(...)] * n`` -> ``[Layer(...) for _ in range(n)]``: a layer made per element."""

    node: ast.BinOp
    layer: ast.Call
    count: ast.expr


class OneLayerRepeatedInList(Rule):
    """## What it does
    Finds a list of layers made by multiplying a one-element list, `[nn.Dense(4)] * 3`, where
    the element constructs a flax (linen or nnx) or equinox layer.

    ## Why is this bad?
    List multiplication repeats the one object it holds: the list has three references to the
    same layer. Flax then makes one set of parameters for all three (measured with flax 0.12.8:
    `[nn.Dense(4)] * 3` in `setup` or `@nn.compact` gives one `Dense` in the parameters, and
    `nnx.List([nnx.Linear(...)] * 3)` holds one kernel), so the "deep" network applies one
    layer three times. An equinox list holds three identical copies of one initialisation.

    ## Example
    ```python
    import flax.linen as nn

    class DeepMLP(nn.Module):
        def setup(self):
            self.layers = [nn.Dense(4)] * 3
    ```

    ## Use instead
    ```python
    import flax.linen as nn

    class DeepMLP(nn.Module):
        def setup(self):
            self.layers = [nn.Dense(4) for _ in range(3)]
    ```

    ## Fix safety
    For flax layers the fix builds one layer per element with a comprehension (unsafe: the
    parameters change, several sets where there was one). An equinox layer made from a `key`
    would still be a copy of one initialisation in a comprehension: no fix, split the key.

    ## References
    - [Python: common sequence operations (`s * n` copies references)](https://docs.python.org/3/library/stdtypes.html#common-sequence-operations)
    - [Flax: setup](https://flax.readthedocs.io/en/latest/guides/flax_fundamentals/setup_or_nncompact.html)
    """

    code = "JAX647"
    mentioned = frozenset({"flax", "equinox"})
    name = "one-layer-repeated-in-list"
    message = "A list repeats one layer object where distinct layers were meant"
    outcome = "the layers share one set of parameters (flax) or start as copies (equinox), silently"
    severity = "warning"
    fix_title = "Make one layer per element with a comprehension"
    fix_availability = FixAvailability.SOMETIMES

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        if not isinstance(node.op, ast.Mult):
            return
        listed, count = (
            (node.left, node.right) if isinstance(node.left, ast.List) else (node.right, node.left)
        )
        if not isinstance(listed, ast.List) or len(listed.elts) != 1:
            return
        if isinstance(count, ast.List) or (isinstance(count, ast.Constant) and count.value in (0, 1)):
            return
        layer, scope = ctx.scope.followed(listed.elts[0])  # `[dense] * 3`, `dense = nn.Dense(4)`
        library = _layer_library(ctx, layer, scope) if isinstance(layer, ast.Call) else None
        if library is None or not isinstance(layer, ast.Call):
            return
        written = layer is listed.elts[0]  # a name of one layer: a comprehension would repeat it too
        if library == "flax":
            shared = "one object, so flax makes one set of parameters for all of them"
        else:
            shared = "one object: every element is the same initialisation"
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` repeats the layer `{snippet(ctx, layer)}`: the list holds {shared}; "
            f"make one layer per element (`[{snippet(ctx, layer)} for _ in range({snippet(ctx, count)})]`"
            f"{'' if library == 'flax' else ', each with a key of its own'})",
            fix=ComprehensionOfLayers(node, layer, count) if library == "flax" and written else None,
        )


def _layer_library(ctx: Context, call: ast.Call, scope: Scope) -> str | None:
    """Which library's layer ``call`` (written in ``scope``) constructs: a capitalised class of
    flax (linen, nnx) or ``equinox.nn``, or a class of this module derived from their ``Module``."""
    qualname = ctx.model.qualname(call.func, scope) or ""
    for prefix, library in LAYER_LIBRARIES.items():
        last = qualname.removeprefix(prefix)
        if last != qualname and "." not in last and last[:1].isupper():
            return None if last in NOT_SHARED else library
    cls = ctx.model.class_named(call.func, scope)
    if cls is None:
        return None
    bases = (ctx.model.qualname(base, scope) for base in cls.bases)
    return next((MODULE_BASES[b] for b in bases if b in MODULE_BASES), None)
