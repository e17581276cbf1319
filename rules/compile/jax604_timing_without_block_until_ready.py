"""JAX604: a timer stopped while the JAX work it measures may still be running."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import api

from ..support.explain import snippet
from .timing import TIMEIT, unwaited_timeit, unwaited_timing

CLOCK_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in api.TIMERS)
TIMEIT_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in TIMEIT)


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
            work = unwaited_timeit(ctx, node)
            if work is not None:
                ctx.report(
                    node,
                    f"`{snippet(ctx, node)}` times `{snippet(ctx, work)}` without waiting for it: JAX "
                    f"dispatches work asynchronously, so this measures dispatch, not the computation; "
                    f"time `lambda: {snippet(ctx, work)}.block_until_ready()` instead",
                )
            return
        found = unwaited_timing(ctx, node) if qualname in api.TIMERS else None
        if found is None:
            return
        start, work = found
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` stops the timer started at line {start.lineno} without waiting for "
            f"`{snippet(ctx, work)}` (line {work.lineno}): JAX dispatches work asynchronously, so this "
            f"measures dispatch, not the computation; call `jax.block_until_ready(...)` on the results "
            f"(or `.block_until_ready()`) before reading the clock",
        )
