"""JAX626: flax ``TrainState.apply_gradients`` given the gradients by position."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet

TRAIN_STATES = ("flax.training.train_state",)
# libraries whose optimizers take gradients by position (`optimizer.apply_gradients(zip(g, v))`)
POSITIONAL_LIBRARIES = ("tensorflow", "keras", "tf_keras")


class TrainStateGradientsPositional(Rule):
    """## What it does
    Finds `state.apply_gradients(grads)` with the gradients passed by position, in a module
    that uses flax's `TrainState` (it imports `flax.training.train_state`), defines no
    `apply_gradients` of its own and imports no TensorFlow or Keras (whose optimizers take
    gradients by position).

    ## Why is this bad?
    `TrainState.apply_gradients(self, *, grads, **kwargs)` takes the gradients by keyword only:
    Python raises `TypeError` ("apply_gradients() takes 1 positional argument but 2 were given").
    Write `state.apply_gradients(grads=grads)`.

    ## Example
    ```python
    from flax.training import train_state

    def step(state: train_state.TrainState, grads):
        return state.apply_gradients(grads)
    ```

    ## Use instead
    ```python
    from flax.training import train_state

    def step(state: train_state.TrainState, grads):
        return state.apply_gradients(grads=grads)
    ```

    ## Fix safety
    No automatic fix offered yet.

    ## References
    - [flax TrainState](https://flax.readthedocs.io/en/latest/api_reference/flax.training.html#flax.training.train_state.TrainState)
    """

    code = "JAX626"
    name = "train-state-gradients-positional"
    message = "`TrainState.apply_gradients` is given the gradients by position"
    outcome = "TypeError: apply_gradients() takes 1 positional argument"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "apply_gradients" and node.args):
            return
        if not _uses_flax_train_state(ctx):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` passes the gradients by position, but flax's "
            f"`TrainState.apply_gradients` takes them by keyword only: Python raises `TypeError`; "
            f"write `{snippet(ctx, func)}(grads={snippet(ctx, node.args[0])})`",
        )


def _uses_flax_train_state(ctx: Context) -> bool:
    """The module imports flax's train state, no library whose optimizers take gradients by
    position, and defines no ``apply_gradients`` (memoised)."""
    found = ctx.memo.get("flax-train-state")
    if found is None:
        imported = {
            qualname
            for scope in [ctx.model.index.module, *ctx.model.index.functions]
            for qualname in scope.imports.values()
        }
        found = (
            any(q.startswith(TRAIN_STATES) for q in imported)
            and not any(q.split(".")[0] in POSITIONAL_LIBRARIES for q in imported)
            and not any(
                isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "apply_gradients"
                for n in ast.walk(ctx.model.tree)
            )
        )
        ctx.memo["flax-train-state"] = found
    return bool(found)
