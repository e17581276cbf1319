"""JAX653: a ``lax`` loop body handing back its record carry as a plain tuple, list or dict."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import LOOPING_BODIES, carry_parameter, returned_expressions
from jaxlint.semantic.values import instance_classes, record_kind

from ..support.explain import snippet

DISPLAYS = {ast.Tuple: "a plain tuple", ast.List: "a list", ast.Dict: "a dict"}


class LoopCarryChangesContainer(Rule):
    """## What it does
    Finds the body of a `lax.scan`, `fori_loop` or `while_loop` whose carry comes in as a
    record (a NamedTuple, or a registered dataclass) and goes back as a plain tuple, list or
    dict display: `return (pos, vel), pos` where the carry is `State(pos, vel)`.

    ## Why is this bad?
    A loop's carry must keep its pytree structure from step to step, and a NamedTuple is another
    structure than a tuple of the same fields: JAX raises `TypeError` ("scan body function carry
    input and carry output must have the same pytree structure", measured with JAX 0.10.2).
    Build the record again: `State(pos, vel)` or `state._replace(pos=pos, vel=vel)`.

    ## Example
    ```python
    from typing import NamedTuple

    import jax.numpy as jnp
    from jax import lax

    class State(NamedTuple):
        pos: jnp.ndarray
        vel: jnp.ndarray

    def step(state, _):
        vel = state.vel - 0.1 * state.pos
        return (state.pos + 0.1 * vel, vel), state.pos

    lax.scan(step, State(jnp.ones(2), jnp.zeros(2)), None, length=3)
    ```

    ## Use instead
    ```python
    from typing import NamedTuple

    import jax.numpy as jnp
    from jax import lax

    class State(NamedTuple):
        pos: jnp.ndarray
        vel: jnp.ndarray

    def step(state, _):
        vel = state.vel - 0.1 * state.pos
        return State(state.pos + 0.1 * vel, vel), state.pos

    lax.scan(step, State(jnp.ones(2), jnp.zeros(2)), None, length=3)
    ```

    ## Fix safety
    No automatic fix: the record's constructor may take its fields in another order.

    ## References
    - [jax.lax.scan](https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html)
    """

    code = "JAX653"
    name = "loop-carry-changes-container"
    message = "A lax loop body hands its record carry back as another kind of container"
    outcome = "TypeError: carry input and carry output must have the same pytree structure"

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        self.check(node, ctx)

    def visit_Lambda(self, node: ast.Lambda, ctx: Context) -> None:
        self.check(node, ctx)

    def check(self, node: ast.FunctionDef | ast.Lambda, ctx: Context) -> None:
        info = ctx.model.infos.get(node)
        if info is None or info.repeated_by not in LOOPING_BODIES:
            return
        carry = carry_parameter(info)
        value = info.params.get(carry) if carry is not None else None
        if value is None or record_kind(value) is None:
            return
        position = LOOPING_BODIES[info.repeated_by][1]
        classes = instance_classes(value)
        record = f"a `{classes[0].name}`" if len(classes) == 1 else "a record"
        for returned in returned_expressions(node):
            new = returned if position is None else _element(returned, position)
            kind = DISPLAYS.get(type(new)) if new is not None else None
            if kind is None or new is None:
                continue
            ctx.report(
                new,
                f"`{carry}` comes into this `{(info.repeated_by or '').rsplit('.', 1)[1]}` body as {record}, "
                f"but the body hands the carry back as {kind}, `{snippet(ctx, new)}`: JAX raises "
                f"`TypeError` (the carry must keep its pytree structure); build {record} again",
            )
            return


def _element(returned: ast.expr, position: int) -> ast.expr | None:
    if isinstance(returned, ast.Tuple) and position < len(returned.elts):
        return returned.elts[position]
    return None
