"""JAX613: a function differentiated with respect to an argument that is given as an integer."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule

from ..support.dtypes import dtype_kind
from ..support.explain import snippet
from ..support.gradients import DIFFERENTIATIONS, differentiated_positions
from ..support.layers import called_layer


class IntegerArgumentToGrad(Rule):
    """## What it does
    Finds a call of a function made by `jax.grad` (or `value_and_grad`, `jacrev`, `jacfwd`,
    `hessian`, also under `jax.jit`) that passes a Python integer or boolean literal where the
    function is differentiated (`argnums`, the first argument by default): `d_energy(3, 2.0)`.

    ## Why is this bad?
    JAX differentiates only with respect to floating (or complex) inputs, and a Python `int`
    becomes an `int32` array: the call raises `TypeError` ("grad requires real- or complex-valued
    inputs (input dtype that is a sub-dtype of np.inexact), but got int32"). Pass `3.0`, or
    differentiate with respect to another argument (`argnums`), or pass `allow_int=True` to get
    a zero (`float0`) gradient for it.

    ## Example
    ```python
    import jax

    def energy(n, scale):
        return scale * n**2

    d_energy = jax.grad(energy)
    d_energy(3, 2.0)
    ```

    ## Use instead
    ```python
    import jax

    def energy(n, scale):
        return scale * n**2

    d_energy = jax.grad(energy)
    d_energy(3.0, 2.0)
    ```

    ## Fix safety
    No automatic fix: whether the argument should be a float or should not be differentiated is
    the author's call.

    ## References
    - [jax.grad](https://docs.jax.dev/en/latest/_autosummary/jax.grad.html)
    """

    code = "JAX613"
    name = "integer-argument-to-grad"
    message = "A function is differentiated with respect to an integer argument"
    outcome = "TypeError: grad requires real- or complex-valued inputs"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not node.args:
            return
        layer = called_layer(ctx, node.func, DIFFERENTIATIONS)
        found = None if layer is None else differentiated_positions(layer)
        if found is None:
            return
        layer, positions = found
        kinds = [_integer_kind(ctx, a) for a in node.args]
        for position in sorted(positions):
            argument = node.args[position] if -len(node.args) <= position < len(node.args) else None
            if argument is None or any(isinstance(a, ast.Starred) for a in node.args[: position + 1]):
                continue
            kind = kinds[position]
            if kind is not None:
                name = DIFFERENTIATIONS[layer.transform]
                accepted = "real-valued" if name == "jacfwd" else "real- or complex-valued"
                ctx.report(
                    argument,
                    f"`{snippet(ctx, node)}` differentiates with respect to `{snippet(ctx, argument)}`, "
                    f"{kind}: JAX raises `TypeError` ({name} requires {accepted} inputs); pass a "
                    f"float, or differentiate with respect to another argument (`argnums`)",
                )
                return


def _integer_kind(ctx: Context, expr: ast.expr) -> str | None:
    """How an integer or boolean argument is described (``a Python int``, ``an integer
    array``), when its expression proves that dtype (a literal, ``jnp.array([1, 2])``, a name
    bound once to one)."""
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, bool):
        return f"a Python {type(expr.value).__name__}"
    leaf = _integer_leaf(ctx, expr)
    if leaf is not None:
        return leaf
    kind = dtype_kind(ctx.model, expr, ctx.scope)
    if kind is None or kind.kind not in ("int", "bool"):
        return None
    return kind.describe()


def _integer_leaf(ctx: Context, expr: ast.expr, depth: int = 0) -> str | None:
    """A pytree display (a dict, list or tuple; through a name bound once to one) with an
    integer or boolean literal among its leaves: ``{"w": w, "n_layers": 2}``."""
    if isinstance(expr, ast.Name) and depth == 0:
        found = ctx.scope.bound_value(expr.id)
        return None if found is None else _integer_leaf(ctx, found[0], depth + 1)
    if isinstance(expr, ast.Dict):
        pairs = [(k, v) for k, v in zip(expr.keys, expr.values) if k is not None]
    elif isinstance(expr, (ast.List, ast.Tuple)):
        pairs = [(ast.Constant(i), v) for i, v in enumerate(expr.elts)]
    else:
        return None
    for key, value in pairs:
        if isinstance(value, ast.Constant) and type(value.value) in (int, bool):
            return f"a pytree holding the Python {type(value.value).__name__} `{value.value!r}` at `{ast.unparse(key)}`"
        if depth < 3 and isinstance(value, (ast.Dict, ast.List, ast.Tuple)):
            found = _integer_leaf(ctx, value, depth + 1)
            if found is not None:
                return found
    return None
