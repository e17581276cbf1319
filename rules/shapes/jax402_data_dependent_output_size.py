"""JAX402: ``jnp.nonzero``/``unique``/``argwhere``/... on a tracer without ``size=``."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import keyword_argument
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import FailureRewrite, NumpyAtTraceTime
from jaxlint.semantic import measured
from jaxlint.semantic.transforms import STAGED
from jaxlint.semantic.values import is_container, is_jax_array, is_static, is_traced, is_unknown, without_keys

from ..support.explain import safe_where_it_always_failed, snippet, why_traced
from ..support.library import array_method_receiver, jitted_library_call
from ..support.staging import compile_time_eval, computed_by_numpy, numpy_advice
from .reductions import IDENTITIES, reduced_by

# function -> (keyword that fixes the output size, positions of the data arguments)
SIZED_FUNCTIONS: dict[str, tuple[str, tuple[int, ...]]] = {
    "jax.numpy.nonzero": ("size", (0,)),
    "jax.numpy.argwhere": ("size", (0,)),
    "jax.numpy.flatnonzero": ("size", (0,)),
    "jax.numpy.unique": ("size", (0,)),
    "jax.numpy.unique_values": ("size", (0,)),
    "jax.numpy.unique_counts": ("size", (0,)),
    "jax.numpy.unique_inverse": ("size", (0,)),
    "jax.numpy.unique_all": ("size", (0,)),
    "jax.numpy.compress": ("size", (0,)),
    "jax.numpy.extract": ("size", (0,)),
    "jax.numpy.union1d": ("size", (0, 1)),
    "jax.numpy.intersect1d": ("size", (0, 1)),
    "jax.numpy.setdiff1d": ("size", (0, 1)),
    "jax.numpy.setxor1d": ("size", (0, 1)),
    "jax.numpy.bincount": ("length", (0,)),
    "jax.numpy.repeat": ("total_repeat_length", (1,)),
    "jax.numpy.where": ("size", (0,)),
    # the number of segments is one more than the largest id, unless given (measured: under jit
    # they raise without `num_segments`, whatever the arguments, as `jnp.unique` does)
    "jax.ops.segment_sum": ("num_segments", (1,)),
    "jax.ops.segment_max": ("num_segments", (1,)),
    "jax.ops.segment_min": ("num_segments", (1,)),
    "jax.ops.segment_prod": ("num_segments", (1,)),
    # the number of stored elements is the number of nonzeros, unless given (measured: under jit
    # they raise `ConcretizationTypeError` without `nse`)
    **{
        f"jax.experimental.sparse.{name}": ("nse", (0,))
        for name in ("bcoo_fromdense", "bcsr_fromdense", "BCOO.fromdense", "BCSR.fromdense")
    },
}
# Where the size keyword may be given by position instead (the others take it by keyword only).
SIZE_POSITIONS = {name: 2 for name in SIZED_FUNCTIONS if name.startswith("jax.ops.")}
ARRAY_METHODS = frozenset({"nonzero", "repeat", "compress"})  # methods of an array that are functions above
# methods whose array is the function's second argument (`x.compress(c)` is `jnp.compress(c, x)`)
ARRAY_SECOND = frozenset({"compress"})


@dataclass(frozen=True)
class StaticSize(FailureRewrite):
    """Append ``size=bound`` to the call: ``bound`` is code for a static upper bound; with
    ``fill``, also ``fill_value=fill`` (the identity of the one reduction the result meets)."""

    bound: str
    fill: str | None = None


class DataDependentOutputSize(Rule):
    """## What it does
    Finds calls whose output size depends on the values of a traced input, without the keyword
    that fixes the size: `jnp.nonzero`, one-argument `jnp.where`, `jnp.argwhere`,
    `jnp.flatnonzero`, `jnp.unique`, `jnp.compress`, `jnp.extract`, the set operations
    (`union1d`, `intersect1d`, `setdiff1d`, `setxor1d`) without `size=`, `jnp.bincount` without
    `length=`, `jnp.repeat` with traced repeats without `total_repeat_length=`, and
    `jax.experimental.sparse`'s `BCOO.fromdense`/`bcoo_fromdense` (and the BCSR forms) without
    `nse=`; the
    functions measured raising under `jit` whatever they are given (`jnp.trim_zeros`); also these
    functions compiled with `jax.jit` and called (`jax.jit(jnp.unique)(x)`), whose arguments
    `jit` traces. Under `jit` (not a bare `vmap`, nor in `jax.ensure_compile_time_eval()`) they
    raise on constants too, a NumPy array or a `jnp` constant: `jit` stages every `jax.numpy`
    call.

    ## Why is this bad?
    Under `jit` every shape must be known while tracing. These functions cannot know how many
    elements they return until they see the data, so JAX raises
    `jax.errors.ConcretizationTypeError`. Passing `size=` (with `fill_value=` for the padding)
    makes the shape static.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def active_indices(x):
        return jnp.nonzero(x > 0.5)[0]

    @jax.jit
    def index_total(x):
        return jnp.nonzero(x > 0.5)[0].sum()
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def active_indices(x):
        return jnp.nonzero(x > 0.5, size=x.shape[0], fill_value=-1)[0]

    @jax.jit
    def index_total(x):
        return jnp.nonzero(x > 0.5, size=x.shape[0])[0].sum()
    ```

    ## Fix safety
    Where an upper bound follows from the input's static size, the fix passes it: `size=x.size`
    for `nonzero`/`argwhere`/`flatnonzero`/one-argument `where`/`unique`/`compress`/`extract`,
    `size=a.size` for `intersect1d`/`setdiff1d` and `size=a.size + b.size` for
    `union1d`/`setxor1d`. Unsafe: the result is padded (with `fill_value`, by default 0 for indices)
    to that size, so its shape differs from the eager result (safe where the function only ever
    runs traced: the call raised on every run, and the reduction it meets sees the eager value).
    Indices (`nonzero`, `argwhere`, `flatnonzero`, one-argument `where`) are fixed only where they meet only a sum or only a
    maximum, which padding with index 0 leaves alone: returned, counted or used to gather
    (`x[idx].sum()` would add `x[0]` once per padding slot), they get no fix. A set of values (`unique`,
    `union1d`, `intersect1d`, `setdiff1d`, `setxor1d`) is fixed only where the padding cannot
    change what the code computes: it meets only a sum or only a product (`jnp.unique(x).sum()`,
    `jnp.prod(u)`, a name read only so), and the fix passes `fill_value=0` (or `1`); or only a
    `max`/`min` of `unique`/`union1d`, which pad with their smallest value. Its length, mean or
    elements would see the padding: no fix. `bincount` and `repeat` get no fix: their bound
    depends on the values. On a constant, the fix computes with NumPy while tracing and makes
    the result a JAX array again, `jnp.asarray(np.unique(c))`: the exact result (unsafe: a
    0-d input gives a NumPy value type); not for `nonzero` and one-argument `where`, which
    return a tuple, nor where another argument is traced.

    The fix rewrites the Example to:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def active_indices(x):
        return jnp.nonzero(x > 0.5)[0]

    @jax.jit
    def index_total(x):
        return jnp.nonzero(x > 0.5, size=(x > 0.5).size)[0].sum()
    ```

    ## References
    - [jax.numpy.nonzero](https://docs.jax.dev/en/latest/_autosummary/jax.numpy.nonzero.html)
    - [JAX: Common gotchas, dynamic shapes](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#dynamic-shapes)
    """

    code = "JAX402"
    traced_only = True
    visits_anywhere = frozenset({ast.Call})  # `jax.jit(<library function>)(x)`
    name = "data-dependent-output-size"
    message = "A call whose output size depends on traced data, without `size=`"
    outcome = "jax.errors.ConcretizationTypeError"
    fix_title = "Pass `size=` with a static upper bound"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        self.check_jitted_library(node, ctx)
        if not ctx.abstract:
            return
        qualname, args = _sized_call(ctx, node)
        spec = SIZED_FUNCTIONS.get(qualname or "")
        if spec is None and qualname is not None and args:
            self.check_unsizable(node, ctx, qualname, args[0])
        if spec is None or qualname is None:
            return
        keyword, positions = spec
        if _size_given(qualname, keyword, args, node):
            return
        if qualname == "jax.numpy.where" and (len(args) != 1 or node.keywords):
            return
        data = [args[p] for p in positions if p < len(args)]
        if qualname == "jax.numpy.repeat" and all(isinstance(arg, ast.Constant) for arg in data):
            return
        short = qualname.replace("jax.numpy.", "jnp.")
        method = ctx.qualname(node.func) != qualname  # `x.nonzero()`
        if not any(is_traced(ctx.value(arg)) for arg in data):
            if not method:
                self.check_constant(node, ctx, qualname, keyword, data)
            return
        host = _computed_by_numpy(ctx, qualname, data)
        advice = f"pass `{keyword}=`{_and_fill(keyword)} to make the size static"
        if host is not None:
            advice = numpy_advice(snippet(ctx, data[0])) + f", or {advice}"
        ctx.report(
            node,
            f"`{short}` on a traced value returns a data-dependent number of elements: JAX raises "
            f"`ConcretizationTypeError` ({why_traced(ctx, data[0])}); {advice}",
            fix=host
            or (
                None if method else safe_where_it_always_failed(ctx, _static_size(qualname, node, ctx), node)
            ),
        )

    def check_constant(
        self, node: ast.Call, ctx: Context, qualname: str, keyword: str, data: list[ast.expr]
    ) -> None:
        """Under ``jit`` the call is staged even on constants: it cannot know its size either."""
        name = qualname.rsplit(".", 1)[1]
        if not qualname.startswith("jax.numpy."):
            return  # no NumPy function to compute it with while tracing
        required = measured.required_under_jit(qualname)
        if required is None or keyword not in required.requires or name in OTHER_ERROR_ON_CONSTANTS:
            return  # it works on constants under jit (measured)
        if not data or not all(_staged_constant(ctx, arg) or _staged_unknown(ctx, arg) for arg in data):
            return
        if any(is_traced(ctx.value(a)) for a in [*node.args, *(k.value for k in node.keywords)]):
            return  # another argument is traced (`weights=`): NumPy cannot take it
        if compile_time_eval(ctx):
            return
        if not all(_staged_constant(ctx, arg) for arg in data):
            ctx.report(
                node,
                f"`jnp.{name}` returns a data-dependent number of elements, and under a trace "
                f"({ctx.trace_reason()}) JAX stages every `jax.numpy` call, whatever its argument "
                f"(a traced value, a NumPy array, a constant): it raises (`ConcretizationTypeError` for a "
                f"traced value or a NumPy array); "
                f"pass `{keyword}=`{_and_fill(keyword)}, or compute a constant with NumPy "
                f"(`np.{name}`)",
            )
            return
        single = name not in TUPLE_RESULTS and not any(
            (k.arg or "").startswith("return_") for k in node.keywords
        )
        ctx.report(
            node,
            f"`jnp.{name}` on a constant still returns a data-dependent number of elements under a "
            f"trace ({ctx.trace_reason()}): JAX stages every `jax.numpy` call, constants included, "
            f"and raises `ConcretizationTypeError`; compute it with NumPy (`np.{name}`), which "
            f"runs while tracing",
            fix=ComputeOnHost(node) if single else None,
        )

    def check_unsizable(self, node: ast.Call, ctx: Context, qualname: str, data: ast.expr) -> None:
        """``jnp.trim_zeros(x)``: a data-dependent length with no keyword to fix it (measured:
        it raises under ``jit`` and ``vmap`` on any argument, constants included)."""
        error = measured.fails_under_jit(qualname)
        if error is None or not (is_traced(ctx.value(data)) or _staged_constant(ctx, data)):
            return
        short = qualname.replace("jax.numpy.", "jnp.")
        ctx.report(
            node,
            f"`{short}` returns a data-dependent number of elements and takes no `size=` to fix "
            f"it: under a trace ({ctx.trace_reason()}) JAX raises `{error}`; keep the full shape "
            f"and work with a mask (for a length, count the elements to keep)",
        )

    def check_jitted_library(self, node: ast.Call, ctx: Context) -> None:
        """``jax.jit(jnp.unique)(x)``: jit traces ``x``, so the size of the result is unknown."""
        library = jitted_library_call(ctx, node)
        spec = None if library is None else SIZED_FUNCTIONS.get(library.qualname)
        if library is None or spec is None:
            return
        keyword, positions = spec
        if _size_given(library.qualname, keyword, node.args, node):
            return
        if library.qualname == "jax.numpy.where" and (len(node.args) != 1 or node.keywords):
            return  # the three-argument form has the shape of its operands
        traced = library.traced(node)
        if not any(position < len(node.args) and node.args[position] in traced for position in positions):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` calls `{library.short}` through `jax.jit`, which traces every "
            f"argument: the number of elements it returns depends on the data, so JAX raises "
            f"`ConcretizationTypeError`; jit `functools.partial({library.short}, {keyword}=...)`"
            f"{_and_fill(keyword)} to make the size static",
        )


# Of the functions measured failing under `jit` on constants without their size keyword
# (`measured.required_under_jit`), those that raise another error than
# `ConcretizationTypeError` there (`TracerBoolConversionError`, JAX 0.10.2).
OTHER_ERROR_ON_CONSTANTS = frozenset({"compress", "extract"})
# Those of them that return a tuple of arrays.
TUPLE_RESULTS = frozenset({"nonzero", "where", "unique_counts", "unique_inverse", "unique_all"})


@dataclass(frozen=True)
class ComputeOnHost(FixRequest):
    """``jnp.f(c)`` -> ``jnp.asarray(np.f(c))``: the exact result, computed while tracing and
    made a JAX array again (so `.at`, traced indices and 32-bit dtypes work as before)."""

    call: ast.Call


def _staged_constant(ctx: Context, argument: ast.expr) -> bool:
    """Whether ``argument`` holds no tracer but, under ``jit`` (not a bare ``vmap``), still
    meets a staged computation: a concrete JAX array or a static array-like value (a NumPy
    array), not a container or a literal. Measured with JAX 0.10.2: each of these functions
    raises under ``jit`` on a NumPy array, a NumPy mask or a ``jnp`` constant."""
    if ctx.level < STAGED or isinstance(argument, ast.Constant):
        return False
    value = ctx.value(argument)
    return is_jax_array(value) or (is_static(value) and not is_container(value))


def _size_given(qualname: str, keyword: str, args: list[ast.expr], node: ast.Call) -> bool:
    """Whether the call gives the size: by keyword, by position, or possibly through ``*args``
    or ``**kwargs``."""
    position = SIZE_POSITIONS.get(qualname)
    if position is not None and (len(args) > position or any(isinstance(a, ast.Starred) for a in args)):
        return True
    return any(kw.arg == keyword or kw.arg is None for kw in node.keywords)


def _computed_by_numpy(ctx: Context, qualname: str, data: list[ast.expr]) -> NumpyAtTraceTime | None:
    """The fix where the count that makes the size traced (``repeats`` of ``jnp.repeat``, a
    ``bincount``'s ``length``) is a name bound to ``jnp`` computation on constants: computed with
    NumPy, it is a Python value while tracing (the array it counts from stays traced)."""
    if qualname != "jax.numpy.repeat" or not data:
        return None
    return computed_by_numpy(ctx, data[0])


def _and_fill(keyword: str) -> str:
    """The padding keyword that goes with ``keyword``: the ``size=`` functions take ``fill_value=``
    (``bincount``'s ``length=`` and ``repeat``'s ``total_repeat_length=`` have none)."""
    return " (and `fill_value=`)" if keyword == "size" else ""


def _staged_unknown(ctx: Context, argument: ast.expr) -> bool:
    """Whether ``argument`` is a value the model does not know (a closure variable of a factory,
    a value bound by ``partial``) met under ``jit``: traced or not, it raises there (measured
    with JAX 0.10.2 on tracers, NumPy arrays, JAX arrays and scalars)."""
    return ctx.level >= STAGED and is_unknown(without_keys(ctx.value(argument)))


def _static_size(qualname: str, node: ast.Call, ctx: Context) -> StaticSize | None:
    bound = _size_bound(qualname, node)
    if not bound:
        return None
    name = qualname.rsplit(".", 1)[1]
    if name not in VALUE_SETS:
        # indices padded with 0: only a sum or a maximum of them is the same; a gather
        # (`x[idx].sum()` adds `x[0]` per padding slot), a count or a mean is not
        return StaticSize(bound) if reduced_by(node, ctx, through_items=True) in ("sum", "max") else None
    if keyword_argument(node, "fill_value") or keyword_argument(node, "axis") or len(node.args) > 2:
        return None  # a fill chosen already, or rows (not elements) counted
    reduction = reduced_by(node, ctx)
    if reduction in IDENTITIES:
        return StaticSize(bound, IDENTITIES[reduction])
    if reduction in ("max", "min") and name in MINIMUM_FILLED:
        return StaticSize(bound)  # padded with the smallest value, which neither changes
    return None  # the padding would change the values the code sees (a count, a mean, a shape)


# Functions returning a set of values (not indices): padding them changes what the code computes
# unless the padding is the identity of the one reduction the result meets. `unique` and
# `union1d` pad with their smallest value by default (measured with JAX 0.10.2).
VALUE_SETS = frozenset({"unique", "union1d", "intersect1d", "setdiff1d", "setxor1d"})
MINIMUM_FILLED = frozenset({"unique", "union1d"})


def _size_bound(qualname: str, node: ast.Call) -> str | None:
    """A static upper bound on the output size, as code, from the inputs' sizes."""
    name = qualname.rsplit(".", 1)[1]
    sizes = [f"{_operand(a)}.size" for a in node.args[:2]]
    if name in ("nonzero", "argwhere", "flatnonzero", "where", "unique") and sizes:
        return sizes[0]
    if name in ("compress", "extract") and len(sizes) == 2:
        return sizes[1]
    if name in ("intersect1d", "setdiff1d") and sizes:
        return sizes[0]
    if name in ("union1d", "setxor1d") and len(sizes) == 2:
        return f"{sizes[0]} + {sizes[1]}"
    return None


def _operand(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"({text})"


def _sized_call(ctx: Context, node: ast.Call) -> tuple[str | None, list[ast.expr]]:
    """The function a call runs and its positional arguments: ``x.repeat(n)``, ``x.nonzero()``
    and ``x.compress(c)`` on an array are ``jnp.repeat(x, n)``, ``jnp.nonzero(x)`` and
    ``jnp.compress(c, x)``."""
    qualname = ctx.qualname(node.func)
    func = node.func
    if qualname is None and isinstance(func, ast.Attribute) and func.attr in ARRAY_METHODS:
        receiver = array_method_receiver(ctx, node)
        if receiver is not None and func.attr in ARRAY_SECOND:
            return f"jax.numpy.{func.attr}", [*node.args[:1], receiver, *node.args[1:]]
        if receiver is not None:
            return f"jax.numpy.{func.attr}", [receiver, *node.args]
    return qualname, list(node.args)
