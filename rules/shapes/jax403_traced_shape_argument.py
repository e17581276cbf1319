"""JAX403: a traced value used as a shape, size, length, count or slice bound."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import MarkStatic, NumpyAtTraceTime
from jaxlint.semantic.api import LONE_ARGUMENT_NAMES
from jaxlint.semantic.measured import ConcreteParameter, array_method, concrete_parameters
from jaxlint.semantic.records import traced_field
from jaxlint.semantic.transforms import STAGED
from jaxlint.semantic.values import (
    is_container,
    is_jax_array,
    is_static,
    is_traced,
)

from ..support.callsites import origins
from ..support.explain import (
    is_array_parameter,
    safe_where_it_always_failed,
    snippet,
    static_advice,
    static_request,
    traced_name,
    why_traced,
)
from ..support.library import array_method_receiver, jitted_library_call
from ..support.staging import compile_time_eval, computed_by_numpy, numpy_advice
from .jax402_data_dependent_output_size import SIZED_FUNCTIONS
from .reductions import reduced_by


@dataclass(frozen=True)
class DynamicSliceWindow(FixRequest):
    """``x[start:start + size]`` with a static ``size`` -> ``lax.dynamic_slice_in_dim(x, start, size)``."""

    start: ast.expr
    size: ast.expr


@dataclass(frozen=True)
class MaskedPrefix(FixRequest):
    """``x[:n]`` met only by a sum -> ``jnp.where(lax.broadcasted_iota(jnp.int32, x.shape, 0) < n,
    x, 0)``: the same sum, at a static shape."""

    array: ast.expr
    stop: ast.expr


# Array methods whose arguments are a shape (`x.reshape(n, -1)`); functions come from the
# measured facts of `jaxlint.semantic.measured`.
ARRAY_SHAPE_METHODS = frozenset({"reshape", "broadcast_to"})
# keywords that give a data-dependent result its size: where one makes a parameter optional,
# the parameter is JAX402's (the remedy is to pass the size)
SIZE_KEYWORDS = frozenset(keyword for keyword, _ in SIZED_FUNCTIONS.values())


class TracedShapeArgument(Rule):
    """## What it does
    Finds a traced value passed where JAX needs a concrete Python value: the shape of
    `jnp.zeros`/`ones`/`full`/`empty`, the bounds of `jnp.arange`, `num` of `linspace`, the
    shape of `jax.random` samplers, `num_classes` of `jax.nn.one_hot`, `length` of `lax.scan`,
    an `axis` or `keepdims`, `x.reshape(n, -1)`, `lax.dynamic_slice` sizes, and slice bounds such
    as `x[:n]`. Which parameters of `jax.numpy`, `jax.lax`, `jax.nn` and `jax.random` must be
    concrete, and the error JAX raises for each, were measured by running JAX
    (`tools/measure_jax_api.py`). A library function transformed whole, `jax.jit(jnp.zeros)(n)`,
    traces every argument and fails the same way.

    ## Why is this bad?
    Array shapes, axes and flags are part of what `jit` compiles; they must be known while
    tracing. A traced argument has no concrete value then, so JAX raises (a
    `ConcretizationTypeError`, a `TypeError` "Shapes must be 1D sequences of concrete values of
    integer type", a `ValueError` "Non-hashable static arguments are not supported"..., or an
    `IndexError` for slices). Compute sizes from shapes (`x.shape[0]`, which stay static), mark
    the argument static with `static_argnames`, or keep a fixed size and mask
    (`lax.dynamic_slice`, `jnp.where`).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def pad_to(x, n):
        return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])
    ```

    ## Use instead
    ```python
    import functools

    import jax
    import jax.numpy as jnp

    @functools.partial(jax.jit, static_argnames=("n",))
    def pad_to(x, n):
        return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])
    ```

    ## Fix safety
    A window of static size at a traced offset, `x[i:i + k]`, becomes
    `jax.lax.dynamic_slice_in_dim(x, i, k)`; unsafe because near the end of the array
    `dynamic_slice` shifts the window back to keep its size where Python slicing would shorten
    it. Otherwise, when the traced value is a parameter of the jitted function, the fix adds it to
    `static_argnames` (turning `@jax.jit` into `@functools.partial(jax.jit, static_argnames=...)`);
    for a parameter of a helper that one jitted function calls (and nothing else names), with its
    own parameter every time, that parameter of the jitted caller. Never a parameter known to be
    an array (annotated so, or read as one, `n.shape`): an array cannot be static. A local value
    that `jax.numpy` computes from constants and static values alone (`c = jnp.arange(4).sum()`:
    under a trace every `jnp` result is a tracer) is computed with NumPy instead (`np.arange`),
    a Python value while tracing (unsafe: NumPy computes in 64-bit types).
    Unsafe: callers must then pass a hashable Python value, and each distinct value compiles
    anew; safe where the parameter is the function's own, the function only ever runs traced and
    every call reaches the failing call (every call raised, so none needed the value traced).
    Where no static argument can be, a prefix `x[:n]` whose every use is a sum is summed through
    a mask of static shape, `jnp.where(lax.broadcasted_iota(jnp.int32, x.shape, 0) < n, x, 0)`
    (unsafe: a negative `n` counts from the end in a slice, and keeps every row in the mask).

    The fix rewrites the Example to:
    ```python
    import jax
    import jax.numpy as jnp
    import functools

    @functools.partial(jax.jit, static_argnames=("n",))
    def pad_to(x, n):
        return jnp.concatenate([x, jnp.zeros(n - x.shape[0])])
    ```

    ## References
    - [jax.errors.ConcretizationTypeError](https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError)
    - [JAX: static arguments](https://docs.jax.dev/en/latest/jit-compilation.html#marking-arguments-as-static)
    """

    code = "JAX403"
    name = "traced-shape-argument"
    message = "A traced value is used as a shape, size, axis or slice bound, which must be static"
    outcome = "jax.errors.ConcretizationTypeError, or the TypeError/ValueError JAX raises for that parameter"
    fix_title = "Mark the argument static with `static_argnames`"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        self.check_transformed_library(node, ctx)
        if not ctx.abstract:
            return
        found = self.traced_concrete_argument(node, ctx)
        if found is None:
            self.check_staged_constant(node, ctx)
            return
        culprit, parameter, error = found
        optional = _made_optional_by(ctx, node, parameter)
        if optional is not None:  # `jnp.delete(x, i)`: a keyword lets JAX take it traced
            ctx.report(
                node,
                f"`{snippet(ctx, node)}` needs a concrete `{parameter}` but `{snippet(ctx, culprit)}` is "
                f"traced: JAX raises `{error}` ({why_traced(ctx, culprit)}); pass `{optional}` "
                f"where that holds, and JAX takes a traced `{parameter}`",
            )
            return
        if len(node.args) == 1 and not node.keywords:
            parameter = LONE_ARGUMENT_NAMES.get((ctx.qualname(node.func) or "", parameter), parameter)
        several = _traced_parameters(ctx, culprit)
        name = several[0] if several else traced_name(ctx, culprit)  # not `x` of `x.shape[0] * n`
        advice = self.advice(ctx, name, culprit=culprit)
        fix = self.mark_static(ctx, name, culprit) or computed_by_numpy(ctx, culprit)
        staged = _jax_computation(ctx, culprit)
        if isinstance(fix, MarkStatic) and (len(several) > 1 or staged):
            # one static argument would not do, nor would static ones that JAX then computes with
            named = " and ".join(f"`{n}`" for n in several) or f"`{name}`"
            advice, fix = f"mark {named} static with `static_argnames`", None
            if staged:
                advice += (
                    f", and compute the {parameter} with Python or NumPy (`{staged}` gives a tracer "
                    f"under jit even on static values)"
                )
        elif staged and not isinstance(fix, NumpyAtTraceTime):  # JAX computes it: a tracer under jit
            advice = (
                f"compute the {parameter} with Python or NumPy from static values (`{staged}` gives a "
                f"tracer under jit even on static values)"
            )
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` needs a concrete `{parameter}` but `{snippet(ctx, culprit)}` is traced: "
            f"{parameter} must be known while tracing, so JAX raises `{error}` "
            f"({why_traced(ctx, culprit)}); {advice}",
            fix=safe_where_it_always_failed(ctx, fix, node),
        )

    def check_staged_constant(self, node: ast.Call, ctx: Context) -> None:
        """``jnp.repeat(x, REPEATS)`` under ``jit`` with ``REPEATS = jnp.int32(3)`` a module
        constant: the function stages the JAX array, which then fails as a tracer would (measured
        per parameter: ``jnp.zeros`` takes one as a shape)."""
        if ctx.level < STAGED or compile_time_eval(ctx):
            return  # under `ensure_compile_time_eval` JAX computes on constants eagerly
        qualname = ctx.qualname(node.func)
        params = None if qualname is None else concrete_parameters(qualname)
        if params is None or any(isinstance(a, ast.Starred) for a in node.args):
            return
        given = [(params.find(position=i), a) for i, a in enumerate(node.args)]
        given += [(params.find(keyword=k.arg), k.value) for k in node.keywords if k.arg is not None]
        keywords = {k.arg for k in node.keywords}
        for parameter, argument in given:
            if parameter is None or not parameter.array_constant_error or keywords & set(parameter.unless):
                continue
            value = ctx.value(argument)
            if is_jax_array(value) and not is_traced(value) and _scalar_constant(ctx, argument):
                short = snippet(ctx, node.func)
                ctx.report(
                    node,
                    f"`{snippet(ctx, node)}` needs a concrete `{parameter.name}` but `{snippet(ctx, argument)}` "
                    f"is a JAX array: under a trace ({ctx.trace_reason()}) `{short}` stages it like a "
                    f"traced value, constant or not, so JAX raises `{parameter.array_constant_error}`; give it a "
                    f"Python int or a NumPy value",
                )
                return

    def check_transformed_library(self, node: ast.Call, ctx: Context) -> None:
        """``jax.jit(jnp.zeros)(n)``: jit traces every argument of the library function, so a
        parameter that must be static gets a tracer (unless ``static_argnums`` names it)."""
        library = jitted_library_call(ctx, node)
        params = None if library is None else concrete_parameters(library.qualname)
        if library is None or params is None:
            return
        static = library.static_names
        traced = [
            argument
            for position, argument in enumerate(node.args)
            if position not in library.static
            and _needs_concrete_here(parameter := params.find(position=position), argument)
            and parameter.name not in static  # pyright: ignore[reportOptionalMemberAccess]
        ]
        traced += [
            k.value
            for k in node.keywords
            if k.arg not in static
            and _needs_concrete_here(parameter := params.find(keyword=k.arg), k.value)
            and parameter.position not in library.static  # pyright: ignore[reportOptionalMemberAccess]
        ]
        if not traced:
            return
        short = library.short
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` calls `{short}` through `jax.jit`, which traces every argument, "
            f"but `{snippet(ctx, traced[0])}` is an argument JAX needs concrete (a shape, size or axis): "
            f"JAX raises when tracing it; name it in `static_argnames` on the `jax.jit`, or call "
            f"`{short}` without jit",
        )

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not ctx.abstract:
            return
        slices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in slices:
            if not isinstance(part, ast.Slice):
                continue
            bound = next(
                (b for b in (part.lower, part.upper, part.step) if b is not None and is_traced(ctx.value(b))),
                None,
            )
            if bound is None:
                continue
            name = traced_name(ctx, bound)
            fix = _window(ctx, node) or self.slice_fix(ctx, node, name, bound)
            advice = (
                f"sum it through a mask of static shape, `jnp.where(jnp.arange(len(x)) < {snippet(ctx, bound)}, x, 0)`"
                if isinstance(fix, MaskedPrefix)
                else self.advice(ctx, name, slicing=True, culprit=bound)
            )
            ctx.report(
                node,
                f"slice bound `{snippet(ctx, bound)}` in `{snippet(ctx, node)}` is traced: "
                f"{_slicing_outcome(ctx, node)} ({why_traced(ctx, bound)}); {advice}",
                fix=fix,
            )
            return

    def slice_fix(
        self, ctx: Context, node: ast.Subscript, name: str | None, bound: ast.expr
    ) -> MarkStatic | MaskedPrefix | NumpyAtTraceTime | None:
        """A static parameter where that is safe; else a prefix summed through a mask; else a
        static parameter, or NumPy on constants."""
        static = safe_where_it_always_failed(ctx, self.mark_static(ctx, name, bound), node)
        if static is not None and static.safe:
            return static
        return _masked_prefix(ctx, node) or static or computed_by_numpy(ctx, bound)

    def traced_concrete_argument(self, node: ast.Call, ctx: Context) -> tuple[ast.expr, str, str] | None:
        """The first traced argument of ``node`` that JAX needs concrete, the parameter it binds
        to and the error JAX raises (measured); None when there is none."""
        qualname = ctx.qualname(node.func)
        first = agree = 0
        if qualname is None:
            func = node.func
            if not isinstance(func, ast.Attribute) or array_method_receiver(ctx, node) is None:
                return None
            if func.attr in ARRAY_SHAPE_METHODS:
                culprit = _first_traced(ctx, [*node.args, *(k.value for k in node.keywords)])
                # checked with JAX 0.10.2: `x.reshape(n, -1)`, `x.broadcast_to((n, 4))` raise TypeError
                return None if culprit is None else (culprit, "shape", "TypeError")
            method = array_method(func.attr)  # `x.min(axis)`: `jnp.min(x, axis)`
            if method is None:
                return None
            qualname, agree = method
            first = 1
        params = concrete_parameters(qualname)
        if params is None:
            return None
        for position, argument in enumerate(node.args, start=first):
            if isinstance(argument, ast.Starred) or (first and position > agree):
                break
            parameter = params.find(position=position)
            if _concrete_here(ctx, parameter, node, argument) and is_traced(ctx.value(argument)):
                return argument, parameter.name, parameter.error  # pyright: ignore[reportOptionalMemberAccess]
        for keyword in node.keywords:
            parameter = params.find(keyword=keyword.arg)
            if first and (parameter is None or parameter.position is None or parameter.position > agree):
                continue  # a method's keyword that may not be the function's
            if _concrete_here(ctx, parameter, node, keyword.value) and is_traced(ctx.value(keyword.value)):
                return keyword.value, parameter.name, parameter.error  # pyright: ignore[reportOptionalMemberAccess]
        return None

    def mark_static(self, ctx: Context, name: str | None, culprit: ast.expr) -> MarkStatic | None:
        return None if _array_held_by(ctx, culprit, name) else static_request(ctx, name, culprit)

    def advice(
        self, ctx: Context, name: str | None, slicing: bool = False, culprit: ast.expr | None = None
    ) -> str:
        held = None if culprit is None else _array_held_by(ctx, culprit, name)
        if held is not None:
            return (
                f"derive the size from static shapes (`x.shape`): `{held}` is an array, so `{name}` "
                f"cannot be static"
            )
        request = static_request(ctx, name, culprit)
        if request is not None:
            extra = " or use `jax.lax.dynamic_slice`" if slicing else ""
            return f"{static_advice(request, ctx)}{extra}"
        if culprit is not None and computed_by_numpy(ctx, culprit):
            return numpy_advice(name)
        if slicing:
            return "use `jax.lax.dynamic_slice` with a static size"
        if is_array_parameter(ctx, name):
            return f"derive the size from static shapes (`x.shape`): `{name}` is an array, which cannot be static"
        return "derive the size from static shapes (`x.shape`) or make it a static argument"


def _jax_computation(ctx: Context, culprit: ast.expr) -> str | None:
    """The first JAX function ``culprit`` calls (``jnp.divide``), also through a local name bound
    once to such a computation (``n = jnp.divide(t, dt).astype(int)``)."""
    function = ctx.function
    if isinstance(culprit, ast.Name) and function is not None:
        bound = function.scope.single_value(culprit.id)
        culprit = bound if bound is not None else culprit
    for node in ast.walk(culprit):
        if isinstance(node, ast.Call):
            qualname = ctx.qualname(node.func)
            if qualname is not None and qualname.startswith(("jax.numpy.", "jax.lax.")):
                return snippet(ctx, node.func)
    return None


def _traced_parameters(ctx: Context, culprit: ast.expr) -> list[str]:
    """The jitted function's own parameters that ``culprit`` reads while they are traced, in order."""
    function = ctx.function
    if function is None or not function.jit_sites:
        return []
    found: list[str] = []
    stack: list[ast.AST] = [culprit]
    while stack:  # not into static parts: `x.shape[0]` of a traced `x` is a Python int
        node = stack.pop()
        if isinstance(node, ast.expr) and is_static(ctx.value(node)):
            continue
        if isinstance(node, ast.Name) and node.id in function.params and is_traced(ctx.value(node)):
            found.append(node.id)
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return list(dict.fromkeys(found))


SCALAR_MAKERS = frozenset({"array", "asarray", "int8", "int16", "int32", "int64", "uint8", "uint32"})


def _scalar_constant(ctx: Context, argument: ast.expr) -> bool:
    """Whether ``argument`` names a JAX scalar made from a number where it is bound once
    (``REPEATS = jnp.int32(3)``): measured per parameter on 0-d constants only (``jnp.repeat``
    takes a constant array of counts)."""
    if not isinstance(argument, ast.Name):
        return False
    owner = ctx.scope.lookup(argument.id)
    value = None if owner is None else owner.single_value(argument.id)
    if (
        owner is None
        or not isinstance(value, ast.Call)
        or len(value.args) != 1
        or not isinstance(value.args[0], ast.Constant)
    ):
        return False
    qualname = ctx.model.qualname(value.func, owner) or ""
    module, _, name = qualname.rpartition(".")
    return module == "jax.numpy" and name in SCALAR_MAKERS and isinstance(value.args[0].value, int)


def _array_held_by(ctx: Context, culprit: ast.expr, name: str | None) -> str | None:
    """``batch.value`` in ``culprit``, a field or item of ``name`` known to be a JAX array (its
    pytree class declares it so): ``name`` holds an array, and cannot be static ("Non-hashable
    static arguments are not supported")."""
    for node in ast.walk(culprit):
        if not isinstance(node, (ast.Attribute, ast.Subscript)):
            continue
        root = node.value
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if not isinstance(root, ast.Name) or root.id != name:
            continue
        if is_jax_array(ctx.value(node)):
            return snippet(ctx, node)
        if isinstance(node, ast.Attribute) and node.value is root:
            sibling = _array_field_beside(ctx, node.attr)
            if sibling is not None:
                return f"{name}.{sibling}"
    return None


def _array_field_beside(ctx: Context, attr: str) -> str | None:
    """A field declared a JAX array in a pytree class of the module that declares ``attr``
    (``tokens: jax.Array`` beside ``n_pad: int``): an instance holds an array, so it is not
    hashable, and cannot be static."""
    for pytree in ctx.model.pytree_fields.classes.values():
        if attr in pytree.fields:
            arrays = (f for f in pytree.fields if is_jax_array(traced_field(ctx.model, pytree, f)))
            found = next(arrays, None)
            if found is not None:
                return found
    return None


def _python_sequence(ctx: Context, node: ast.Subscript) -> bool:
    base = ctx.value(node.value)
    return is_container(base) or (is_static(base) and not is_jax_array(base))


# Index tricks that build an array from a slice: they ask for concrete bounds (measured, JAX 0.10.2).
INDEX_TRICKS = frozenset({"jax.numpy.mgrid", "jax.numpy.ogrid", "jax.numpy.r_", "jax.numpy.c_"})


def _slicing_outcome(ctx: Context, node: ast.Subscript) -> str:
    trick = ctx.qualname(node.value)
    if trick in INDEX_TRICKS:
        short = trick.replace("jax.numpy.", "jnp.")
        return f"`{short}` needs concrete slice bounds, so JAX raises `ConcretizationTypeError`"
    if _python_sequence(ctx, node):  # a list slice asks the tracer for `__index__`
        return "Python slicing needs concrete integers, so JAX raises `TracerIntegerConversionError`"
    return "slice sizes must be static under jit, so JAX raises `IndexError`"


def _window(ctx: Context, node: ast.Subscript) -> DynamicSliceWindow | None:
    """``x[start:start + size]`` read from an array, with a static ``size``: a fixed-size window
    at a traced offset, which ``lax.dynamic_slice_in_dim`` expresses. Not a store, an ``.at[]``
    update or a Python sequence: those have no ``dynamic_slice_in_dim`` form."""
    if not isinstance(node.ctx, ast.Load) or _python_sequence(ctx, node):
        return None
    if isinstance(node.value, ast.Attribute) and node.value.attr == "at":
        return None
    part = node.slice
    if not isinstance(part, ast.Slice) or part.step is not None or part.lower is None:
        return None
    upper = part.upper
    if not (isinstance(upper, ast.BinOp) and isinstance(upper.op, ast.Add)):
        return None
    lower = ast.dump(part.lower)
    for start, size in ((upper.left, upper.right), (upper.right, upper.left)):
        if ast.dump(start) == lower and is_static(ctx.value(size)):
            return DynamicSliceWindow(part.lower, size)
    return None


def _masked_prefix(ctx: Context, node: ast.Subscript) -> MaskedPrefix | None:
    """``x[:n]`` (or ``x[0:n]``) with a traced ``n``, read from an array whose every use is a sum:
    zeros in place of the rows past ``n`` leave the sum alone. ``x`` is written twice, so it must
    be a path or a computation of ``jax.numpy``/``lax`` (pure, and drawing no key)."""
    part = node.slice
    if not isinstance(node.ctx, ast.Load) or not isinstance(part, ast.Slice) or part.upper is None:
        return None
    if part.step is not None or not (part.lower is None or _literal_zero(part.lower)):
        return None
    if _python_sequence(ctx, node) or not _repeatable(ctx, node.value):
        return None
    if reduced_by(node, ctx) != "sum":
        return None
    return MaskedPrefix(node.value, part.upper)


def _literal_zero(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


PURE_MODULES = ("jax.numpy.", "jax.lax.")
REPEATABLE_NODES = (
    *(ast.Name, ast.Attribute, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.keyword),
    *(ast.operator, ast.unaryop, ast.expr_context),
)


def _repeatable(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` computes the same value if written twice: names, fields, constants,
    arithmetic and calls of ``jax.numpy``/``lax`` functions (no ``.at``, no key drawn)."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            qualname = ctx.qualname(node.func) or ""
            if not qualname.startswith(PURE_MODULES):
                return False
        elif not isinstance(node, REPEATABLE_NODES):
            return False
        if isinstance(node, ast.Attribute) and node.attr == "at":
            return False
    return True


def _made_optional_by(ctx: Context, call: ast.Call, name: str) -> str | None:
    """The keyword, with the value, that lets ``call``'s parameter ``name`` be traced
    (``assume_unique_indices=True``, ``strip_zeros=False``)."""
    params = concrete_parameters(ctx.qualname(call.func) or "")
    parameter = None if params is None else params.find(keyword=name)
    if parameter is None or not parameter.unless:
        return None
    keyword = parameter.unless[0]
    return f"{keyword}={dict(parameter.lifting_flags).get(keyword, True)}"


def _needs_concrete(parameter: ConcreteParameter | None, call: ast.Call | None = None) -> bool:
    """Whether ``parameter`` must be concrete in ``call``. One that takes a traced array as well
    as a concrete int (``bins`` of ``jnp.histogram``) is left alone: a tracer there may well be
    an array. One another keyword makes optional must be concrete where the call does not pass
    that keyword (``obj`` of ``jnp.delete`` without ``assume_unique_indices``); where the remedy
    is to pass a size (``repeats`` of ``jnp.repeat``: ``total_repeat_length``) it is JAX402's."""
    if parameter is None or parameter.array_ok:
        return False
    if not parameter.unless:
        return True
    if call is None or any(unless in SIZE_KEYWORDS for unless in parameter.unless):
        return False
    return not any(k.arg is None or k.arg in parameter.unless for k in call.keywords)


def _concrete_here(
    ctx: Context, parameter: ConcreteParameter | None, call: ast.Call, argument: ast.expr
) -> bool:
    """Whether ``parameter`` must be concrete in ``call`` (:func:`_needs_concrete`), or takes a
    traced array as well as a concrete int and is given an int: every value ``argument`` can hold
    is written as a Python int (``hist_fn(scores, 5)`` for ``bins=n_bins``), which ``jit`` made
    a traced scalar."""
    if _needs_concrete(parameter, call):
        return True
    if parameter is None or not parameter.array_ok:
        return False
    found = origins(ctx, argument, ctx.scope)
    return bool(found) and all(_python_int(expr) for expr, _ in found)  # pyright: ignore[reportOptionalIterable]


def _python_int(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) is int


def _needs_concrete_here(parameter: ConcreteParameter | None, argument: ast.expr) -> bool:
    """Whether a traced ``argument`` raises for ``parameter``: one that must always be
    concrete, or one that takes an array or a count (``x`` of ``jax.random.permutation``) given
    a Python int, which it turns into a shape."""
    if parameter is not None and parameter.array_ok:
        return isinstance(argument, ast.Constant) and type(argument.value) is int
    return _needs_concrete(parameter)


def _first_traced(ctx: Context, candidates: list[ast.expr]) -> ast.expr | None:
    for candidate in candidates:
        if isinstance(candidate, ast.Starred):
            candidate = candidate.value
        if is_traced(ctx.value(candidate)):
            return candidate
    return None
