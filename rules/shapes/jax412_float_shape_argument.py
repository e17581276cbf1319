"""JAX412: a float where a JAX function needs an integer shape, size or count (``jnp.zeros(n / 2)``)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic import measured
from jaxlint.semantic.measured import ConcreteParameter, ConcreteParams, concrete_parameters
from jaxlint.semantic.values import is_jax_array

from ..support.dtypes import dtype_kind
from ..support.explain import snippet


@dataclass(frozen=True)
class FloorDivide(FixRequest):
    """``a / b`` -> ``a // b``."""

    division: ast.BinOp


class FloatShapeArgument(Rule):
    """## What it does
    Finds a float passed where a JAX function needs an integer: a shape (`jnp.zeros(n / 2)`,
    `jax.random.normal(key, (x.shape[0] / 2,))`), a size or count (`num` of `jnp.linspace`,
    `num_classes` of `jax.nn.one_hot`), an axis. The value is a float whatever its inputs: a
    true division (`/` always makes one), arithmetic with a float literal, `float(...)`.
    Which parameters reject a float, and in which form (a number, an entry of a tuple), is
    measured by running JAX: `jnp.arange` and the sections of `jnp.split` take floats.

    ## Why is this bad?
    JAX raises `TypeError` ("Shapes must be 1D sequences of concrete values of integer type",
    "'float' object cannot be interpreted as an integer"), eagerly as under `jit`. Use `//`
    for a division meant to give a count, or `int(...)` on a static value.

    ## Example
    ```python
    import jax.numpy as jnp

    def half_buffer(x):
        return jnp.zeros(x.shape[0] / 2)
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def half_buffer(x):
        return jnp.zeros(x.shape[0] // 2)
    ```

    ## Fix safety
    Unsafe, for a true division: `//` rounds down, which may not be the count that was meant
    (though the division as written always raises).

    ## References
    - [jax.numpy.zeros](https://docs.jax.dev/en/latest/_autosummary/jax.numpy.zeros.html)
    """

    code = "JAX412"
    name = "float-shape-argument"
    message = "A float is passed where JAX needs an integer shape, size or count"
    outcome = "TypeError: Shapes must be 1D sequences of concrete values of integer type"
    fix_title = "Divide with `//`"
    fix_availability = FixAvailability.SOMETIMES
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not any(_may_be_float(a) for a in [*node.args, *(k.value for k in node.keywords)]):
            return  # cheap first: most calls pass no division, float literal or float()
        found = _function_and_arguments(ctx, node)
        if found is None:
            return
        qualname, params, offset = found
        arguments = [(a, params.find(position=i + offset)) for i, a in enumerate(node.args)]
        arguments += [(k.value, params.find(keyword=k.arg)) for k in node.keywords if k.arg]
        if offset and qualname == "jax.numpy.reshape" and len(node.args) > 1:
            entries = ast.Tuple(elts=list(node.args), ctx=ast.Load())  # `x.reshape(a, b)`: one shape
            arguments = [(entries, params.find(position=1))]
        for argument, parameter in arguments:
            culprit = None if parameter is None else _float_in(ctx, argument, parameter)
            if culprit is None or parameter is None:
                continue
            short = (
                qualname.replace("jax.numpy.", "jnp.") if not offset else f".{qualname.rpartition('.')[2]}"
            )
            divides = isinstance(culprit, ast.BinOp) and isinstance(culprit.op, ast.Div)
            ctx.report(
                culprit,
                f"`{snippet(ctx, culprit)}` is a float, but `{parameter.name}` of `{short}` must be an "
                f"integer: JAX raises `TypeError` ({_what(parameter)} must be integers); "
                f"{'use `//`' if divides else 'pass an int'}",
                fix=FloorDivide(culprit) if divides else None,  # pyright: ignore[reportArgumentType]
            )
            return


def _function_and_arguments(ctx: Context, node: ast.Call) -> tuple[str, ConcreteParams, int] | None:
    """The measured function a call applies, its parameters, and how many of them come before
    the call's own arguments: 0 for ``jnp.zeros(...)``; 1 for a method of a JAX array, which is
    the function applied to the array (``x.reshape(...)`` is ``jnp.reshape(x, ...)``)."""
    func = node.func
    qualname = ctx.qualname(func)
    offset = 0
    if qualname is None and isinstance(func, ast.Attribute):
        method = (
            "jax.numpy.reshape"
            if func.attr == "reshape"
            else (measured.array_method(func.attr) or (None,))[0]
        )
        if method is None or not is_jax_array(ctx.value(func.value)):
            return None
        qualname, offset = method, 1
    params = None if qualname is None else concrete_parameters(qualname)
    return None if qualname is None or params is None else (qualname, params, offset)


def _float_in(ctx: Context, argument: ast.expr, parameter: ConcreteParameter) -> ast.expr | None:
    """The float ``argument`` passes in a form ``parameter`` is measured to reject: itself, or
    an entry of its tuple (list) display."""
    if "scalar" in parameter.rejects_float and _is_float(ctx, argument, python_only=parameter.array_ok):
        return argument
    if "sequence" in parameter.rejects_float and isinstance(argument, (ast.Tuple, ast.List)):
        return next((e for e in argument.elts if _is_float(ctx, e)), None)
    return None


def _is_float(ctx: Context, expr: ast.expr, python_only: bool = False) -> bool:
    """Whether ``expr`` makes a float; with ``python_only``, a Python float (weakly typed: where
    an array may stand, as the edges of ``jnp.histogram``, a float array is fine)."""
    kind = dtype_kind(ctx.model, expr, ctx.scope)
    return kind is not None and kind.kind == "float" and (kind.weak or not python_only)


def _may_be_float(expr: ast.expr) -> bool:
    """Syntax that can make a float: a division, a float literal, a call (``float(n)``), a
    name; in a tuple or list display, one of its entries."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return any(_may_be_float(e) for e in expr.elts)
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, float)
    return isinstance(expr, (ast.BinOp, ast.Call, ast.Name, ast.UnaryOp))


def _what(parameter: ConcreteParameter) -> str:
    return "shapes" if parameter.value == "ints" else "sizes, counts and axes"
