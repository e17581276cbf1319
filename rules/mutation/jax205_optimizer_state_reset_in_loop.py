"""JAX205: an optax optimizer's state initialised afresh on every iteration of a training loop."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import measured

from ..support.explain import snippet
from ..support.optimizers import optimizer_among

LOOP_TYPES = (ast.For, ast.AsyncFor, ast.While)
NESTED = (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class OptimizerStateResetInLoop(Rule):
    """## What it does
    Finds `state = opt.init(params)` in the body of a loop that, later in the same iteration,
    updates `state` with `opt.update(grads, state, ...)` and rebinds `params`, where `opt` is an
    optax optimizer whose state carries what earlier steps did (Adam's moments and step count,
    momentum; measured by running optax): `optax.adam`, `optax.adamw`, `optax.rmsprop`, ...,
    alone or in an `optax.chain`.

    ## Why is this bad?
    Every iteration starts from a fresh state, so the optimizer never accumulates anything: Adam
    takes a bias-corrected first step, of size close to the learning rate, on every step, a
    schedule stays at its first value, and the state returned by `update` is thrown away at the
    next `init`. Initialise the state once, before the loop. (A stateless optimizer such as
    `optax.sgd` without momentum is left alone: re-initialising it changes nothing.)

    ## Example
    ```python
    import optax

    opt = optax.adam(1e-3)
    for batch in batches:
        state = opt.init(params)
        updates, state = opt.update(grads(params, batch), state)
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
    No automatic fix: the initial parameters must exist before the loop, which only the author
    can arrange.

    ## References
    - [optax: getting started](https://optax.readthedocs.io/en/latest/getting_started.html)
    """

    code = "JAX205"
    name = "optimizer-state-reset-in-loop"
    message = "An optax optimizer's state is initialised afresh on every loop iteration"
    outcome = "the optimizer forgets its moments and step count on every step"
    severity = "warning"
    visits_anywhere = frozenset({ast.For, ast.AsyncFor, ast.While})

    def visit_For(self, node: ast.For, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_AsyncFor(self, node: ast.AsyncFor, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_While(self, node: ast.While, ctx: Context) -> None:
        self.check(node, ctx)

    def check(self, loop: ast.For | ast.AsyncFor | ast.While, ctx: Context) -> None:
        statements = list(_iteration_statements(loop.body))
        targets = _loop_targets(loop)
        for index, statement in enumerate(statements):
            init = _state_init(statement)
            if init is None:
                continue
            state, optimizer, params = init
            kind = optimizer_among(ctx, optimizer, measured.stateful_optimizers())
            if kind is None or params in targets:
                continue
            later = statements[index + 1 :]
            if not any(_updates(s, optimizer, state) for s in later) or not any(
                params in _bound_names(s) for s in later
            ):
                continue
            ctx.report(
                statement,
                f"`{snippet(ctx, statement)}` runs on every iteration of the loop at line "
                f"{loop.lineno}, and `{optimizer}` is {kind}, whose state carries what "
                f"earlier steps did (moments, a step count): each `{optimizer}.update` starts from "
                f"a fresh state and the state it returns is dropped; initialise `{state}` once, "
                f"before the loop",
            )


def _iteration_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements one iteration runs in order, through ``if``/``with``/``try`` blocks but
    not into nested loops, functions or classes."""
    found: list[ast.stmt] = []
    for statement in body:
        if isinstance(statement, NESTED):
            continue
        found.append(statement)
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list) and not isinstance(statement, LOOP_TYPES):
                found.extend(_iteration_statements(inner))
        for handler in getattr(statement, "handlers", []):
            found.extend(_iteration_statements(handler.body))
    return found


def _loop_targets(loop: ast.For | ast.AsyncFor | ast.While) -> set[str]:
    if isinstance(loop, ast.While):
        return set()
    return {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}


def _state_init(statement: ast.stmt) -> tuple[str, str, str] | None:
    """``state = opt.init(params)``: (state, optimizer, params) names."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target, call = statement.targets[0], statement.value
    if not (
        isinstance(target, ast.Name)
        and isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "init"
        and isinstance(call.func.value, ast.Name)
        and len(call.args) == 1
        and isinstance(call.args[0], ast.Name)
    ):
        return None
    return target.id, call.func.value.id, call.args[0].id


def _updates(statement: ast.stmt, optimizer: str, state: str) -> bool:
    """Whether ``statement`` rebinds ``state`` from ``optimizer.update(grads, state, ...)``."""
    if state not in _bound_names(statement):
        return False
    for node in ast.walk(statement):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "update"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == optimizer
        ):
            given = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "state")]
            if any(isinstance(g, ast.Name) and g.id == state for g in given):
                return True
    return False


def _bound_names(statement: ast.stmt) -> set[str]:
    """The names an assignment statement binds."""
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        targets = [statement.target]
    else:
        return set()
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
