"""JAX608: a long Python loop over arrays, unrolled into the compiled program."""

from __future__ import annotations

import ast

from jaxlint.context import Context
from jaxlint.controlflow import fori_plan, own_nodes, side_effect_free
from jaxlint.explain import function_name, snippet
from jaxlint.rule import FixAvailability, Rule
from jaxlint.semantic.scopes import MUTATING_METHODS
from jaxlint.semantic.values import is_jax_array, is_traced

THRESHOLD = 100
MAX_TRIPS = 10**9


class UnrolledPythonLoop(Rule):
    """## What it does
    Finds a Python `for` loop over `range(N)` with a static trip count inside code JAX traces
    abstractly, when the loop computes on traced arrays and runs its body 100 times or more
    (counting the static `range` loops around it: `for i in range(10): for j in range(20)` runs the
    inner body 200 times).

    ## Why is this bad?
    JAX traces Python control flow by running it: every iteration is recorded again, so the
    compiled program contains N copies of the loop body. Tracing and compilation time grow with N
    (minutes for thousands of iterations) and so does the program size. `jax.lax.fori_loop` (or
    `lax.scan`) traces the body once and runs it N times, and with static bounds it stays
    reverse-differentiable.

    ## Example
    ```python
    import jax

    @jax.jit
    def decay(x):
        for _ in range(1000):
            x = x * 0.999 + 0.001
        return x
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def decay(x):
        return jax.lax.fori_loop(0, 1000, lambda _, x: x * 0.999 + 0.001, x)
    ```

    ## Fix safety
    The fix rewrites the loop to `jax.lax.fori_loop` carrying the variables the body rebinds, when
    the body only computes with JAX (`jax.numpy`/`lax` calls, array methods and arithmetic: no
    helper calls, no `break`, `continue`, `return`, `yield` or container mutation), and uses the
    loop index only to index JAX arrays. Unsafe: every carried variable must keep its shape and
    dtype from one iteration to the next, and the index becomes a tracer.

    ## References
    - [JAX FAQ: jit compilation is slow](https://docs.jax.dev/en/latest/faq.html)
    - [jax.lax.fori_loop](https://docs.jax.dev/en/latest/_autosummary/jax.lax.fori_loop.html)
    """

    code = "JAX608"
    name = "unrolled-python-loop"
    message = "A long Python loop over arrays is unrolled into the compiled program"
    outcome = "slow tracing and compilation; a program with one copy of the body per iteration"
    fix_title = "Use `jax.lax.fori_loop`"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_For(self, node: ast.For, ctx: Context) -> None:
        if not ctx.abstract:
            return
        count = self.unrolled(ctx, node, static_trips(ctx, node))
        if count is None:
            return
        plan = fori_plan(ctx, node) if _liftable(ctx, node) else None
        ctx.report(
            node,
            f"`for ... in {snippet(ctx, node.iter)}` in `{function_name(ctx)}` is unrolled: JAX traces "
            f"its body {count} and compiles every copy; use `jax.lax.fori_loop` (or `lax.scan`)",
            end=node.iter,
            fix_data={"plan": plan} if plan else None,
        )

    def visit_While(self, node: ast.While, ctx: Context) -> None:
        if not ctx.abstract:
            return
        count = self.unrolled(ctx, node, _counted_while(ctx, node))
        if count is None:
            return
        ctx.report(
            node,
            f"`while {snippet(ctx, node.test)}` in `{function_name(ctx)}` counts statically, so it is "
            f"unrolled: JAX traces its body {count} and compiles every copy; use "
            f"`jax.lax.fori_loop` (or `lax.scan`)",
            end=node.test,
        )

    def unrolled(self, ctx: Context, node: ast.For | ast.While, trips: int | None) -> str | None:
        """How many copies of the body the compiled program gets, when that is too many (and the
        loops around this one do not already make it so)."""
        if trips is None:
            return None
        outer = 1
        for loop in ctx.loops:
            if isinstance(loop, ast.For):
                outer *= static_trips(ctx, loop) or 1
        if trips * outer < THRESHOLD or outer >= THRESHOLD or not _computes_on_arrays(ctx, node):
            return None
        return f"{trips * outer} times" + ("" if outer == 1 else " (with the loops around it)")


def static_trips(ctx: Context, loop: ast.For) -> int | None:
    """How many times ``for ... in range(...)`` runs, when its bounds are literal integers or
    names bound once to them."""
    call = loop.iter
    if not (isinstance(call, ast.Call) and ctx.qualname(call.func) == "builtins.range"):
        return None
    if call.keywords or not 1 <= len(call.args) <= 3:
        return None
    bounds = [_static_int(ctx, arg) for arg in call.args]
    if any(b is None for b in bounds):
        return None
    try:
        return min(len(range(*bounds)), MAX_TRIPS)  # type: ignore[arg-type]
    except (ValueError, OverflowError):
        return None


def _counted_while(ctx: Context, loop: ast.While) -> int | None:
    """How many times ``i = a; while i < b: ...; i += k`` runs, for static ``a``, ``b``, ``k``."""
    test = loop.test
    if loop.orelse or not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
    ):
        return None
    name, op, bound = test.left.id, test.ops[0], _static_int(ctx, test.comparators[0])
    steps = [k for k in (_step_of(statement, name) for statement in loop.body) if k is not None]
    stores = [n for n in own_nodes(loop.body) if _stores(n, name)]
    start = _initial_value(ctx, loop, name)
    if bound is None or start is None or len(steps) != 1 or len(stores) != 1 or not steps[0]:
        return None
    step = steps[0]
    inclusive = isinstance(op, (ast.LtE, ast.GtE))
    span = bound - start + ((1 if step > 0 else -1) if inclusive else 0)
    if (isinstance(op, (ast.Lt, ast.LtE)) and step > 0) or (isinstance(op, (ast.Gt, ast.GtE)) and step < 0):
        return min(max(0, -(-span // step)), MAX_TRIPS)
    return None


def _stores(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)


def _step_of(statement: ast.stmt, name: str) -> int | None:
    """``k`` in ``i += k`` (``-k`` in ``i -= k``), for a literal ``k``."""
    if not (
        isinstance(statement, ast.AugAssign)
        and _stores(statement.target, name)
        and isinstance(statement.value, ast.Constant)
        and type(statement.value.value) is int
    ):
        return None
    step = statement.value.value
    if isinstance(statement.op, ast.Add):
        return step
    return -step if isinstance(statement.op, ast.Sub) else None


def _initial_value(ctx: Context, loop: ast.While, name: str) -> int | None:
    """The static value ``name`` gets from the last statement before the loop that binds it."""
    parent = ctx.parent
    block = next(
        (
            b
            for f in ("body", "orelse", "finalbody")
            if isinstance(b := getattr(parent, f, None), list) and loop in b
        ),
        None,
    )
    if block is None:
        return None
    for statement in reversed(block[: block.index(loop)]):
        stores = [n for n in own_nodes([statement]) if _stores(n, name)]
        if not stores:
            continue
        if isinstance(statement, ast.Assign) and statement.targets == stores:
            return _static_int(ctx, statement.value)
        return None
    return None


def _static_int(ctx: Context, node: ast.expr, depth: int = 0) -> int | None:
    if depth > 8:
        return None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _static_int(ctx, node.operand, depth + 1)
        return None if value is None else -value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        left, right = _static_int(ctx, node.left, depth + 1), _static_int(ctx, node.right, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add):
            value = left + right
        elif isinstance(node.op, ast.Sub):
            value = left - right
        elif isinstance(node.op, ast.Mult):
            value = left * right
        elif right:
            value = left // right
        else:
            return None
        return value if abs(value) <= MAX_TRIPS else None
    if isinstance(node, ast.Name):
        owner = ctx.scope.lookup(node.id)
        if owner is None or owner.bound.get(node.id) != 1:
            return None
        value = owner.assigned.get(node.id)
        return None if value is None else _static_int(ctx, value, depth + 1)
    return None


def _computes_on_arrays(ctx: Context, loop: ast.For | ast.While) -> bool:
    """Whether the body rebinds a name to a traced value, or appends one to a container."""
    for node in own_nodes(loop.body):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and is_traced(ctx.value(node)):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATING_METHODS
            and any(is_traced(ctx.value(a)) for a in node.args)
        ):
            return True
    return False


def _liftable(ctx: Context, loop: ast.For) -> bool:
    """Whether the body can become a ``fori_loop`` body: it only computes with JAX (no calls of
    helpers or layer constructors, which may create parameters or have effects), and its index
    only indexes JAX arrays."""
    calls = [node for node in own_nodes(loop.body) if isinstance(node, ast.Call)]
    return all(side_effect_free(ctx, call) for call in calls) and _index_only_indexes_arrays(ctx, loop)


def _index_only_indexes_arrays(ctx: Context, loop: ast.For) -> bool:
    """Whether the loop index is unused, or only indexes JAX arrays (``x[i]``, ``x.at[i]``): after
    the rewrite it is a tracer, which Python lists, ``range`` and ``if`` cannot take."""
    if not isinstance(loop.target, ast.Name):
        return False
    index = loop.target.id
    parents: dict[ast.AST, ast.AST] = {}
    for node in own_nodes(loop.body):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in own_nodes(loop.body):
        if not (isinstance(node, ast.Name) and node.id == index):
            continue
        top, parent = node, parents.get(node)
        while isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Tuple)):
            top, parent = parent, parents.get(parent)
        if (
            isinstance(parent, ast.Subscript)
            and top is parent.slice
            and is_jax_array(ctx.value(parent.value))
        ):
            continue
        if isinstance(top, (ast.BinOp, ast.UnaryOp)) and is_traced(ctx.value(top)):
            continue  # arithmetic with traced arrays works on a traced index too
        return False
    return True
