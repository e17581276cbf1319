"""JAX648: ``jnp.log(jax.nn.softmax(x))``, which underflows where ``jax.nn.log_softmax`` does not."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule

from ..support.blocks import assigned_before
from ..support.explain import snippet

SOFTMAXES = frozenset({"jax.nn.softmax", "flax.linen.softmax", "flax.nnx.softmax"})
LOGS = frozenset({"jax.numpy.log"})


@dataclass(frozen=True)
class LogSoftmax(FixRequest):
    """``jnp.log(jax.nn.softmax(x, axis=a))`` -> ``jax.nn.log_softmax(x, axis=a)``."""

    call: ast.Call
    softmax: ast.Call


class LogOfSoftmax(Rule):
    """## What it does
    Finds the logarithm of a softmax, `jnp.log(jax.nn.softmax(x))`, also of a name bound to the
    softmax or of an element of it (`jnp.log(probs[label])`).

    ## Why is this bad?
    `softmax` rounds the probabilities of unlikely classes to 0 once a logit trails the largest
    by about 104 (float32), and their log is `-inf`: the loss of such an example is infinite and
    the gradient NaN for every logit (measured with JAX 0.10.2: logits `[0, 120, 5]` give `-inf`
    log-probabilities and NaN gradients). `jax.nn.log_softmax` computes `x - logsumexp(x)` and
    stays finite.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def nll(logits, label):
        return -jnp.log(jax.nn.softmax(logits))[label]
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def nll(logits, label):
        return -jax.nn.log_softmax(logits)[label]
    ```

    ## Fix safety
    The direct form `jnp.log(jax.nn.softmax(x, axis=a))` becomes `jax.nn.log_softmax(x, axis=a)`
    (unsafe: the values change where the naive form underflowed or rounded). A log of a name or
    an element gets no fix: the probabilities may be used elsewhere.

    ## References
    - [jax.nn.log_softmax](https://docs.jax.dev/en/latest/_autosummary/jax.nn.log_softmax.html)
    """

    code = "JAX648"
    mentioned = frozenset({"softmax"})
    name = "log-of-softmax"
    message = "`log(softmax(x))` underflows to `-inf` where `jax.nn.log_softmax` does not"
    outcome = "-inf log-probabilities and NaN gradients for unlikely classes"
    fix_title = "Use `jax.nn.log_softmax`"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if len(node.args) != 1 or node.keywords or callee_leaf(node) != "log":
            return
        if ctx.qualname(node.func) not in LOGS:
            return
        softmax = self.softmax_of(ctx, node, node.args[0])
        if softmax is None:
            return
        direct = softmax is node.args[0] and all(k.arg == "axis" for k in softmax.keywords)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` takes the log of `{snippet(ctx, softmax)}`, which rounds the "
            f"probabilities of unlikely classes to 0 (a logit about 104 below the largest, in float32): "
            f"their log is `-inf` and the gradients NaN; use `jax.nn.log_softmax`",
            fix=LogSoftmax(node, softmax) if direct else None,
        )

    def softmax_of(self, ctx: Context, node: ast.Call, expr: ast.expr) -> ast.Call | None:
        """The softmax call ``expr`` is, an element of, or a name bound to just before."""
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        if isinstance(expr, ast.Name):
            bound = assigned_before(ctx, node, expr.id)
            if bound is None:
                owner = ctx.scope.lookup(expr.id)
                bound = None if owner is None else owner.single_value(expr.id)
            expr = bound if bound is not None else expr
        if isinstance(expr, ast.Call) and ctx.qualname(expr.func) in SOFTMAXES and len(expr.args) == 1:
            return expr
        return None
