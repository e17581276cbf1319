"""JAX643: ``jnp.log(jnp.sum(jnp.exp(x)))``, which overflows where ``logsumexp`` does not."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule

from ..support.explain import snippet

SUM_KEYWORDS = frozenset({"axis", "keepdims"})


@dataclass(frozen=True)
class LogSumExp(FixRequest):
    """``jnp.log(jnp.sum(jnp.exp(x), axis=a))`` -> ``jax.nn.logsumexp(x, axis=a)``."""

    call: ast.Call
    operand: ast.expr
    keywords: tuple[ast.keyword, ...]


class NaiveLogSumExp(Rule):
    """## What it does
    Finds `jnp.log(jnp.sum(jnp.exp(x)))` (also with `axis=`/`keepdims=`, and
    `jnp.log(jnp.exp(x).sum())`), where `x` is not shifted first (`exp(x - m)` is the stable
    form written out).

    ## Why is this bad?
    `exp` overflows float32 to `inf` once an element exceeds about 88.7, and the log of the
    sum is then `inf` (measured with JAX 0.10.2: logits near 100 give `inf`); with every
    element below about -103 the sum underflows to 0 and the log is `-inf`. Gradients through
    it turn into NaN. `jax.nn.logsumexp` subtracts the maximum first and is exact there.

    ## Example
    ```python
    import jax.numpy as jnp

    def log_partition(logits):
        return jnp.log(jnp.sum(jnp.exp(logits)))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def log_partition(logits):
        return jax.nn.logsumexp(logits)
    ```

    ## Fix safety
    The fix calls `jax.nn.logsumexp` with the same `axis` and `keepdims` (importing `jax` when
    the module does not). Unsafe: the result changes where the naive form overflowed,
    underflowed or rounded. The fix rewrites the Example to:
    ```python
    import jax.numpy as jnp
    import jax

    def log_partition(logits):
        return jax.nn.logsumexp(logits)
    ```

    ## References
    - [jax.nn.logsumexp](https://docs.jax.dev/en/latest/_autosummary/jax.nn.logsumexp.html)
    """

    code = "JAX643"
    mentioned = frozenset({"exp"})
    name = "naive-log-sum-exp"
    message = "`log(sum(exp(x)))` overflows where `jax.nn.logsumexp` does not"
    outcome = "inf (or -inf) for large (or very negative) inputs, and NaN gradients"
    fix_title = "Use `jax.nn.logsumexp`"
    fix_availability = FixAvailability.ALWAYS
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) != 1 or node.keywords or callee_leaf(node) != "log":
            return
        if ctx.qualname(node.func) != "jax.numpy.log":
            return
        found = _summed_exp(ctx, node.args[0])
        if found is None:
            return
        operand, keywords = found
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` overflows float32 to `inf` once an element of "
            f"`{snippet(ctx, operand)}` exceeds about 88.7 (and gives `-inf` when all are below about "
            f"-103), with NaN gradients; `jax.nn.logsumexp` subtracts the maximum first",
            fix=LogSumExp(node, operand, keywords),
        )


def _summed_exp(ctx: Context, expr: ast.expr) -> tuple[ast.expr, tuple[ast.keyword, ...]] | None:
    """``jnp.sum(jnp.exp(x), axis=...)`` or ``jnp.exp(x).sum(...)``: ``x`` and the keywords."""
    if (
        not isinstance(expr, ast.Call)
        or expr.args[1:]
        or any(k.arg not in SUM_KEYWORDS for k in expr.keywords)
    ):
        return None
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr == "sum" and not expr.args:
        inner = func.value  # `jnp.exp(x).sum(axis=-1)`
    elif ctx.qualname(func) == "jax.numpy.sum" and expr.args:
        inner = expr.args[0]
    else:
        return None
    if not (isinstance(inner, ast.Call) and len(inner.args) == 1 and not inner.keywords):
        return None
    if ctx.qualname(inner.func) != "jax.numpy.exp":
        return None
    operand = inner.args[0]
    if isinstance(operand, ast.BinOp) and isinstance(operand.op, ast.Sub):
        return None  # `exp(x - m)`: shifted by its maximum, the stable form written out
    return operand, tuple(expr.keywords)
