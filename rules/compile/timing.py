"""Timing JAX work: where a timer starts and stops, what runs in between, and whether anything
waits for the device (JAX604).

JAX dispatches work asynchronously, so a timer measures the computation only when something
between the two clock reads waits for its results. Anything jaxlint does not know might wait
(blocking on later work waits for earlier work too), so an unknown call makes the answer "maybe
waited", and the rule stays silent.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.semantic import api

from ..support.blocks import own_nodes
from ..support.jitted import transformed_callee

TIMEIT = frozenset({"timeit.timeit", "timeit.repeat"})


# Calls that wait for (or copy out) the values they are given.
SYNCING = frozenset(
    {
        "jax.block_until_ready",
        "jax.device_get",
        "jax.effects_barrier",
        "builtins.print",
        "builtins.float",
        "builtins.int",
        "builtins.bool",
        "builtins.complex",
        "builtins.str",
        "builtins.repr",
        "builtins.format",
    }
)
_PURE_BUILTINS = (
    "range len enumerate zip isinstance list tuple dict set min max abs sorted reversed iter next"
)
HARMLESS = frozenset(f"builtins.{name}" for name in _PURE_BUILTINS.split()) | {
    "jax.tree.map",
    "jax.tree_util.tree_map",
    "functools.partial",
}
HARMLESS_METHODS = frozenset(
    {"append", "extend", "insert", "get", "items", "keys", "values", "update", "pop"}
)
ASYNC_NAMESPACES = ("jax.numpy.", "jax.lax.", "jax.random.", "jax.nn.", "jax.scipy.")


def unwaited_timing(ctx: Context, clock: ast.Call) -> tuple[ast.stmt, ast.Call] | None:
    """For a clock read that ends a measured duration: the statement that started the timer and
    the first JAX call dispatched in between, when nothing there waits for its results."""
    stop = ctx.statement_of(clock)
    region = None if stop is None else _region(ctx, stop)
    if stop is None or region is None:
        return None
    start, statements = region
    if not _measures_duration(ctx, clock, stop, start):
        return None
    work = _unwaited_work(ctx, statements)
    return None if work is None else (start, work)


def unwaited_timeit(ctx: Context, call: ast.Call) -> ast.Call | None:
    """``timeit.timeit(lambda: f(x))``: the JAX call the lambda dispatches without waiting."""
    statement = call.args[0] if call.args else keyword_argument(call, "stmt")
    if not isinstance(statement, ast.Lambda):
        return None
    body = ast.Expr(statement.body)
    work = next((n for n in ast.walk(body) if isinstance(n, ast.Call) and _is_jax_work(ctx, n)), None)
    return None if work is None or _waits(ctx, body, set()) else work


def _region(ctx: Context, stop: ast.stmt) -> tuple[ast.stmt, list[ast.stmt]] | None:
    """The statement that starts the timer, and the statements run between it and ``stop``:
    the earlier statements of ``stop``'s block, then of each enclosing block, up to the
    nearest clock read."""
    statements: list[ast.stmt] = []
    current: ast.AST = stop
    for ancestor in [*ctx.ancestors(), ctx.model.tree]:
        block = _block_of(ancestor, current)
        if block is not None:
            for statement in reversed(block[: block.index(current)]):
                if _reads_clock(ctx, statement):
                    return statement, statements
                statements.append(statement)
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None
        if isinstance(ancestor, ast.stmt):
            current = ancestor
    return None


def _unwaited_work(ctx: Context, statements: list[ast.stmt]) -> ast.Call | None:
    """The first JAX call dispatched in ``statements`` when nothing there waits for results."""
    work: ast.Call | None = None
    results: set[str] = set()
    for statement in reversed(statements):  # source order
        for node in own_nodes([statement]):
            if isinstance(node, ast.Call) and _is_jax_work(ctx, node):
                work = work or node
                results |= _targets(statement)
    if work is None:
        return None
    for statement in reversed(statements):
        if _names(statement) & results:
            results |= _targets(statement)
    for statement in statements:
        if _waits(ctx, statement, results):
            return None
    return work


def _block_of(parent: ast.AST, child: ast.AST) -> list[ast.stmt] | None:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and child in block:
            return block
    for handler in getattr(parent, "handlers", []):
        if child in handler.body:
            return handler.body
    return None


def _reads_clock(ctx: Context, statement: ast.stmt) -> bool:
    return any(
        isinstance(node, ast.Call) and ctx.qualname(node.func) in api.TIMERS
        for node in own_nodes([statement])
    )


def _measures_duration(ctx: Context, clock: ast.Call, stop: ast.stmt, start: ast.stmt) -> bool:
    """Whether the two reads are subtracted: ``clock() - t0``, or ``t1 = clock()`` and ``t1 - t0``
    later, where ``t0`` is what the start statement assigned."""
    started = _targets(start)
    parent = ctx.parent
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Sub) and parent.left is clock:
        return bool(_names(parent.right) & started)
    stopped = _targets(stop) if isinstance(stop, ast.Assign) and stop.value is clock else set()
    function = ctx.function
    body = ctx.model.tree.body if function is None else getattr(function.node, "body", [])
    return any(
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Sub)
        and _names(node.left) & stopped
        and _names(node.right) & started
        for node in own_nodes(body)
    )


def _is_jax_work(ctx: Context, call: ast.Call) -> bool:
    qualname = ctx.qualname(call.func)
    if qualname is not None:
        return qualname.startswith(ASYNC_NAMESPACES) and qualname not in api.STATIC_QUERIES
    return transformed_callee(ctx, call)


def _waits(ctx: Context, statement: ast.stmt, results: set[str]) -> bool:
    """Whether ``statement`` may wait for the dispatched work: it blocks, converts or prints a
    result, branches on one, or calls a function jaxlint does not know (which may do any of
    that; and blocking on later work waits for earlier work too)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in api.SYNCING_METHODS:
                return True
            qualname = ctx.qualname(func) or ""
            if (qualname in SYNCING or qualname.startswith(("numpy.", "logging."))) and _mentions(
                node, results
            ):
                return True
            if not _harmless(ctx, node, qualname, results):
                return True
        if isinstance(node, (ast.If, ast.While, ast.Assert, ast.IfExp)) and _names(node.test) & results:
            return True
        if isinstance(node, ast.FormattedValue) and _names(node.value) & results:
            return True
    return False


def _harmless(ctx: Context, call: ast.Call, qualname: str, results: set[str]) -> bool:
    """Calls known not to wait for device work: JAX dispatches (array methods of the results
    included), pure Python helpers."""
    if qualname in HARMLESS or qualname in api.TIMERS or _is_jax_work(ctx, call):
        return True
    func = call.func
    if qualname or not isinstance(func, ast.Attribute):
        return False
    if (
        func.attr in api.ARRAY_METHODS
        and func.attr not in api.SYNCING_METHODS
        and _names(func.value) & results
    ):
        return True
    return func.attr in HARMLESS_METHODS


def _mentions(call: ast.Call, names: set[str]) -> bool:
    return any(_names(a) & names for a in [*call.args, *(k.value for k in call.keywords)])


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in _walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _targets(statement: ast.stmt) -> set[str]:
    targets: list[ast.AST] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        targets = [statement.target]
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in statement.items if i.optional_vars is not None]
    found = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    for inner in own_nodes(getattr(statement, "body", []) + getattr(statement, "orelse", [])):
        if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            found.add(inner.id)
    return found


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    return iter(own_nodes([node])) if isinstance(node, ast.stmt) else ast.walk(node)
