"""JAX302: a PRNG key from outside a loop consumed on every iteration."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule

from ..support.blocks import stored_names
from ..support.explain import split_advice


@dataclass(frozen=True)
class SplitInLoop(FixRequest):
    """``key, subkey = split(key)`` at the top of ``loop``'s body; the call draws from ``subkey``."""

    key: str
    loop: ast.For | ast.AsyncFor | ast.While


class PrngKeyReuseInLoop(Rule):
    """## What it does
    Finds a `jax.random` call inside a Python loop that consumes a key created before the loop
    and not rebound inside it, so every iteration uses the same key.

    ## Why is this bad?
    Every iteration draws exactly the same random numbers: the "noise" added in each step of a
    loop is identical, the "independent" samples are copies. Nothing fails. The idiom is to split
    at the top of the body, `key, subkey = jax.random.split(key)`, or to derive a per-iteration
    key with `jax.random.fold_in(key, i)`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def noisy_average(key, x):
        total = jnp.zeros_like(x)
        for _ in range(4):
            total = total + x + jax.random.normal(key, x.shape)
        return total / 4
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def noisy_average(key, x):
        total = jnp.zeros_like(x)
        for _ in range(4):
            key, subkey = jax.random.split(key)
            total = total + x + jax.random.normal(subkey, x.shape)
        return total / 4
    ```

    ## Fix safety
    The fix inserts `key, subkey = jax.random.split(key)` at the top of the loop body and
    passes `subkey`. Unsafe by nature: the numbers drawn change.

    ## References
    - [JAX: Pseudorandom numbers](https://docs.jax.dev/en/latest/random-numbers.html)
    """

    code = "JAX302"
    name = "prng-key-reuse-in-loop"
    message = "A PRNG key is reused on every loop iteration: each draws the same numbers"
    outcome = "every iteration draws identical random numbers"
    fix_title = "Split the key at the top of the loop body"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        event = ctx.key_events.get(node)
        if event is None or event.kind != "loop":
            return
        loop = ctx.loops[-1] if ctx.loops else None
        fixable = (
            event.key.isidentifier()
            and isinstance(loop, (ast.For, ast.AsyncFor, ast.While))
            and event.key not in stored_names(loop.body)  # a key rebound in the loop is split there already
        )
        ctx.report(
            node,
            f"key `{event.key}` is created outside the loop and consumed on every iteration: each "
            f"iteration draws the same random numbers; split it in the loop, {split_advice(event.key)}",
            fix=SplitInLoop(event.key, loop) if fixable else None,  # pyright: ignore[reportArgumentType]
        )
