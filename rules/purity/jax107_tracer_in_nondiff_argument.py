"""JAX107: a traced value passed to a ``jax.custom_vjp`` function in a ``nondiff_argnums`` slot."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.tracing import int_literals
from jaxlint.semantic.transforms import ABSTRACT, PARTIALS
from jaxlint.semantic.values import FunctionRef, is_traced, refs

from ..support.explain import snippet, why_traced

CUSTOM_VJP = "jax.custom_vjp"


class TracerInNondiffArgument(Rule):
    """## What it does
    Finds a call of a `jax.custom_vjp` function, under `jax.jit` or `jax.vmap`, that passes a
    traced value in one of its `nondiff_argnums` positions.

    ## Why is this bad?
    `custom_vjp` keeps its non-differentiable arguments out of the trace, as Python values handed
    to the backward rule. A tracer there would escape its trace, so JAX raises
    `jax.errors.UnexpectedTracerError` ("Found a JAX Tracer object passed as an argument to a
    custom_vjp function in a position indicated by nondiff_argnums as non-differentiable"), even
    when nothing is differentiated. `nondiff_argnums` is for functions and static configuration;
    an array belongs among the differentiable arguments (with a zero cotangent from the backward
    rule), or closed over. `jax.custom_jvp` accepts tracers there.

    ## Example
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.custom_vjp, nondiff_argnums=(0,))
    def scale(s, x):
        return s * x

    def scale_fwd(s, x):
        return scale(s, x), None

    def scale_bwd(s, _, g):
        return (s * g,)

    scale.defvjp(scale_fwd, scale_bwd)

    @jax.jit
    def step(s, x):
        return scale(s, x)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.custom_vjp
    def scale(s, x):
        return s * x

    def scale_fwd(s, x):
        return scale(s, x), s

    def scale_bwd(s, g):
        return (jnp.zeros_like(s), s * g)

    scale.defvjp(scale_fwd, scale_bwd)

    @jax.jit
    def step(s, x):
        return scale(s, x)
    ```

    ## Fix safety
    No automatic fix: the argument moves among the differentiable ones, and the forward and
    backward rules change with it.

    ## References
    - [jax.custom_vjp](https://docs.jax.dev/en/latest/_autosummary/jax.custom_vjp.html)
    - [JAX: Custom derivative rules, nondiff_argnums](https://docs.jax.dev/en/latest/notebooks/Custom_derivative_rules_for_Python_code.html#handling-non-differentiable-arguments)
    """

    code = "JAX107"
    traced_only = True
    name = "tracer-in-nondiff-argument"
    message = "A traced value is passed to a `custom_vjp` function as a `nondiff_argnums` argument"
    outcome = "jax.errors.UnexpectedTracerError"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.level < ABSTRACT or any(isinstance(a, ast.Starred) for a in node.args):
            return
        for position, name in _nondiff_parameters(ctx, node.func):
            if position < len(node.args):
                argument = node.args[position]
            else:  # passed by name: `clip(x, threshold=t)`
                argument = next((k.value for k in node.keywords if k.arg == name), None)
            if argument is None or not is_traced(ctx.value(argument)):
                continue
            ctx.report(
                argument,
                f"`{snippet(ctx, argument)}` is traced ({why_traced(ctx, argument)}) but is passed "
                f"to `custom_vjp` function `{snippet(ctx, node.func)}` at position {position}, "
                f"which `nondiff_argnums` keeps out of the trace: JAX raises "
                f"`UnexpectedTracerError`; make it a differentiable argument (its cotangent "
                f"zero), or close over it",
            )
            return


def _nondiff_parameters(ctx: Context, func: ast.expr) -> list[tuple[int, str]]:
    """The positions and names of the literal ``nondiff_argnums`` of the ``custom_vjp``
    function ``func`` names: a ``def`` of this module decorated with
    ``@partial(jax.custom_vjp, nondiff_argnums=...)``, or wrapped once by a name
    (``clip = jax.custom_vjp(_clip, nondiff_argnums=...)``)."""
    wrapping = _wrapping_call(ctx, func)
    for ref in refs(ctx.value(func)):
        if not isinstance(ref, FunctionRef) or ref.offset or ref.layers:
            continue
        node = ref.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        names = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        for call in [*node.decorator_list, *([wrapping] if wrapping is not None else [])]:
            positions = _nondiff_argnums(ctx, call)
            if positions:
                return [(p, names[p]) for p in sorted(positions) if p < len(names)]
    return []


def _wrapping_call(ctx: Context, func: ast.expr) -> ast.Call | None:
    """The ``jax.custom_vjp(f, ...)`` call bound once to the name ``func`` calls."""
    if not isinstance(func, ast.Name):
        return None
    owner = ctx.scope.lookup(func.id)
    value = None if owner is None else owner.single_value(func.id)
    return value if isinstance(value, ast.Call) and len(value.args) == 1 else None


def _nondiff_argnums(ctx: Context, call: ast.expr) -> set[int]:
    """The literal ``nondiff_argnums`` of a ``custom_vjp`` made by ``call``:
    ``partial(jax.custom_vjp, nondiff_argnums=...)``, ``jax.custom_vjp(nondiff_argnums=...)``
    or ``jax.custom_vjp(f, nondiff_argnums=...)``; empty for anything else."""
    if not isinstance(call, ast.Call):
        return set()
    callee = ctx.qualname(call.func)
    through_partial = callee in PARTIALS and call.args and ctx.qualname(call.args[0]) == CUSTOM_VJP
    if not through_partial and not (callee == CUSTOM_VJP and len(call.args) <= 1):
        return set()
    value = next((k.value for k in call.keywords if k.arg == "nondiff_argnums"), None)
    return int_literals(value) or set()
