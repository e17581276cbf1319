"""JAX602: a NumPy function applied to a traced value."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import JaxNumpyFunction
from jaxlint.semantic import measured
from jaxlint.semantic.measured import numpy_misanswers_tracer
from jaxlint.semantic.transforms import CONCRETE, STAGED
from jaxlint.semantic.values import is_traced

from ..support.explain import runs_only_traced, snippet, why_traced
from .numpy_api import (
    HOST_ONLY_CONVERTS_TRACER,
    NUMPY_CONVERTS_TRACER,
    NUMPY_CONVERTS_TRACER_NEEDS_SIZE,
    SCIPY_CONVERTS_TRACER,
)

CONVERTS_TRACER = (
    NUMPY_CONVERTS_TRACER
    | SCIPY_CONVERTS_TRACER
    | NUMPY_CONVERTS_TRACER_NEEDS_SIZE.keys()
    | HOST_ONLY_CONVERTS_TRACER
)
NUMPY_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in CONVERTS_TRACER)
# NumPy functions that reject a tracer only after their first argument (measured), whose
# `jax.numpy` namesake works under jit
CONVERTS_LATER = {
    name: rejecting
    for name, rejecting in measured.numpy_rejecting_after_first().items()
    if measured.concrete_parameters("jax." + name) is not None
    and measured.fails_under_jit("jax." + name) is None
}
LATER_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in CONVERTS_LATER)
# Keywords that mean the same to the NumPy function and its jax.numpy namesake.
SHARED_KEYWORDS = frozenset({"axis", "keepdims", "dtype", "ddof", "ord", "optimize", "decimals"})
CALLBACK_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in measured.host_callbacks())


class NumpyFunctionOnTracer(Rule):
    """## What it does
    Finds a NumPy function (`np.exp`, `np.dot`, `np.where`, `np.linalg.norm`, ...) called on a
    traced value inside code JAX traces abstractly, when the function converts its argument to a
    NumPy array. (`np.asarray(x)` and other conversions are JAX503; NumPy functions that call a
    method of their argument, such as `np.sum(x)` or `np.reshape(x, s)`, work on tracers and are
    not reported.) Also the NumPy functions measured to catch the conversion error and answer
    anyway: `np.array_equal(x, y)` on a tracer is `False`, whatever the values. And the SciPy
    functions measured to convert a tracer (`scipy.special.expit`, `scipy.linalg.expm`), whose
    `jax.scipy` namesake traces. And the functions of NumPy's and SciPy's host-only modules
    measured to convert a tracer (`np.testing.assert_allclose`, `scipy.signal.lfilter`,
    `scipy.stats.norm.cdf`), whose JAX namesake is not measured or does not exist: reported with
    the namesake to use where JAX has one, and no rewrite.

    ## Why is this bad?
    NumPy computes on concrete host arrays: it calls `__array__` on its argument, and a tracer has
    no value while JAX traces, so JAX raises `jax.errors.TracerArrayConversionError`. The
    `jax.numpy` function of the same name computes the same result on tracers (and on the
    accelerator).

    ## Example
    ```python
    import jax
    import numpy as np

    @jax.jit
    def softplus(x):
        return np.log1p(np.exp(x))
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def softplus(x):
        return jnp.log1p(jnp.exp(x))
    ```

    ## Fix safety
    The fix calls the `jax.numpy` namesake. It is safe in a function that only ever runs traced (it
    is decorated with `jax.jit`, `vmap`..., nested in one, or only ever given to one, `jax.grad`
    included: NumPy cannot convert its tracer either); elsewhere it is unsafe, because the
    same function may also run eagerly on NumPy data, where the result would become a JAX array
    (and float64 would become float32). No fix is offered when a keyword argument (`out=`,
    `where=`...) has no `jax.numpy` equivalent.

    The fix rewrites the Example to:
    ```python
    import jax
    import numpy as np
    import jax.numpy as jnp

    @jax.jit
    def softplus(x):
        return jnp.log1p(jnp.exp(x))
    ```

    ## References
    - [jax.errors.TracerArrayConversionError](https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError)
    - [JAX: jax.numpy](https://docs.jax.dev/en/latest/jax.numpy.html)
    """

    code = "JAX602"
    name = "numpy-function-on-tracer"
    message = "A NumPy function is applied to a traced value"
    outcome = "jax.errors.TracerArrayConversionError"
    fix_title = "Use the `jax.numpy` function of the same name"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.traced:  # JVP tracers under a bare grad reject NumPy conversion too
            return
        if self.check_misanswer(node, ctx) or self.check_host_callback(node, ctx):
            return
        culprit = _traced_operand(ctx, node)
        if culprit is None:
            return
        qualname: str = ctx.qualname(node.func)  # pyright: ignore[reportAssignmentType]
        if qualname in HOST_ONLY_CONVERTS_TRACER:
            ctx.report(
                node,
                f"`{qualname.replace('numpy.', 'np.', 1)}` converts traced `{snippet(ctx, culprit)}` to a "
                f"NumPy array: JAX raises `TracerArrayConversionError` ({why_traced(ctx, culprit)}); "
                f"{_host_only_cure(qualname)}",
            )
            return
        if qualname in SCIPY_CONVERTS_TRACER:  # no fix: `jax.scipy` may need importing as a module
            ctx.report(
                node,
                f"`{qualname}` converts traced `{snippet(ctx, culprit)}` to a NumPy array: JAX raises "
                f"`TracerArrayConversionError` ({why_traced(ctx, culprit)}); use `jax.{qualname}`",
            )
            return
        name = qualname.removeprefix("numpy.")
        if qualname in NUMPY_CONVERTS_TRACER_NEEDS_SIZE:  # no fix: only the author knows the bound
            ctx.report(
                node,
                f"`np.{name}` converts traced `{snippet(ctx, culprit)}` to a NumPy array: JAX raises "
                f"`TracerArrayConversionError` ({why_traced(ctx, culprit)}); its result's size depends "
                f"on the values, so `jnp.{name}` works under jit only given a static bound "
                f"(`jnp.{name}(..., size=n)`, padded)",
            )
            return
        fixable = all(k.arg in SHARED_KEYWORDS for k in node.keywords)
        ctx.report(
            node,
            f"`np.{name}` converts traced `{snippet(ctx, culprit)}` to a NumPy array: JAX raises "
            f"`TracerArrayConversionError` ({why_traced(ctx, culprit)}); use `jnp.{name}`",
            fix=JaxNumpyFunction(name, safe=runs_only_traced(ctx, CONCRETE)) if fixable else None,
        )

    def check_misanswer(self, node: ast.Call, ctx: Context) -> bool:
        """``np.array_equal(x, y)`` on a tracer: measured to catch the conversion error and say
        ``False`` whatever the values."""
        qualname = ctx.qualname(node.func)
        if qualname is None or not numpy_misanswers_tracer(qualname):
            return False
        if ctx.level != STAGED:  # under a bare vmap, an unmapped leaf (`in_axes` of a dict) stays NumPy
            return False
        culprit = next(
            (a for a in node.args if not isinstance(a, ast.Starred) and is_traced(ctx.value(a))), None
        )
        if culprit is None:
            return False
        name = qualname.removeprefix("numpy.")
        ctx.report(
            node,
            f"`np.{name}` cannot convert traced `{snippet(ctx, culprit)}` to a NumPy array: it catches "
            f"the error and answers `False` whatever the values ({why_traced(ctx, culprit)}); use "
            f"`jnp.{name}`",
            fix=JaxNumpyFunction(name, safe=False),  # a traced answer: a Python `if` on it then raises
        )
        return True

    def check_host_callback(self, node: ast.Call, ctx: Context) -> bool:
        """``scipy.optimize.brentq(npv, 0.0, 1.0)`` under ``jit``, where ``npv`` returns a JAX
        array (from a traced value it closes over, or from constants: ``jnp`` is staged there):
        SciPy calls it on the host and converts its result, which raises (measured per function)."""
        if ctx.level != STAGED or callee_leaf(node) not in CALLBACK_LEAVES:
            return False
        qualname = ctx.qualname(node.func) or ""
        callback = measured.host_callbacks().get(qualname)
        function = None if callback is None else _argument(node, callback.position, callback.parameter)
        found = None if function is None else ctx.model.resolve_function(function, ctx.scope)
        if callback is None or found is None or found[1] or not is_traced(found[0].returns):
            return False
        ctx.report(
            node,
            f"`{qualname}` runs on the host: it calls `{found[0].name}` on NumPy values and converts what "
            f"it returns, a JAX array staged under `jit` here, so JAX raises `{callback.error}`; solve "
            f"it with JAX (`jax.scipy.optimize.minimize`, a `lax.while_loop` iteration, or a JAX solver "
            f"library), or call `{qualname.rsplit('.', 1)[1]}` outside the traced function",
        )
        return True


def _argument(node: ast.Call, position: int | None, name: str) -> ast.expr | None:
    """The argument of ``node`` that binds the parameter ``name`` at ``position``."""
    keyword = next((k.value for k in node.keywords if k.arg == name), None)
    if keyword is not None:
        return keyword
    if position is None or position >= len(node.args) or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    return node.args[position]


def _host_only_cure(qualname: str) -> str:
    """What to do instead of a host-only function on a tracer: its JAX namesake where there is
    one (``jax.scipy.stats.norm.cdf``), else check or compute it elsewhere."""
    if qualname in measured.host_only_namesakes():
        return f"use `jax.{qualname}`"
    if qualname.startswith("numpy.testing."):
        return "check the result after the call instead (or inside `jax.debug.callback`)"
    return "JAX has no such function: compute it with `jax.numpy`/`jax.lax`, or on the host with `jax.pure_callback`"


def _traced_operand(ctx: Context, node: ast.Call) -> ast.expr | None:
    """The first traced argument of a converting NumPy call (an argument that is itself such a
    call on a tracer counts: it is reported too, and rewritten to return a tracer)."""
    later = CONVERTS_LATER.get(ctx.qualname(node.func) or "") if callee_leaf(node) in LATER_LEAVES else None
    if later is not None:
        return _traced_later_operand(ctx, node, later)
    if callee_leaf(node) not in NUMPY_LEAVES or ctx.qualname(node.func) not in CONVERTS_TRACER:
        return None
    for argument in [*node.args, *(k.value for k in node.keywords)]:
        value = argument.value if isinstance(argument, ast.Starred) else argument
        if is_traced(ctx.value(value)):
            return value
        if isinstance(value, ast.Call) and _traced_operand(ctx, value) is not None:
            return value
    return None


def _traced_later_operand(
    ctx: Context, node: ast.Call, rejecting: tuple[tuple[int, str], ...]
) -> ast.expr | None:
    """A traced argument at a parameter that rejects one (measured) where the first argument is
    no tracer: ``np.searchsorted(BOUNDS, pred)``. A traced first argument runs its own method."""
    if any(isinstance(a, ast.Starred) for a in node.args) or not node.args:
        return None
    if is_traced(ctx.value(node.args[0])):
        return None
    for position, name in rejecting:
        argument = node.args[position] if position < len(node.args) else None
        argument = argument or next((k.value for k in node.keywords if k.arg == name), None)
        if argument is not None and is_traced(ctx.value(argument)):
            return argument
    return None
