"""JAX305: a dropout key stored on the module when it was built, used on every call."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.constructions import called_construction, dropout_training
from ..support.explain import function_name, snippet


class StoredKeyReusedPerCall(Rule):
    """## What it does
    Finds a dropout layer in training mode (`eqx.nn.Dropout`) called with `key=self.<attr>`
    in a method, where `self.<attr>` is a key the object stored once, in `__init__` (or
    `setup`), and nothing changes afterwards.

    ## Why is this bad?
    Every call of the method hands the layer the same key, so it drops the same units every
    time: dropout becomes a fixed mask, and the training is not regularised. Nothing raises.
    Take the key as an argument of the call (`def __call__(self, x, *, key)`), and give
    each step a fresh one split from the training loop's key.

    ## Example
    ```python
    import equinox as eqx
    import jax

    class NoisyMLP(eqx.Module):
        linear: eqx.nn.Linear
        dropout: eqx.nn.Dropout
        key: jax.Array

        def __init__(self, key):
            k1, k2 = jax.random.split(key)
            self.linear = eqx.nn.Linear(8, 8, key=k1)
            self.dropout = eqx.nn.Dropout(0.5)
            self.key = k2

        def __call__(self, x):
            return self.dropout(self.linear(x), key=self.key)
    ```

    ## Use instead
    ```python
    import equinox as eqx
    import jax

    class NoisyMLP(eqx.Module):
        linear: eqx.nn.Linear
        dropout: eqx.nn.Dropout

        def __init__(self, key):
            self.linear = eqx.nn.Linear(8, 8, key=key)
            self.dropout = eqx.nn.Dropout(0.5)

        def __call__(self, x, *, key):
            return self.dropout(self.linear(x), key=key)
    ```

    ## Fix safety
    No automatic fix: the key has to come from the caller, whose loop must split it.

    ## References
    - [equinox: Dropout](https://docs.kidger.site/equinox/api/nn/dropout/)
    - [JAX: Pseudorandom numbers](https://docs.jax.dev/en/latest/random-numbers.html)
    """

    code = "JAX305"
    name = "stored-key-reused-per-call"
    message = "A dropout key stored on the object when it was built is used on every call"
    outcome = "every call drops the same units: a fixed mask, silently"
    severity = "warning"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        key = next((k.value for k in node.keywords if k.arg == "key"), None)
        if not isinstance(key, ast.Attribute) or not isinstance(key.value, ast.Name):
            return
        function = ctx.function
        if function is None or not function.is_method or function.name in ("__init__", "setup"):
            return
        params = function.positional_names()
        if not params or key.value.id != params[0]:
            return
        found = called_construction(ctx, node.func)
        layers = measured.layers_needing_a_key_to_call()
        if (
            found is None
            or ctx.model.qualname(found[0].func, found[1]) not in layers
            or not dropout_training(found[0])
        ):
            return
        cls = ctx.model.class_of_self(ctx.scope, key.value.id)
        held = None if cls is None else ctx.model.held_value(cls, key.attr)
        if held is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` in `{function_name(ctx)}` gives the dropout the key `self.{key.attr}`, "
            f"stored once in `{held[0].name}` (line {held[1].lineno}): every call drops the same units, "
            f"a fixed mask; take a key argument (`key=`) and give each call a fresh one",
        )
