"""JAX206: the state an optax optimizer's ``update`` returns, thrown away."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic import measured
from jaxlint.semantic.bodies import returned_expressions

from ..support.blocks import name_loads
from ..support.explain import snippet
from ..support.optimizers import optimizer_among, update_receiver


@dataclass(frozen=True)
class KeepState(FixRequest):
    """``updates, _ = opt.update(grads, state)`` -> ``updates, state = opt.update(grads, state)``."""

    discarded: ast.Name
    state: str


class OptimizerStateDiscarded(Rule):
    """## What it does
    Finds `updates, _ = opt.update(grads, state, ...)` (or the new state bound to a name
    nothing in the file reads), where `opt` is an optax optimizer
    whose state carries what earlier steps did (Adam's moments and step count, momentum;
    measured by running optax), and `state` is never rebound: the update runs in a loop over
    one `state`, or in a function that takes `state` as a parameter and hands the old one
    back (or none).

    ## Why is this bad?
    `update` does not change the state it is given (JAX values are immutable): it returns the
    new one. Thrown away, the optimizer never advances: every step sees the initial moments
    and a step count of zero, so Adam takes its bias-corrected first step, of about the
    learning rate, every time, and a schedule stays at its first value. Nothing raises.
    Bind the new state, `updates, state = opt.update(grads, state)`, and carry it on.

    ## Example
    ```python
    import optax

    opt = optax.adam(1e-3)
    state = opt.init(params)
    for batch in batches:
        updates, _ = opt.update(grads(params, batch), state)
        params = optax.apply_updates(params, updates)
    ```

    ## Use instead
    ```python
    import optax

    opt = optax.adam(1e-3)
    state = opt.init(params)
    for batch in batches:
        updates, state = opt.update(grads(params, batch), state)
        params = optax.apply_updates(params, updates)
    ```

    ## Fix safety
    Unsafe: the optimizer then advances, as meant, which changes every later step; in a
    function, the new state must also reach the caller (the fix is offered where the function
    already returns the state's name).

    ## References
    - [optax: getting started](https://optax.readthedocs.io/en/latest/getting_started.html)
    """

    code = "JAX206"
    name = "optimizer-state-discarded"
    message = "The optimizer state an optax `update` returns is thrown away"
    outcome = "the optimizer never advances: every step starts from the same state"
    severity = "warning"
    fix_title = "Bind the new state to the state's name"
    fix_availability = FixAvailability.SOMETIMES
    visits_anywhere = frozenset({ast.Assign})

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        call, target = node.value, node.targets[0]
        if len(node.targets) != 1 or not isinstance(call, ast.Call) or not isinstance(target, ast.Tuple):
            return
        optimizer = update_receiver(call)
        if optimizer is None or len(target.elts) != 2:
            return
        discarded = target.elts[1]
        if not isinstance(discarded, ast.Name) or (discarded.id != "_" and name_loads(ctx, discarded.id)):
            return  # the new state is bound to a name something reads
        state = _state_argument(call)
        if state is None or ctx.scope.bound.get(state.id) != 1:
            return  # rebound somewhere: the state may advance another way
        repeated = _repetition(ctx, state.id)
        kind = None if repeated is None else optimizer_among(ctx, optimizer, measured.stateful_optimizers())
        if repeated is None or kind is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` throws away the state `{optimizer}.update` returns"
            f"{'' if discarded.id == '_' else f' (nothing reads `{discarded.id}`)'}, and "
            f"`{state.id}` is never rebound ({repeated}): `{optimizer}` is {kind}, whose state "
            f"carries its moments and step count, so every step starts from the same state and "
            f"the optimizer never advances; bind it, `{snippet(ctx, target.elts[0])}, {state.id} = ...`",
            fix=KeepState(discarded, state.id) if _keeps_new_state(ctx, state.id) else None,
        )


def _state_argument(call: ast.Call) -> ast.Name | None:
    """The state ``opt.update(updates, state, ...)`` is given, when it is a plain name."""
    state = (
        call.args[1]
        if len(call.args) > 1
        else next((k.value for k in call.keywords if k.arg == "state"), None)
    )
    return state if isinstance(state, ast.Name) else None


def _repetition(ctx: Context, state: str) -> str | None:
    """Why the update runs more than once on the same state: inside a loop, or in a function
    that is given the state (each call, from the caller's unchanged state)."""
    if ctx.loops and any(isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) for loop in ctx.loops):
        return f"the update runs on every iteration of the loop at line {ctx.loops[-1].lineno}"  # pyright: ignore[reportAttributeAccessIssue]
    function = ctx.function
    if function is not None and state in function.positional_names():
        return f"`{function.name}` is given `{state}` and updates from it on every call"
    return None


def _keeps_new_state(ctx: Context, state: str) -> bool:
    """Whether binding the new state to ``state`` reaches whoever takes the next step: a loop
    of this scope reads it next iteration; a function must already return ``state``."""
    function = ctx.function
    if function is None or ctx.loops:
        return True
    return any(
        isinstance(n, ast.Name) and n.id == state
        for r in returned_expressions(function.node)
        for n in ast.walk(r)
    )
