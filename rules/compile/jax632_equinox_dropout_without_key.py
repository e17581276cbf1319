"""JAX632: an equinox ``Dropout`` called in training mode without a ``key``."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.constructions import MODE_KEYWORDS, called_construction, dropout_training
from ..support.explain import snippet

# what switches every layer of a model to inference mode at once
WHOLE_MODEL_SWITCHES = ("inference_mode", "tree_inference")


class EquinoxDropoutWithoutKey(Rule):
    """## What it does
    Finds a call of an equinox `Dropout` (which layers need a key to run is measured) without
    `key=`, where neither its construction nor the call puts it in inference mode and its
    rate is a literal above zero: `self.dropout(x)` where `__init__` made
    `self.dropout = eqx.nn.Dropout(0.1)`. A file that switches whole models with
    `eqx.nn.inference_mode` (or `tree_inference`) is left alone.

    ## Why is this bad?
    An equinox layer is in training mode unless told otherwise (`inference=False`), and in
    training mode `Dropout` draws its mask from the key of the call: without one, equinox
    raises `RuntimeError` ("Dropout requires a key when running in non-deterministic mode").
    Pass `key=` (a fresh key each step, split from the model's own), and switch to inference
    mode for evaluation (`eqx.nn.inference_mode(model)`).

    ## Example
    ```python
    import equinox as eqx
    import jax

    class Head(eqx.Module):
        linear: eqx.nn.Linear
        dropout: eqx.nn.Dropout

        def __init__(self, key):
            self.linear = eqx.nn.Linear(4, 2, key=key)
            self.dropout = eqx.nn.Dropout(0.1)

        def __call__(self, x, key):
            return self.linear(self.dropout(x))
    ```

    ## Use instead
    ```python
    import equinox as eqx
    import jax

    class Head(eqx.Module):
        linear: eqx.nn.Linear
        dropout: eqx.nn.Dropout

        def __init__(self, key):
            self.linear = eqx.nn.Linear(4, 2, key=key)
            self.dropout = eqx.nn.Dropout(0.1)

        def __call__(self, x, key):
            return self.linear(self.dropout(x, key=key))
    ```

    ## Fix safety
    No automatic fix: which key the layer should draw from is the author's.

    ## References
    - [equinox: Dropout](https://docs.kidger.site/equinox/api/nn/dropout/)
    """

    code = "JAX632"
    name = "equinox-dropout-without-key"
    message = "An equinox `Dropout` is called in training mode without a `key`"
    outcome = "RuntimeError: Dropout requires a key when running in non-deterministic mode"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        layers = measured.layers_needing_a_key_to_call()
        if not any(ctx.mentions(name.rpartition(".")[2]) for name in layers):
            return
        if any(k.arg in ("key", *MODE_KEYWORDS, None) for k in node.keywords):
            return
        if any(ctx.mentions(switch) for switch in WHOLE_MODEL_SWITCHES):
            return
        found = called_construction(ctx, node.func)
        if found is None:
            return
        construction, scope = found
        if ctx.model.qualname(construction.func, scope) not in layers or not dropout_training(construction):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` calls `{snippet(ctx, construction)}` (line {construction.lineno}) "
            f"without `key=`, in training mode (`inference=False`, its default): equinox raises "
            f"`RuntimeError` (Dropout requires a key when running in non-deterministic mode); pass "
            f"`key=`, a fresh key each step, and use `eqx.nn.inference_mode(model)` to evaluate",
        )
