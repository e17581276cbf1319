"""JAX404: a ``lax`` loop body that makes its carry longer on every step."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.functions import FunctionInfo

from ..support.explain import snippet

# loop -> (position of the body function, position of the carry among its parameters,
# whether the body returns (carry, output) rather than the carry)
LOOPS = {
    "jax.lax.fori_loop": (2, 1, False),
    "jax.lax.while_loop": (1, 0, False),
    "jax.lax.scan": (0, 0, True),
}
LOOP_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in LOOPS)
# functions that join arrays along an axis: with the whole carry among their inputs, the result
# is longer than the carry
JOINS = frozenset(
    f"jax.numpy.{name}" for name in ("concatenate", "append", "hstack", "vstack", "column_stack", "row_stack")
)


class GrowingLoopCarry(Rule):
    """## What it does
    Finds the body of a `lax.fori_loop`, `lax.while_loop` or `lax.scan` that returns, as (a part
    of) its carry, the carry joined with something more: `jnp.concatenate([xs, new])`,
    `jnp.append(acc, x)`, `jnp.vstack((rows, row))`, where `xs`, `acc`, `rows` is the carry the
    body was given (or a part of it unpacked from a tuple).

    ## Why is this bad?
    A `lax` loop compiles its body once, for a carry of fixed shape and dtype: the body must
    return a carry of the same type it was given. A carry that grows on every step raises
    `TypeError` ("body function carry input and carry output must have equal types") when JAX
    traces the loop. Preallocate the result and write each step's value with `.at[i].set(...)`,
    or, in a `scan`, return the value as the step's output and let `scan` stack them.

    ## Example
    ```python
    from jax import lax
    import jax.numpy as jnp

    def body(i, acc):
        return jnp.append(acc, i * 2.0)

    lax.fori_loop(0, 10, body, jnp.zeros(0))
    ```

    ## Use instead
    ```python
    from jax import lax
    import jax.numpy as jnp

    def body(i, acc):
        return acc.at[i].set(i * 2.0)

    lax.fori_loop(0, 10, body, jnp.zeros(10))
    ```

    ## Fix safety
    No automatic fix: the final length must be known to preallocate, which the code does not say.

    ## References
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    - [jax.lax.scan](https://docs.jax.dev/en/latest/_autosummary/jax.lax.scan.html)
    """

    code = "JAX404"
    name = "growing-loop-carry"
    message = "A `lax` loop body makes its carry longer on every step"
    outcome = "TypeError: body function carry input and carry output must have equal types"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in LOOP_LEAVES:
            return
        qualname = ctx.qualname(node.func)
        shape = LOOPS.get(qualname or "")
        if shape is None:
            return
        position, carry_position, pairs = shape
        if len(node.args) <= position:
            return
        found = ctx.model.resolve_function(node.args[position], ctx.scope)
        if found is None or found[1]:
            return
        body = found[0]
        parameters = body.positional_names()
        if len(parameters) <= carry_position:
            return
        carried = _carried_names(body, parameters[carry_position])
        for returned in returned_expressions(body.node):
            grown = _grown(ctx, body, _carry_part(returned, pairs), carried)
            if grown is None:
                continue
            loop = "lax." + qualname.rsplit(".", 1)[1]  # pyright: ignore[reportOptionalMemberAccess]
            ctx.report(
                grown,
                f"`{snippet(ctx, grown)}` in `{body.name}` makes the carry longer on every step of "
                f"`{loop}` (line {node.lineno}): a loop carry keeps its shape, so JAX raises "
                f"`TypeError` (carry input and output types differ); preallocate and write each step "
                f"with `.at[i].set(...)`" + (", or return the value as the step's output" if pairs else ""),
            )
            return


def _carried_names(body: FunctionInfo, carry: str) -> set[str]:
    """The carry parameter and the names a top-level ``a, b = carry`` of the body unpacks."""
    names = {carry}
    statements = body.node.body if isinstance(body.node.body, list) else []
    for statement in statements:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], (ast.Tuple, ast.List))
            and isinstance(statement.value, ast.Name)
            and statement.value.id == carry
        ):
            names |= {e.id for e in statement.targets[0].elts if isinstance(e, ast.Name)}
    return {name for name in names if body.scope.bound.get(name, 0) <= 1}  # rebound: no longer the carry


def _carry_part(returned: ast.expr, pairs: bool) -> list[ast.expr]:
    """The expressions the body hands back as its carry (its parts, for a tuple display)."""
    if pairs:
        if not (isinstance(returned, ast.Tuple) and len(returned.elts) == 2):
            return []
        returned = returned.elts[0]
    return list(returned.elts) if isinstance(returned, ast.Tuple) else [returned]


def _grown(ctx: Context, body: FunctionInfo, parts: list[ast.expr], carried: set[str]) -> ast.Call | None:
    """The part that joins a whole carried array with more, when there is one."""
    for part in parts:
        if not isinstance(part, ast.Call) or ctx.model.qualname(part.func, body.scope) not in JOINS:
            continue
        if not part.args:
            continue
        joined = part.args[0]
        if ctx.model.qualname(part.func, body.scope) == "jax.numpy.append":
            pieces = part.args[:2]
        elif isinstance(joined, (ast.List, ast.Tuple)):
            pieces = list(joined.elts)
        else:
            continue
        whole = [p for p in pieces if isinstance(p, ast.Name) and p.id in carried]
        if whole and len(pieces) >= 2:
            return part
    return None
