"""JAX207: optax updates subtracted from the parameters."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic import measured
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import TREE_MAP

from ..support.explain import snippet
from ..support.optimizers import CHAINS, update_receiver


@dataclass(frozen=True)
class AddUpdates(FixRequest):
    """``p - u`` -> ``p + u``."""

    subtraction: ast.BinOp


class OptimizerUpdatesSubtracted(Rule):
    """## What it does
    Finds the updates an optax optimizer returns (`updates, state = opt.update(grads, state)`)
    subtracted from the parameters: `params - updates`, or `jax.tree.map(lambda p, u: p - u,
    params, updates)`, where `opt` is an optimizer whose updates already carry the minus sign
    (`optax.sgd`, `optax.adam`, ...; measured by running optax: positive gradients give
    negative updates).

    ## Why is this bad?
    An optax optimizer returns `-learning_rate * (scaled gradient)`: the step to add. Subtracted,
    the parameters move up the gradient, so the loss rises (gradient ascent). Nothing raises.
    Add the updates, with `optax.apply_updates(params, updates)`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    import optax

    opt = optax.sgd(0.1)
    w = jnp.zeros(2)
    state = opt.init(w)
    for _ in range(5):
        grads = jax.grad(lambda w: jnp.sum((w - 3.0) ** 2))(w)
        updates, state = opt.update(grads, state)
        w = jax.tree.map(lambda p, u: p - u, w, updates)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp
    import optax

    opt = optax.sgd(0.1)
    w = jnp.zeros(2)
    state = opt.init(w)
    for _ in range(5):
        grads = jax.grad(lambda w: jnp.sum((w - 3.0) ** 2))(w)
        updates, state = opt.update(grads, state)
        w = jax.tree.map(lambda p, u: p + u, w, updates)
    ```

    ## Fix safety
    The fix adds the updates instead (`-` becomes `+`). Unsafe: the training changes (it
    descends, as the optimizer meant).

    ## References
    - [optax: apply_updates](https://optax.readthedocs.io/en/latest/api/apply_updates.html)
    """

    code = "JAX207"
    mentioned = frozenset({"optax"})
    name = "optimizer-updates-subtracted"
    message = "The updates of an optax optimizer are subtracted from the parameters"
    outcome = "the parameters climb the gradient (the loss rises), silently"
    fix_title = "Add the updates"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"
    visits_anywhere = frozenset({ast.BinOp})

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        if not isinstance(node.op, ast.Sub) or not ctx.mentions("optax"):
            return
        lambda_args = _lambda_arguments(ctx, node)
        if lambda_args is not None and not (isinstance(node.left, ast.Name) and node.left.id in lambda_args):
            return  # in a lambda, only `p - u` on what `jax.tree.map` maps
        for name in _scaled_names(node.right):
            subtracted = lambda_args.get(name.id) if lambda_args is not None else name
            optimizer = _updates_of(ctx, subtracted) if isinstance(subtracted, ast.Name) else None
            if optimizer is not None and isinstance(subtracted, ast.Name):
                self.report(node, subtracted, optimizer, ctx)
                return

    def report(self, node: ast.BinOp, updates: ast.Name, optimizer: tuple[str, str], ctx: Context) -> None:
        receiver, made = optimizer
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` subtracts `{updates.id}`, which `{receiver}.update` returns "
            f"with the minus sign already in ({made} scales gradients by minus the learning rate): "
            f"the parameters climb the gradient and the loss rises; add the updates "
            f"(`optax.apply_updates(params, {updates.id})`)",
            fix=AddUpdates(node),
        )


def _scaled_names(expr: ast.expr) -> list[ast.Name]:
    """``u`` in ``u``; ``lr`` and ``u`` in ``lr * u``: the names a subtrahend is, or scales."""
    if isinstance(expr, ast.Name):
        return [expr]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        return [side for side in (expr.left, expr.right) if isinstance(side, ast.Name)]
    return []


def _lambda_arguments(ctx: Context, node: ast.BinOp) -> dict[str, ast.expr] | None:
    """For ``node``, the body of a lambda that ``jax.tree.map`` maps: what the map passes each
    of its parameters (``{"p": params, "u": updates}``). None for a plain expression."""
    body_of = ctx.parent
    if not isinstance(body_of, ast.Lambda) or body_of.body is not node:
        return None
    call = next((a for a in ctx.ancestors() if isinstance(a, ast.Call)), None)
    if call is None or not call.args or call.args[0] is not body_of or ctx.qualname(call.func) != TREE_MAP:
        return {}
    params = [a.arg for a in body_of.args.args]
    return dict(zip(params, call.args[1:]))


def _updates_of(ctx: Context, use: ast.Name) -> tuple[str, str] | None:
    """The optimizer whose updates the name ``use`` reads, and how it is made: every binding
    of the name in its scope is ``name, state = opt.update(...)`` with ``opt`` a measured
    descending optax optimizer."""
    scope = ctx.model.scope_of_load(use)
    name = use.id
    if scope.lookup(name) is not scope or not isinstance(
        scope.node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)
    ):
        return None
    found: list[tuple[str, str]] = []
    for node in own_nodes(scope.node.body):
        if isinstance(node, ast.Assign) and _binds(node, name):
            receiver = update_receiver(node.value) if isinstance(node.value, ast.Call) else None
            target = node.targets[0]
            if receiver is None or not isinstance(target, ast.Tuple) or not _first_is(target, name):
                return None
            made = _descending(ctx, receiver, scope)
            if made is None:
                return None
            found.append((receiver, made))
    return found[0] if found and len(found) == scope.bound.get(name) else None


# transformations that keep the sign of what they are given (clipping, NaN guards)
SIGN_KEEPING_PREFIXES = ("optax.clip", "optax.zero_nans")


def _descending(ctx: Context, receiver: str, scope: Scope) -> str | None:
    """How the optimizer ``receiver`` is made, when its updates carry the minus sign: a measured
    descending optax optimizer, alone or chained with transformations that keep the sign
    (``optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))``)."""
    found = scope.bound_value(receiver)
    value, owner = found if found is not None else (None, scope)
    if not isinstance(value, ast.Call):
        return None
    descending = measured.descending_optimizers()
    qualname = ctx.model.qualname(value.func, owner)
    if qualname in descending:
        return f"`{snippet(ctx, value.func)}(...)`"
    if qualname not in CHAINS or value.keywords:
        return None
    parts = [
        (part, ctx.model.qualname(part.func, owner)) for part in value.args if isinstance(part, ast.Call)
    ]
    steps = [part for part, name in parts if name in descending]
    kept = all(name in descending or (name or "").startswith(SIGN_KEEPING_PREFIXES) for _, name in parts)
    if len(parts) != len(value.args) or len(steps) != 1 or not kept:
        return None
    return f"`{snippet(ctx, value.func)}(...)` holding `{snippet(ctx, steps[0].func)}(...)`"


def _binds(node: ast.Assign, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for t in node.targets for n in ast.walk(t))


def _first_is(target: ast.Tuple, name: str) -> bool:
    first = target.elts[0] if target.elts else None
    return isinstance(first, ast.Name) and first.id == name
