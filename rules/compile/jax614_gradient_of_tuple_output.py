"""JAX614: ``jax.grad``/``value_and_grad`` of a function that returns a tuple, without ``has_aux``."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.values import FunctionRef, is_jax_array, refs

from ..support.explain import snippet

# differentiations that need a scalar output, unless `has_aux` splits the output in two
SCALAR_GRADIENTS = frozenset({"jax.grad", "jax.value_and_grad"})


class GradientOfTupleOutput(Rule):
    """## What it does
    Finds `jax.grad(f)` or `jax.value_and_grad(f)` without `has_aux=True` where every `return`
    of `f` returns a tuple or list display (`return loss, metrics`), and `has_aux=True` where
    every `return` returns a tuple of another length than two, or a JAX array.

    ## Why is this bad?
    `grad` differentiates a scalar: called, the function raises `TypeError` ("Gradient only
    defined for scalar-output functions. Output was (...)"), also under `jax.jit`. A loss that
    returns metrics beside it needs `has_aux=True`, which differentiates the first element and
    hands the second back as it is; with `has_aux=True` the function must return exactly a
    pair ("expected function with aux output to return a two-element tuple").

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def loss_fn(w, x):
        loss = jnp.mean((x @ w) ** 2)
        return loss, {"loss": loss}

    grad_fn = jax.value_and_grad(loss_fn)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def loss_fn(w, x):
        loss = jnp.mean((x @ w) ** 2)
        return loss, {"loss": loss}

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    ```

    ## Fix safety
    No automatic fix: `has_aux=True` changes what the gradient function returns (`(value, aux),
    grads`), so every caller must unpack it anew.

    ## References
    - [jax.value_and_grad](https://docs.jax.dev/en/latest/_autosummary/jax.value_and_grad.html)
    """

    code = "JAX614"
    name = "gradient-of-tuple-output"
    message = "`jax.grad` of a function returning a tuple, without `has_aux`"
    outcome = "TypeError: Gradient only defined for scalar-output functions"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        transform = ctx.qualname(node.func)
        if transform not in SCALAR_GRADIENTS or not node.args:
            return
        function = _one_function(ctx, node.args[0])
        aux = keyword_argument(node, "has_aux")
        if function is None or (aux is not None and not isinstance(aux, ast.Constant)):
            return
        widths = _returned_widths(function)
        if not widths:
            return
        name = snippet(ctx, node.func)
        differentiated = "the lambda" if isinstance(function.node, ast.Lambda) else f"`{function.name}`"
        if aux is None or aux.value is False:  # pyright: ignore[reportAttributeAccessIssue]
            layer = _vector_layer_output(ctx, function) if widths == {0} else None
            if layer is not None:
                ctx.report(
                    node,
                    f"`{name}` differentiates {differentiated}, which returns the output of "
                    f"`{snippet(ctx, layer)}` (line {layer.lineno}), an array of shape (n,), not a "
                    f"scalar: the call raises `TypeError` (gradient only defined for scalar-output "
                    f"functions); index or sum it (`[0]`, `.sum()`), or build the layer with "
                    f'`out_size="scalar"`',
                )
                return
            if 0 not in widths:
                ctx.report(
                    node,
                    f"`{name}` differentiates {differentiated}, which returns a tuple (line "
                    f"{_first_return(function)}): the call raises `TypeError` (gradient only defined for "
                    f"scalar-output functions); pass `has_aux=True` to differentiate the first element "
                    f"and return the second as auxiliary data",
                )
        elif aux.value is True and widths == {0} and _returns_arrays(ctx, function):  # pyright: ignore[reportAttributeAccessIssue]
            ctx.report(
                node,
                f"`{name}` with `has_aux=True` differentiates {differentiated}, which returns a single "
                f"array (line {_first_return(function)}), not a pair: the call raises `TypeError` "
                f"(a function with aux output must return a two-element tuple); return "
                f"`(value, aux)`, or drop `has_aux=True`",
            )
        elif aux.value is True and 0 not in widths and 2 not in widths:  # pyright: ignore[reportAttributeAccessIssue]
            ctx.report(
                node,
                f"`{name}` with `has_aux=True` differentiates {differentiated}, which returns a tuple "
                f"of {min(widths)} elements (line {_first_return(function)}): the call raises `TypeError` "
                f"(a function with aux output must return a pair); return `(value, aux)`, the aux "
                f"values in one tuple or dict",
            )


def _one_function(ctx: Context, expr: ast.expr) -> FunctionInfo | None:
    """The function of this module ``expr`` names, with nothing bound to it (a def or lambda)."""
    found = refs(ctx.value(expr))
    if len(found) != 1:
        return None
    ref = next(iter(found))
    if not isinstance(ref, FunctionRef) or ref.layers or ref.offset or ref.bound or ref.skip:
        return None
    return ctx.model.infos.get(ref.node)


def _returned_widths(function: FunctionInfo) -> set[int]:
    """For each value the function returns, the width of the tuple or list display it is (0:
    another value, or a starred display); empty when it never returns a value or is a generator."""
    return {_width(value) for value in returned_expressions(function.node)}


def _width(expr: ast.expr) -> int:
    if isinstance(expr, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        return len(expr.elts) if len(expr.elts) >= 2 else 0
    return 0


# equinox layers whose output is a vector of `out` entries: where `out` is passed
VECTOR_LAYERS = {"equinox.nn.MLP": (1, "out_size"), "equinox.nn.Linear": (1, "out_features")}


def _vector_layer_output(ctx: Context, function: FunctionInfo) -> ast.Call | None:
    """The construction of the equinox layer (``eqx.nn.MLP(2, 1, ...)``, an integer output
    size, not ``"scalar"``) whose call every return of ``function`` is: a vector, not a scalar."""
    found = None
    for value in returned_expressions(function.node):
        if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name):
            return None
        bound = function.scope.bound_value(value.func.id)
        construction = None if bound is None else bound[0]
        if not isinstance(construction, ast.Call) or bound is None:
            return None
        spec = VECTOR_LAYERS.get(ctx.model.qualname(construction.func, bound[1]) or "")
        if spec is None:
            return None
        position, keyword = spec
        size = construction.args[position] if len(construction.args) > position else None
        size = size or next((k.value for k in construction.keywords if k.arg == keyword), None)
        if not (isinstance(size, ast.Constant) and type(size.value) is int):
            return None
        found = construction
    return found


def _returns_arrays(ctx: Context, function: FunctionInfo) -> bool:
    """Whether every value the function returns is known to be a JAX array (not a pair)."""
    returned = returned_expressions(function.node)
    return bool(returned) and all(is_jax_array(ctx.model.value(value, function.scope)) for value in returned)


def _first_return(function: FunctionInfo) -> int:
    return returned_expressions(function.node)[0].lineno
