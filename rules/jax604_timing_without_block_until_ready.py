"""JAX604: a timer stopped while the JAX work it measures may still be running."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from jaxlint.astutil import callee_leaf
from jaxlint.context import Context
from jaxlint.controlflow import own_nodes
from jaxlint.explain import snippet
from jaxlint.jitted import transformed_callee
from jaxlint.rule import Rule
from jaxlint.semantic import api

CLOCKS = frozenset(
    {
        "time.time",
        "time.perf_counter",
        "time.monotonic",
        "time.process_time",
        "time.time_ns",
        "time.perf_counter_ns",
        "time.monotonic_ns",
        "timeit.default_timer",
    }
)
TIMEIT = frozenset({"timeit.timeit", "timeit.repeat"})
TIMEIT_LEAVES = frozenset({"timeit", "repeat"})
CLOCK_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in CLOCKS)
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
SYNCING_METHODS = frozenset({"block_until_ready", "item", "tolist", "copy_to_host_async", "__array__"})
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


class TimingWithoutBlockUntilReady(Rule):
    """## What it does
    Finds a timer read twice (`time.perf_counter()`, `time.time()`, `timeit.default_timer()`...)
    to measure a duration, when between the two reads JAX work is dispatched (a call of a function
    made by `jax.jit`, `vmap`, `grad`..., or a `jax.numpy`/`lax`/`jax.random` operation) and
    nothing waits for its results: no `.block_until_ready()`, `jax.block_until_ready(...)`,
    `jax.device_get`, NumPy conversion, `.item()`, `float()`, `print()` or Python branch on them,
    and no call of an unknown function (which might wait). Also `timeit.timeit(lambda: f(x))`
    whose lambda dispatches JAX work without waiting for it.

    ## Why is this bad?
    JAX dispatches work asynchronously: a jitted call returns as soon as the computation is
    enqueued, before it runs. The timer then measures dispatch, not the computation, and the
    numbers are misleadingly small (the real cost shows up at whichever later line first reads a
    result). Wait for the outputs before stopping the timer: `jax.block_until_ready(out)`, or
    `f(x).block_until_ready()`. Warm up (compile) before starting the timer, too.

    ## Example
    ```python
    import time

    import jax
    import jax.numpy as jnp

    @jax.jit
    def matmul_chain(a):
        return jnp.tanh(a @ a)

    def benchmark(a):
        start = time.perf_counter()
        out = matmul_chain(a)
        elapsed = time.perf_counter() - start
        return elapsed, out
    ```

    ## Use instead
    ```python
    import time

    import jax
    import jax.numpy as jnp

    @jax.jit
    def matmul_chain(a):
        return jnp.tanh(a @ a)

    def benchmark(a):
        start = time.perf_counter()
        out = matmul_chain(a).block_until_ready()
        elapsed = time.perf_counter() - start
        return elapsed, out
    ```

    ## Fix safety
    No automatic fix: which results to wait for is the author's choice.

    ## References
    - [JAX: asynchronous dispatch](https://docs.jax.dev/en/latest/async_dispatch.html)
    - [JAX FAQ: benchmarking JAX code](https://docs.jax.dev/en/latest/faq.html#benchmarking-jax-code)
    """

    code = "JAX604"
    name = "timing-without-block-until-ready"
    message = "A timer is stopped without waiting for the JAX work it measures"
    outcome = "the measured time is dispatch time, not compute time"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        leaf = callee_leaf(node)
        if (leaf not in CLOCK_LEAVES and leaf not in TIMEIT_LEAVES) or ctx.traced:
            return
        qualname = ctx.qualname(node.func)
        if qualname in TIMEIT:
            self.timeit(node, ctx)
            return
        if qualname not in CLOCKS:
            return
        stop = ctx.statement_of(node)
        if stop is None:
            return
        region = self.region(ctx, stop)
        if region is None:
            return
        start, statements = region
        if not _measures_duration(ctx, node, stop, start):
            return
        work = self.unwaited_work(ctx, statements)
        if work is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` stops the timer started at line {start.lineno} without waiting for "
            f"`{snippet(ctx, work)}` (line {work.lineno}): JAX dispatches work asynchronously, so this "
            f"measures dispatch, not the computation; call `jax.block_until_ready(...)` on the results "
            f"(or `.block_until_ready()`) before reading the clock",
        )

    def timeit(self, node: ast.Call, ctx: Context) -> None:
        """``timeit.timeit(lambda: f(x))``: the statement must wait for its own results."""
        statement = (
            node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "stmt"), None)
        )
        if not isinstance(statement, ast.Lambda):
            return
        body = ast.Expr(statement.body)
        work = next((n for n in ast.walk(body) if isinstance(n, ast.Call) and _is_jax_work(ctx, n)), None)
        if work is None or _waits(ctx, body, set()):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` times `{snippet(ctx, work)}` without waiting for it: JAX dispatches "
            f"work asynchronously, so this measures dispatch, not the computation; time "
            f"`lambda: {snippet(ctx, work)}.block_until_ready()` instead",
        )

    def region(self, ctx: Context, stop: ast.stmt) -> tuple[ast.stmt, list[ast.stmt]] | None:
        """The statement that starts the timer, and the statements run between it and ``stop``:
        the earlier statements of ``stop``'s block, then of each enclosing block, up to the
        nearest clock read."""
        statements: list[ast.stmt] = []
        current: ast.AST = stop
        for ancestor in [*ctx.ancestors(), ctx.model.tree]:
            block = _block_of(ancestor, current)
            if block is not None:
                for statement in reversed(block[: block.index(current)]):  # type: ignore[arg-type]
                    if _reads_clock(ctx, statement):
                        return statement, statements
                    statements.append(statement)
            if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return None
            if isinstance(ancestor, ast.stmt):
                current = ancestor
        return None

    def unwaited_work(self, ctx: Context, statements: list[ast.stmt]) -> ast.Call | None:
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
        isinstance(node, ast.Call) and ctx.qualname(node.func) in CLOCKS for node in own_nodes([statement])
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
            if isinstance(func, ast.Attribute) and func.attr in SYNCING_METHODS:
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
    if qualname in HARMLESS or qualname in CLOCKS or _is_jax_work(ctx, call):
        return True
    func = call.func
    if qualname or not isinstance(func, ast.Attribute):
        return False
    if func.attr in api.ARRAY_METHODS and func.attr not in SYNCING_METHODS and _names(func.value) & results:
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
