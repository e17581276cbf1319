"""JAX510: ``isinstance(p, int)`` on a parameter that a jitted call passes a Python number for:
under ``jit`` the number arrives as a tracer, so the test is False and the other branch runs."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import is_traced

from ..support.explain import function_name, snippet
from ..support.jitted import jitted_callee_in

# what a Python number is an instance of, which a tracer is not
NUMBER_TYPES = frozenset(
    {
        "builtins.int",
        "builtins.float",
        "builtins.bool",
        "builtins.complex",
        "numbers.Number",
        "numbers.Real",
        "numbers.Integral",
        "numbers.Complex",
    }
)


class IsinstanceOfTracedNumber(Rule):
    """## What it does
    Finds `isinstance(p, int)` (or `float`, `bool`, `complex`, `numbers.Number`, a tuple of them)
    on a parameter `p` of a function that a call in sight runs through `jax.jit` passing a Python
    number for `p`.

    ## Why is this bad?
    `jax.jit` traces every argument that is not static, Python numbers included: inside the
    trace `p` is a tracer, which is no `int`, so the test is False and the jitted call takes the
    other branch, silently computing something else than the same call made eagerly (measured
    with JAX 0.10.2: `jax.jit(normalize)(x, 2)` took the max-norm branch that `normalize(x, 2)`
    did not).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp


    def normalize(x, p):
        if isinstance(p, int):
            return x / jnp.sum(jnp.abs(x) ** p) ** (1.0 / p)
        return x / jnp.max(jnp.abs(x))


    y = jax.jit(normalize)(jnp.array([3.0, 4.0]), 2)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp


    def normalize(x, p):
        if isinstance(p, int):
            return x / jnp.sum(jnp.abs(x) ** p) ** (1.0 / p)
        return x / jnp.max(jnp.abs(x))


    y = jax.jit(normalize, static_argnames=("p",))(jnp.array([3.0, 4.0]), 2)
    ```

    ## Fix safety
    No automatic fix: whether `p` should be static (one compilation per value) or the
    dispatch should go is the author's call.

    ## References
    - [JAX: static arguments](https://docs.jax.dev/en/latest/jit-compilation.html#marking-arguments-as-static)
    """

    code = "JAX510"
    mentioned = frozenset({"isinstance"})
    name = "isinstance-of-traced-number"
    message = "isinstance of a parameter a jitted call passes a Python number for: False under jit"
    outcome = "silently the other branch: the jitted call computes something else"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        function = ctx.function
        if not ctx.abstract or function is None or len(node.args) != 2:
            return
        if ctx.qualname(node.func) != "builtins.isinstance":
            return
        subject, types = node.args
        if not isinstance(subject, ast.Name) or not _number_types(ctx, types):
            return
        if subject.id not in function.positional_names() or function.scope.bound.get(subject.id) != 1:
            return
        if not is_traced(ctx.value(subject)):
            return
        passed = _number_passed_through_jit(ctx, subject.id)
        if passed is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` in `{function_name(ctx)}` is False under `jax.jit`: the call at line "
            f"{passed.lineno} passes the Python number `{snippet(ctx, passed)}` for `{subject.id}`, which "
            f"`jit` traces, so the jitted call takes the other branch; mark `{subject.id}` static "
            f"(`static_argnames`), or dispatch on something static",
        )


def _number_types(ctx: Context, types: ast.expr) -> bool:
    elements = types.elts if isinstance(types, ast.Tuple) else [types]
    return bool(elements) and all(ctx.qualname(e) in NUMBER_TYPES for e in elements)


def _number_passed_through_jit(ctx: Context, name: str) -> ast.expr | None:
    """A Python number a jitted call in sight passes for the non-static parameter ``name``."""
    function = ctx.function
    calls = None if function is None else ctx.model.calls_in_sight(function)
    for call, scope in calls or []:
        jitted = jitted_callee_in(ctx, call, scope)
        if jitted is None or jitted.info is not function or name in jitted.static:
            continue
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            number = isinstance(argument, ast.Constant) and type(argument.value) in (int, float, bool)
            if number and jitted.parameter(call, argument) == name:
                return argument
    return None
