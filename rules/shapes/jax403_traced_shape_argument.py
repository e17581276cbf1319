"""JAX403: a traced value used as a shape, size, length, count or slice bound."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import MarkStatic
from jaxlint.semantic.tracing import static_positions
from jaxlint.semantic.transforms import COMPILING_TRANSFORMS
from jaxlint.semantic.values import LibraryRef, is_container, is_jax_array, is_static, is_traced

from ..support.explain import jit_parameter, snippet, traced_name, why_traced

ALL_POSITIONS = -1


@dataclass(frozen=True)
class DynamicSliceWindow(FixRequest):
    """``x[start:start + size]`` with a static ``size`` -> ``lax.dynamic_slice_in_dim(x, start, size)``."""

    start: ast.expr
    size: ast.expr


def _random(position: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    return (position,), ("shape",)


# callee -> (argument positions, keyword names) that must be static
SHAPE_ARGUMENTS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.numpy.zeros": ((0,), ("shape",)),
    "jax.numpy.ones": ((0,), ("shape",)),
    "jax.numpy.empty": ((0,), ("shape",)),
    "jax.numpy.full": ((0,), ("shape",)),
    "jax.numpy.zeros_like": ((2,), ("shape",)),
    "jax.numpy.ones_like": ((2,), ("shape",)),
    "jax.numpy.empty_like": ((2,), ("shape",)),
    "jax.numpy.full_like": ((3,), ("shape",)),
    "jax.numpy.eye": ((0, 1), ("N", "M")),
    "jax.numpy.identity": ((0,), ("n",)),
    "jax.numpy.tri": ((0, 1), ("N", "M")),
    "jax.numpy.arange": ((ALL_POSITIONS,), ("start", "stop", "step")),
    "jax.numpy.linspace": ((2,), ("num",)),
    "jax.numpy.logspace": ((2,), ("num",)),
    "jax.numpy.geomspace": ((2,), ("num",)),
    "jax.numpy.tile": ((1,), ("reps",)),
    "jax.numpy.broadcast_to": ((1,), ("shape",)),
    "jax.numpy.reshape": ((1,), ("shape", "newshape")),
    "jax.numpy.resize": ((1,), ("new_shape",)),
    "jax.numpy.indices": ((0,), ("dimensions",)),
    "jax.numpy.split": ((1,), ("indices_or_sections",)),
    "jax.numpy.array_split": ((1,), ("indices_or_sections",)),
    "jax.numpy.pad": ((1,), ("pad_width",)),
    "jax.numpy.triu_indices": ((0,), ("n",)),
    "jax.numpy.tril_indices": ((0,), ("n",)),
    "jax.lax.iota": ((1,), ("size",)),
    "jax.lax.full": ((0,), ("shape",)),
    "jax.lax.full_like": ((3,), ("shape",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.lax.broadcast_in_dim": ((1,), ("shape",)),
    "jax.lax.reshape": ((1,), ("new_sizes",)),
    "jax.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "jax.lax.dynamic_slice_in_dim": ((2,), ("slice_size",)),
    "jax.lax.slice": ((1, 2, 3), ("start_indices", "limit_indices", "strides")),
    "jax.lax.slice_in_dim": ((1, 2, 3), ("start_index", "limit_index", "stride")),
    "jax.lax.pad": ((2,), ("padding_config",)),
    "jax.random.normal": _random(1),
    "jax.random.uniform": _random(1),
    "jax.random.randint": _random(1),
    "jax.random.bits": _random(1),
    "jax.random.gumbel": _random(1),
    "jax.random.exponential": _random(1),
    "jax.random.laplace": _random(1),
    "jax.random.logistic": _random(1),
    "jax.random.cauchy": _random(1),
    "jax.random.rademacher": _random(1),
    "jax.random.maxwell": _random(1),
    "jax.random.bernoulli": _random(2),
    "jax.random.choice": _random(2),
    "jax.random.gamma": _random(2),
    "jax.random.dirichlet": _random(2),
    "jax.random.poisson": _random(2),
    "jax.random.t": _random(2),
    "jax.random.chisquare": _random(2),
    "jax.random.geometric": _random(2),
    "jax.random.lognormal": _random(2),
    "jax.random.pareto": _random(2),
    "jax.random.wald": _random(2),
    "jax.random.categorical": _random(3),
    "jax.random.truncated_normal": _random(3),
    "jax.random.beta": _random(3),
    "jax.random.multivariate_normal": _random(3),
    "jax.random.binomial": _random(3),
    "jax.random.weibull_min": _random(3),
    "jax.random.double_sided_maxwell": _random(3),
    "jax.random.triangular": _random(4),
}
ARRAY_SHAPE_METHODS = frozenset({"reshape", "broadcast_to"})


class TracedShapeArgument(Rule):
    """## What it does
    Finds a traced value used where JAX needs a static Python integer: the shape of
    `jnp.zeros`/`ones`/`full`/`empty`/`eye`, the bounds of `jnp.arange`, `num` of `linspace`,
    the shape of `jax.random` samplers, `x.reshape(n, -1)`, `lax.dynamic_slice` sizes, and slice
    bounds such as `x[:n]`.

    ## Why is this bad?
    Array shapes are part of what `jit` compiles; they must be known while tracing. A traced
    argument has no concrete value then, so JAX raises `jax.errors.ConcretizationTypeError`
    ("Shapes must be 1D sequences of concrete values of integer type"), or an `IndexError` for
    slices. Compute sizes from shapes (`x.shape[0]`, which stay static), mark the argument static
    with `static_argnames`, or keep a fixed size and mask (`lax.dynamic_slice`, `jnp.where`).

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
    `static_argnames` (turning `@jax.jit` into `@functools.partial(jax.jit, static_argnames=...)`).
    Unsafe: callers must then pass a hashable Python value, and each distinct value compiles
    anew.

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
    message = "A traced value is used as a shape, size or slice bound, which must be static"
    outcome = "jax.errors.ConcretizationTypeError (IndexError for slice bounds)"
    fix_title = "Mark the argument static with `static_argnames`"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        library = ctx.model.transformed_library_calls.get(node)
        if library is not None:
            self.check_transformed_library(node, library, ctx)
        if not ctx.abstract:
            return
        culprit = self.traced_shape(node, ctx)
        if culprit is None:
            return
        name = traced_name(ctx, culprit)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` takes a shape or size from traced `{snippet(ctx, culprit)}`: "
            f"shapes must be static under jit, so JAX raises `ConcretizationTypeError` "
            f"({why_traced(ctx, culprit)}); {self.advice(ctx, name)}",
            fix=self.mark_static(ctx, name),
        )

    def check_transformed_library(self, node: ast.Call, library: LibraryRef, ctx: Context) -> None:
        """``jax.jit(jnp.zeros)(n)``: jit traces every argument of the library function, so a
        parameter that must be static gets a tracer (unless ``static_argnums`` names it)."""
        spec = SHAPE_ARGUMENTS.get(library.qualname)
        jits = [layer for layer in library.layers if layer.transform in COMPILING_TRANSFORMS]
        if spec is None or not jits:
            return
        static = static_positions(jits[-1].call)
        if static is None:
            return
        positions, keywords = spec
        traced = [
            argument
            for position, argument in enumerate(node.args)
            if position not in static and (ALL_POSITIONS in positions or position in positions)
        ]
        traced += [k.value for k in node.keywords if k.arg in keywords]
        if not traced or any(isinstance(a, ast.Starred) for a in node.args):
            return
        short = library.qualname.replace("jax.numpy.", "jnp.").replace("jax.lax.", "lax.")
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` calls `{short}` through `jax.jit`, which traces every argument, "
            f"but `{snippet(ctx, traced[0])}` is a shape or size that must be static: JAX raises when "
            f"tracing it; pass it with `static_argnums` on the `jax.jit`, or call `{short}` without jit",
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
            ctx.report(
                node,
                f"slice bound `{snippet(ctx, bound)}` in `{snippet(ctx, node)}` is traced: "
                f"{_slicing_outcome(ctx, node)} ({why_traced(ctx, bound)}); "
                f"{self.advice(ctx, name, slicing=True)}",
                fix=_window(ctx, node) or self.mark_static(ctx, name),
            )
            return

    def traced_shape(self, node: ast.Call, ctx: Context) -> ast.expr | None:
        qualname = ctx.qualname(node.func)
        if qualname is None:
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in ARRAY_SHAPE_METHODS
                and (is_jax_array(ctx.value(func.value)) or is_traced(ctx.value(func.value)))
            ):
                return _first_traced(ctx, [*node.args, *(k.value for k in node.keywords)])
            return None
        spec = SHAPE_ARGUMENTS.get(qualname)
        if spec is None:
            return None
        positions, keywords = spec
        if ALL_POSITIONS in positions:
            candidates = list(node.args)
        else:
            candidates = [node.args[p] for p in positions if p < len(node.args)]
        candidates += [kw.value for kw in node.keywords if kw.arg in keywords]
        return _first_traced(ctx, candidates)

    def static_candidate(self, ctx: Context, name: str | None) -> str | None:
        return jit_parameter(ctx, name)

    def mark_static(self, ctx: Context, name: str | None) -> MarkStatic | None:
        param = self.static_candidate(ctx, name)
        return MarkStatic(param) if param else None

    def advice(self, ctx: Context, name: str | None, slicing: bool = False) -> str:
        if self.static_candidate(ctx, name):
            extra = " or use `jax.lax.dynamic_slice`" if slicing else ""
            return f"mark `{name}` static with `static_argnames`{extra}"
        if slicing:
            return "use `jax.lax.dynamic_slice` with a static size"
        return "derive the size from static shapes (`x.shape`) or make it a static argument"


def _python_sequence(ctx: Context, node: ast.Subscript) -> bool:
    base = ctx.value(node.value)
    return is_container(base) or (is_static(base) and not is_jax_array(base))


def _slicing_outcome(ctx: Context, node: ast.Subscript) -> str:
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


def _first_traced(ctx: Context, candidates: list[ast.expr]) -> ast.expr | None:
    for candidate in candidates:
        if isinstance(candidate, ast.Starred):
            candidate = candidate.value
        if is_traced(ctx.value(candidate)):
            return candidate
    return None
