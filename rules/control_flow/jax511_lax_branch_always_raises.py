"""JAX511: a ``lax.cond``/``lax.switch`` branch that raises on every run."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.explain import snippet
from ..support.lax_calls import branch_arguments, raise_on_every_path

BRANCHING = frozenset({"jax.lax.cond", "jax.lax.switch"})


class LaxBranchAlwaysRaises(Rule):
    """## What it does
    Finds a branch function given to `jax.lax.cond` or `jax.lax.switch` (a `def` of this module)
    that raises on every run: a `raise` (or `assert False`) at the top of its body, with no
    `return` before it.

    ## Why is this bad?
    `lax.cond` and `lax.switch` trace every branch to compile them into one program, whatever
    the predicate or index, even a concrete one (measured with JAX 0.10.2: `cond(True, ok,
    reject, x)` raises). A branch meant to reject bad input therefore raises on every call, good
    input included. A Python exception cannot depend on traced values: check them with
    `jax.experimental.checkify`, or return a value that marks the failure (`jnp.nan`).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def reject(x):
        raise ValueError("negative input")

    @jax.jit
    def checked_sqrt(x):
        return jax.lax.cond(x >= 0, jnp.sqrt, reject, x)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def checked_sqrt(x):
        return jnp.where(x >= 0, jnp.sqrt(jnp.abs(x)), jnp.nan)
    ```

    ## Fix safety
    No fix: what a failed check should produce is the author's decision.

    ## References
    - [jax.lax.cond](https://docs.jax.dev/en/latest/_autosummary/jax.lax.cond.html)
    - [jax.experimental.checkify](https://docs.jax.dev/en/latest/debugging/checkify_guide.html)
    """

    code = "JAX511"
    name = "lax-branch-always-raises"
    message = "A `lax.cond` or `lax.switch` branch raises on every run, and every branch is traced"
    outcome = "the exception, on every call"
    mentioned = frozenset({"cond", "switch"})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in ("cond", "switch"):
            return
        qualname = ctx.qualname(node.func)
        if qualname not in BRANCHING:
            return
        for branch in branch_arguments(ctx, node, qualname) or []:
            found = ctx.model.resolve_function(branch, ctx.scope)
            raised = None if found is None else raise_on_every_path(found[0])
            if raised is None:
                continue
            primitive = qualname.removeprefix("jax.")
            ctx.report(
                node,
                f"branch `{snippet(ctx, branch)}` raises on every run (line {raised.lineno}), and "
                f"`{primitive}` traces every branch whatever the {'predicate' if 'cond' in primitive else 'index'}: "
                f"this call raises each time it runs; check values with `jax.experimental.checkify`, "
                f"or return a value that marks the failure (`jnp.nan`)",
            )
            return
