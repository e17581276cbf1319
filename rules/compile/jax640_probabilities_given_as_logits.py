"""JAX640: probabilities (``jax.nn.softmax(x)``) passed where a function takes logits."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.scopes import Scope

from ..support.explain import snippet

SOFTMAX = frozenset({"jax.nn.softmax", "jax.numpy.exp"})
SIGMOID = frozenset({"jax.nn.sigmoid"})
# functions that take logits: the logits parameter (position, name) and what makes probabilities
# of the kind they normalize (softmax over classes, or a sigmoid per element)
LOGIT_TAKERS: dict[str, tuple[int, str, frozenset[str]]] = {
    "jax.random.categorical": (1, "logits", SOFTMAX),
    "optax.softmax_cross_entropy": (0, "logits", SOFTMAX),
    "optax.losses.softmax_cross_entropy": (0, "logits", SOFTMAX),
    "optax.softmax_cross_entropy_with_integer_labels": (0, "logits", SOFTMAX),
    "optax.losses.softmax_cross_entropy_with_integer_labels": (0, "logits", SOFTMAX),
    "optax.sigmoid_binary_cross_entropy": (0, "logits", SIGMOID),
    "optax.losses.sigmoid_binary_cross_entropy": (0, "logits", SIGMOID),
}
DEPTH = 4  # names followed to their single binding
ARRAY_MAKERS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "numpy.array", "numpy.asarray"})


class ProbabilitiesGivenAsLogits(Rule):
    """## What it does
    Finds probabilities passed where a function takes logits: the output of `jax.nn.softmax`
    (or `jnp.exp` of log-probabilities) given to `jax.random.categorical`,
    `optax.softmax_cross_entropy` or `optax.softmax_cross_entropy_with_integer_labels`, and
    the output of `jax.nn.sigmoid` given to `optax.sigmoid_binary_cross_entropy`; written
    there, bound once to a name, or returned by a helper of this file. A probability vector
    written out (`jnp.array([0.7, 0.2, 0.1])`: numbers in [0, 1] summing to 1) counts too.

    ## Why is this bad?
    These functions apply the softmax (or sigmoid) themselves. Given probabilities, they
    normalize twice: `categorical` samples from `softmax(p)`, a much flatter distribution
    (with `softmax([0, 5])`, about 99% for the second class, it draws it about 73% of the
    time, measured with JAX 0.10.2), and the losses compute the cross entropy of the wrong
    distribution, with gradients that vanish. Nothing raises.

    ## Example
    ```python
    import jax

    def sample(key, logits):
        probs = jax.nn.softmax(logits)
        return jax.random.categorical(key, probs)
    ```

    ## Use instead
    ```python
    import jax

    def sample(key, logits):
        return jax.random.categorical(key, logits)
    ```

    ## Fix safety
    No automatic fix: pass the logits the probabilities come from (or `jnp.log(probs)`).

    ## References
    - [jax.random.categorical](https://docs.jax.dev/en/latest/_autosummary/jax.random.categorical.html)
    - [optax: losses](https://optax.readthedocs.io/en/latest/api/losses.html)
    """

    code = "JAX640"
    mentioned = frozenset({"categorical", "cross_entropy"})
    name = "probabilities-given-as-logits"
    message = "Probabilities are passed where a function takes logits"
    outcome = "the softmax (or sigmoid) is applied twice: wrong samples or a wrong loss, silently"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not any(ctx.mentions(word) for word in ("softmax", "sigmoid", "exp", "categorical")):
            return
        qualname = ctx.qualname(node.func)
        spec = LOGIT_TAKERS.get(qualname or "")
        if spec is None or qualname is None:
            return
        position, keyword, normalizers = spec
        logits = node.args[position] if len(node.args) > position else None
        logits = logits or next((k.value for k in node.keywords if k.arg == keyword), None)
        made = None if logits is None else _probabilities(ctx, logits, ctx.scope, normalizers, 0)
        if made is None or logits is None:
            return
        takes = (
            "samples from their softmax"
            if qualname.startswith("jax.random.")
            else "applies the softmax itself"
        )
        if normalizers is SIGMOID:
            takes = "applies the sigmoid itself"
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` is given probabilities, `{snippet(ctx, logits)}`"
            f"{_made_by(ctx, logits, made)}, but `{qualname.rsplit('.', 1)[1]}` takes logits and {takes}: "
            f"the probabilities are normalized twice, silently; pass the logits",
        )


def _probabilities(
    ctx: Context, expr: ast.expr, scope: Scope, normalizers: frozenset[str], depth: int
) -> ast.expr | None:
    """The normalizing call (``jax.nn.softmax(x)``) ``expr`` is, directly or through names
    bound once."""
    if isinstance(expr, ast.Name) and depth < DEPTH:
        found = scope.bound_value(expr.id)
        return None if found is None else _probabilities(ctx, found[0], found[1], normalizers, depth + 1)
    if normalizers is SOFTMAX and _literal_distribution(ctx, expr, scope):
        return expr  # `jnp.array([0.7, 0.2, 0.1])`: non-negative, summing to 1
    if not isinstance(expr, ast.Call):
        return None
    if ctx.model.qualname(expr.func, scope) in normalizers:
        return expr
    if isinstance(expr.func, ast.Name) and depth < DEPTH:  # `probs = classifier(w, x)`
        owner = scope.lookup(expr.func.id)
        helper = None if owner is None else owner.single_def(expr.func.id)
        returned = returned_expressions(helper) if isinstance(helper, ast.FunctionDef) else []
        inner = ctx.model.index.scopes.get(helper) if helper is not None else None
        made = (
            [_probabilities(ctx, value, inner, normalizers, depth + 1) for value in returned] if inner else []
        )
        if made and all(m is not None for m in made):
            return made[0]
    return None


def _literal_distribution(ctx: Context, expr: ast.expr, scope: Scope) -> bool:
    """A display of two or more numbers in [0, 1] that sum to 1, or ``jnp.array`` of one: a
    probability vector written out (logits that happen to sum to 1 are not written so)."""
    made = isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords
    if made and ctx.model.qualname(expr.func, scope) in ARRAY_MAKERS:  # pyright: ignore[reportAttributeAccessIssue]
        expr = expr.args[0]  # pyright: ignore[reportAttributeAccessIssue]
    if not isinstance(expr, (ast.List, ast.Tuple)) or len(expr.elts) < 2:
        return False
    values = [
        float(e.value)
        for e in expr.elts
        if isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool)
    ]
    if len(values) != len(expr.elts):
        return False
    return all(0 <= v <= 1 for v in values) and abs(sum(values) - 1) < 1e-6 and 0 < max(values) < 1


def _made_by(ctx: Context, logits: ast.expr, made: ast.expr) -> str:
    return "" if made is logits else f" (`{snippet(ctx, made)}`)"
