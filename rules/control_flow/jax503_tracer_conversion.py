"""JAX503: a traced value converted to a Python value (``int()``, ``.item()``, ``and``, indexing)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf, container_display
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import FailureRewrite, JaxNumpyFunction, NumpyAtTraceTime
from jaxlint.semantic import api
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.measured import python_tracer_error, python_value_error
from jaxlint.semantic.transforms import CONCRETE, NONE, STAGED
from jaxlint.semantic.values import (
    Value,
    is_container,
    is_jax_array,
    is_mapping,
    is_mask,
    is_static,
    is_traced,
    is_traced_array,
    is_traced_leaf,
    iterated,
)

from ..support.blocks import parents
from ..support.caching import cache_decorator
from ..support.callsites import passes_a_string
from ..support.explain import (
    in_test_position,
    index_snippet,
    runs_only_traced,
    safe_where_it_always_failed,
    snippet,
    why_traced,
)
from ..support.handlers import caught_here
from ..support.library import jitted_library_call
from ..support.staging import computed_by_numpy, numpy_advice
from .conditions import bool_error, converts_tracer

BUILTIN_CONVERSIONS = {
    "builtins.bool": "TracerBoolConversionError",
    "builtins.int": "ConcretizationTypeError",
    "builtins.float": "ConcretizationTypeError",
    "builtins.complex": "ConcretizationTypeError",
    "builtins.hex": "TracerIntegerConversionError",
    "builtins.oct": "TracerIntegerConversionError",
    "builtins.bin": "TracerIntegerConversionError",
    "builtins.chr": "TracerIntegerConversionError",
    "operator.index": "TracerIntegerConversionError",
}
NUMPY_SCALAR_TYPES = (
    "bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 "
    "complex64 complex128 intc intp uintp single double longlong half"
)
NUMPY_CONVERSIONS = frozenset(
    {"numpy.asarray", "numpy.array", "numpy.asanyarray", "numpy.ascontiguousarray", "numpy.copy"}
    | {f"numpy.{name}" for name in NUMPY_SCALAR_TYPES.split()}
)
# builtins that call `bool()` on each element of their one argument (`sorted` through `<`),
# with the `jax.numpy` function that computes the same on an array
ELEMENT_TRUTHS = {"builtins.any": "any", "builtins.all": "all", "builtins.sorted": "sort"}
METHOD_CONVERSIONS = {
    "item": "ConcretizationTypeError",
    "tolist": "ConcretizationTypeError",
    "tobytes": "ConcretizationTypeError",
}


# What a JVP tracer (under a bare `jax.grad`: its primal value is concrete) still rejects, measured
# with JAX 0.10.2: `float()`, `complex()`, `math.*`, `.tolist()` (ConcretizationTypeError) and NumPy
# conversions (TracerArrayConversionError); `bool()`, `int()`, `.item()`, `max`, `if` all work.
# (``statistics`` and ``heapq`` functions are reported under a bare grad only where measured to raise)
RAISES_ON_JVP_TRACERS = (
    "float(",
    "complex(",
    "math.",
    "np.",
    ".tolist(",
    ".tobytes(",
    "statistics.",
    "heapq.",
)
# Python orderings whose `key=` results are compared with each other
KEYED_ORDERINGS = frozenset(
    {"builtins.max", "builtins.min", "builtins.sorted", "heapq.nlargest", "heapq.nsmallest"}
)
# measured Python functions whose sequence is their second argument (`heapq.nlargest(n, xs)`)
TAKE_A_COUNT = frozenset({"heapq.nlargest", "heapq.nsmallest"})
PREDICATE_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in api.PREDICATE_TAKERS)


@dataclass(frozen=True)
class ElementwiseFunction(FailureRewrite):
    """``max(a, b)`` -> ``jnp.maximum(a, b)``; ``a and b`` -> ``jnp.logical_and(a, b)``;
    ``not a`` -> ``jnp.logical_not(a)``: the operands, folded left by ``function``."""

    function: str  # a jax.numpy function of two arguments (one for `logical_not`)
    operands: tuple[ast.expr, ...]


@dataclass(frozen=True)
class UnwrapBool(FixRequest):
    """``if bool(x):`` -> ``if x:``: a condition calls ``bool`` anyway. The ``if`` on a tracer
    that remains is JAX501's, whose fix rewrites the branch."""

    operand: ast.expr
    condition: bool = True  # False: a comparison outside a condition keeps its boolean array


@dataclass(frozen=True)
class AsDtype(FixRequest):
    """``int(x)`` -> ``x.astype(int)`` (``float``, ``complex``, ``bool`` alike): JAX converts only
    0-d arrays with these, so the array keeps the value and the shape; ``bool(x < y)`` -> ``x < y``."""

    operand: ast.expr
    dtype: str


@dataclass(frozen=True)
class SingleElement(FixRequest):
    """``x.item()`` -> ``x.reshape(())``: the one element of a size-1 array, as a 0-d array."""

    operand: ast.expr


@dataclass(frozen=True)
class IsIn(FixRequest):
    """``x in {3, 7}`` -> ``jnp.isin(x, jnp.array([3, 7]))`` (``not in``: ``~jnp.isin(...)``); a
    name bound once to a set of numbers: ``jnp.array(sorted(NAME))``."""

    item: ast.expr
    collection: ast.expr
    negated: bool


ConversionFix = (
    ElementwiseFunction | UnwrapBool | AsDtype | SingleElement | JaxNumpyFunction | IsIn | NumpyAtTraceTime
)
# NumPy conversions whose `jax.numpy` namesake (or nearest form) computes the same on a tracer;
# not the 64-bit types, which JAX truncates to 32 bits (with a warning) unless x64 is enabled.
JAX_NUMPY_FORMS = {"asanyarray": "asarray", "ascontiguousarray": "asarray"} | {
    name: name
    for name in (
        "asarray array copy bool_ int8 int16 int32 uint8 uint16 uint32 float16 float32 complex64 single"
    ).split()
}


class TracerConversion(Rule):
    """## What it does
    Finds a traced value turned into a Python value inside code JAX traces abstractly:
    `bool()`, `int()`, `float()`, `complex()`, `.item()`, `.tolist()`, `np.asarray()` /
    `np.array()` and NumPy scalar types (`np.float32(x)`), `math.*` functions, the built-in `max`/`min` on tracers,
    `any`/`all`/`sorted` over a traced array (each element's truth is asked), a tracer passed to
    a `functools.lru_cache`d function (it hashes its arguments), a tracer used as the
    index of a Python list or tuple, and `and` / `or` / `not` / chained comparisons applied to
    tracers outside an `if` condition. A conversion compiled with `jax.jit` (`jax.jit(float)(x)`,
    `jax.jit(math.sqrt)(x)`) is the same: `jit` traces every argument it does not mark static.
    Also Python's own functions of numbers given a traced vector (`statistics.median`,
    `heapq.nlargest`, a `key=` of `max`/`min`/`sorted` returning tracers: which ones raise is
    measured by `tools/measure_jax_api.py`), a tracer or JAX array looked up in a set or dict
    (`label in {3, 7}`, `RATES.get(step)`, `hash(x)`: it has no hash), and a Python list or
    tuple repeated by a JAX array (`[0.0] * n_pad`).

    ## Why is this bad?
    A tracer stands for any value of its shape and dtype; it has no concrete value while JAX
    traces. Converting it raises: `ConcretizationTypeError` for `int`/`float`/`.item()`,
    `TracerBoolConversionError` for `bool` (which `and`, `or`, `not`, `max` and `a < x < b` call
    implicitly), `TracerIntegerConversionError` for `__index__` (Python indexing), and
    `TracerArrayConversionError` for NumPy conversions. Stay in `jnp`: `x.astype(jnp.int32)`,
    `jnp.logical_and`, `jnp.maximum`, array indexing, or make the value static.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def hinge(margin, scores):
        loss = max(1.0 - margin, 0.0)
        return loss * scores
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def hinge(margin, scores):
        loss = jnp.maximum(1.0 - margin, 0.0)
        return loss * scores
    ```

    ## Fix safety
    `bool(x)` as a condition becomes `x` (safe: the condition calls `bool` anyway; the `if` on a
    tracer that remains is JAX501's to rewrite). The built-in `max`/`min` of two or more values
    become `jnp.maximum`/`jnp.minimum`, and
    `and`/`or`/`not` outside a condition become `jnp.logical_and`/`logical_or`/`logical_not`.
    Safe where the function only ever runs traced (the call raised on every run), for `and`/`or`
    only when every operand is a boolean (a comparison, a mask). Elsewhere unsafe: `jnp.maximum`
    propagates NaN where `max` keeps its first argument, and `a or b` gave one of its operands
    where `jnp.logical_or` gives a boolean array. The conversions keep the
    value an array: `int(x)` becomes `x.astype(int)` (`float`, `complex` and `bool` alike;
    `bool(x < y)` becomes `x < y`), `x.item()` becomes `x.reshape(())`; unsafe, because a Python
    scalar is weakly typed and a 0-d array is not (`float(x) * bf16_array` stays bfloat16,
    `x.astype(float) * bf16_array` becomes float32). They are offered only where the value meets
    array arithmetic (an operand, a comparison, the index of a JAX array, a `jnp` argument that
    is not a shape, a returned value), directly or through the one name it is assigned to: a
    value wanted as a Python index, a shape or a count cannot be an array (make it static).
    `np.asarray(x)`, `np.array(x)`, the 32-bit NumPy scalar types, and `any(x)`/`all(x)` of an
    array (not of a generator) become their `jax.numpy` namesakes: safe in a function that only ever runs traced (the call always raised there),
    unsafe elsewhere. `.tolist()`, `math.*` and 64-bit NumPy types get no fix. A list repeated
    by a count that `jnp` computes from constants (`c = jnp.arange(4).sum() // 2`) gets that
    count computed with NumPy, a Python value while tracing (unsafe: NumPy's dtypes differ).

    ## References
    - [jax.errors.ConcretizationTypeError](https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError)
    - [jax.errors.TracerArrayConversionError](https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerArrayConversionError)
    - [jax.errors.TracerIntegerConversionError](https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerIntegerConversionError)
    """

    code = "JAX503"
    traced_only = True
    visits_anywhere = frozenset({ast.Call})  # `jax.jit(<library function>)(x)`
    name = "tracer-conversion"
    message = "A traced value is converted to a Python value"
    outcome = "ConcretizationTypeError / TracerBoolConversionError / TracerIntegerConversionError"
    fix_title = "Use the elementwise `jnp` function"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        self.check_jitted_library(node, ctx)
        if not ctx.traced:
            return
        self.check_cached_call(node, ctx)
        if self.check_hashing_call(node, ctx) or self.check_value_function(node, ctx):
            return
        if self.check_enum_lookup(node, ctx) or self.check_predicate(node, ctx):
            return
        found = self.conversion(node, ctx)
        if found is None or (not ctx.abstract and not found[0].startswith(RAISES_ON_JVP_TRACERS)):
            return  # under a bare grad, `bool`/`int`/`.item()` read the value a JVP tracer carries
        what, error, culprit = found
        if caught_here(ctx, node, error):
            return  # a probe: the code asks whether the value is concrete
        if not is_traced(ctx.value(culprit)):  # a concrete JAX array, compared under jit
            name = what.split("(")[0]
            ctx.report(
                node,
                f"`{what}` compares `{snippet(ctx, culprit)}`, a JAX array: under `jit` the comparison "
                f"is staged and gives a tracer, so JAX raises `{error}`; use `jnp.{name}imum`",
                fix=_extremum(node, ctx),
            )
            return
        raised = bool_error(ctx, culprit) if error == "TracerBoolConversionError" else f"`{error}`"
        ctx.report(
            node,
            f"`{what}` needs a concrete value but `{snippet(ctx, culprit)}` is traced: JAX raises "
            f"{raised} ({why_traced(ctx, culprit)}); keep it an array (`jnp`), or make it static",
            fix=_extremum(node, ctx) or _redundant_bool(node, ctx) or _array_form(node, ctx),
        )

    def check_predicate(self, node: ast.Call, ctx: Context) -> bool:
        """``itertools.takewhile(lambda p: p[0] != EOS, pairs)`` over traced elements: it takes
        the truth of each result, a tracer, so JAX raises ``TracerBoolConversionError``."""
        if not ctx.abstract or len(node.args) != 2 or callee_leaf(node) not in PREDICATE_LEAVES:
            return False
        qualname = ctx.qualname(node.func)
        found = (
            ctx.model.resolve_function(node.args[0], ctx.scope) if qualname in api.PREDICATE_TAKERS else None
        )
        if found is None or not is_traced(found[0].returns) or found[0].level == NONE:
            return False
        name = qualname.removeprefix("builtins.")  # pyright: ignore[reportOptionalMemberAccess]
        ctx.report(
            node,
            f"`{name}` takes the truth of what `{found[0].name}` returns for each element of "
            f"`{snippet(ctx, node.args[1])}`, a tracer here ({why_traced(ctx, node.args[1])}): JAX raises "
            f"`TracerBoolConversionError`; compute a mask with `jnp` and use it instead",
        )
        return True

    def check_enum_lookup(self, node: ast.Call, ctx: Context) -> bool:
        """``Phase(phase_id)`` with a traced ``phase_id``, ``Phase`` an ``enum`` class of the
        module: the lookup compares the value with each member's, a tracer's truth value under
        ``jit`` or ``vmap`` (measured with JAX 0.10.2: ``TracerBoolConversionError``; under a
        bare ``grad`` the JVP tracer's value is compared)."""
        if not ctx.abstract or len(node.args) != 1 or node.keywords:
            return False
        enum_class = _enum_class(ctx, node.func)
        value = node.args[0]
        if enum_class is None or not _compares_traced(ctx, ctx.value(value)):
            return False  # (under `jit`, a concrete global array compares to a tracer too)
        if caught_here(ctx, node, "TracerBoolConversionError"):
            return False
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` looks `{snippet(ctx, value)}` up among the members of "
            f"`{enum_class}`, an enum, by comparing it with each member's value: JAX raises "
            f"`TracerBoolConversionError` ({why_traced(ctx, value)}); index an array of what each "
            f"member stands for with it (`jnp.array([...])[{snippet(ctx, value)}]`), or pass the "
            f"member as a static argument",
        )
        return True

    def check_value_function(self, node: ast.Call, ctx: Context) -> bool:
        """``json.dumps(metrics)``, ``struct.pack("<f", loss)``, ``pickle.dumps(state)`` given a
        tracer (or a dict holding one): measured to raise, under ``jit`` and under ``grad``."""
        qualname = ctx.qualname(node.func)
        measured = None if qualname is None else python_value_error(qualname, staged=ctx.abstract)
        if qualname is None or measured is None or len(node.args) <= measured[0]:
            return False
        position, error = measured
        if error == "error":  # `struct.error`, named by its module
            error = f"{qualname.rpartition('.')[0]}.error"
        value = node.args[position]
        if isinstance(value, ast.Starred) or not is_traced(ctx.value(value)) or caught_here(ctx, node, error):
            return False
        ctx.report(
            node,
            f"`{qualname}` cannot take traced `{snippet(ctx, value)}`: it raises `{error}` "
            f"({why_traced(ctx, value)}); return the value from the transformed function and "
            f"call it on the result",
        )
        return True

    def check_hashing_call(self, node: ast.Call, ctx: Context) -> bool:
        """``RATES.get(label)``, ``SEEN.add(label)``, ``hash(label)`` on a tracer or JAX array,
        which has no hash."""
        func, args = node.func, node.args
        if args and not node.keywords and ctx.qualname(func) in ELEMENT_HASHERS:
            return self.check_hashed_elements(node, ctx)
        if not args or isinstance(args[0], ast.Starred) or not _hashless(ctx, args[0]):
            return False
        hashed = snippet(ctx, args[0])
        if isinstance(func, ast.Attribute) and func.attr in HASHING_METHODS:
            collection = hashed_collection(ctx, func.value)
            if collection not in HASHING_METHODS[func.attr]:
                return False
            where = f"`{snippet(ctx, node)}` hashes `{hashed}` ({collection} keys by hash)"
        elif ctx.qualname(func) == "builtins.hash":
            where = f"`{snippet(ctx, node)}` hashes `{hashed}`"
        else:
            return False
        if caught_here(ctx, node, "TypeError"):
            return False
        ctx.report(
            node,
            f"{where}, and {_hashless_description(ctx, args[0])}: this raises `TypeError: unhashable "
            f"type`; make it static, or compute with `jnp` operations",
        )
        return True

    def check_hashed_elements(self, node: ast.Call, ctx: Context) -> bool:
        """``set(row)``, ``collections.Counter(row)`` of a traced array: each row is a tracer,
        hashed to be counted or kept once (measured with JAX 0.10.2: ``TypeError``)."""
        argument = node.args[0]
        if isinstance(argument, (ast.GeneratorExp, ast.ListComp)):
            element = ctx.value(argument.elt)
        else:
            element = iterated(ctx.value(argument))
        if not is_traced_leaf(element) or caught_here(ctx, node, "TypeError"):
            return False
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` hashes each item of traced `{snippet(ctx, argument)}`, and a "
            f"tracer has no hash ({why_traced(ctx, argument)}): this raises `TypeError: unhashable "
            f"type`; count with `jnp` operations (`jnp.unique(..., size=n)`, `jnp.bincount`)",
        )
        return True

    def check_cached_call(self, node: ast.Call, ctx: Context) -> None:
        """``rotation(theta)`` where ``rotation`` is ``functools.lru_cache``d: the cache hashes
        its arguments, and a tracer is unhashable."""
        if not ctx.abstract or not isinstance(node.func, ast.Name):
            return
        found = ctx.model.resolve_function(node.func, ctx.scope)
        target = found[0] if found is not None else None
        if (
            target is None
            or cache_decorator(ctx.model, target.node, target.scope.parent or ctx.scope) is None
        ):
            return
        traced = next(
            (a for a in [*node.args, *(k.value for k in node.keywords)] if is_traced(ctx.value(a))), None
        )
        if traced is None or caught_here(ctx, node, "TypeError"):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` calls `{target.name}`, which `functools` caches by hashing its "
            f"arguments, with traced `{snippet(ctx, traced)}`: a tracer is unhashable, so this raises "
            f"`TypeError` ({why_traced(ctx, traced)}); drop the cache, or pass static values only",
        )

    def check_jitted_library(self, node: ast.Call, ctx: Context) -> None:
        """``jax.jit(float)(x)``: jit traces ``x``, and the conversion needs a concrete value."""
        library = jitted_library_call(ctx, node)
        if library is None or not library.traced(node)[:1] or library.traced(node)[0] is not node.args[0]:
            return
        qualname = library.qualname
        if qualname in BUILTIN_CONVERSIONS:
            error = BUILTIN_CONVERSIONS[qualname]
        elif qualname in NUMPY_CONVERSIONS:
            error = "TracerArrayConversionError"
        elif qualname.startswith("math."):
            error = "ConcretizationTypeError"
        else:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` calls `{library.short}` through `jax.jit`, which traces every "
            f"argument: `{library.short}` needs a concrete value, so JAX raises `{error}`; call it "
            f"without `jax.jit`, or use the `jnp` function",
        )

    def conversion(self, node: ast.Call, ctx: Context) -> tuple[str, str, ast.expr] | None:
        qualname = ctx.qualname(node.func)
        args = node.args
        if qualname in BUILTIN_CONVERSIONS and args and is_traced(ctx.value(args[0])):
            return f"{qualname.rsplit('.', 1)[1]}(...)", BUILTIN_CONVERSIONS[qualname], args[0]
        if qualname in NUMPY_CONVERSIONS and args and is_traced(ctx.value(args[0])):
            return f"np.{qualname.rsplit('.', 1)[1]}(...)", "TracerArrayConversionError", args[0]
        if qualname is not None and qualname.startswith("math.") and args:
            traced = next((a for a in args if is_traced(ctx.value(a))), None)
            if traced is not None:
                return f"{qualname}(...)", "ConcretizationTypeError", traced
        ordered = _traced_order_key(ctx, node) if qualname in KEYED_ORDERINGS else None
        if qualname is not None and ordered is not None:  # `max(range(n), key=lambda i: s[i])`
            return f"{qualname.rsplit('.', 1)[1]}(..., key=...)", "TracerBoolConversionError", ordered
        measured_error = None if qualname is None else python_tracer_error(qualname, staged=ctx.abstract)
        position = 1 if qualname in TAKE_A_COUNT else 0
        if measured_error is not None and qualname not in ELEMENT_TRUTHS and len(args) > position:
            culprit = _truth_tested_elements(ctx, args[position])
            if culprit is not None:  # `statistics.median(row)`: sorts, hashes or converts the items
                return f"{qualname}(...)", measured_error, culprit
        if (
            qualname in ("builtins.max", "builtins.min")
            and args
            and not any(k.arg == "key" for k in node.keywords)
        ):
            # one argument: its items are compared (a dict's keys, never tracers)
            compared = (lambda a: iterated(ctx.value(a))) if len(args) == 1 else (lambda a: ctx.value(a))
            traced = next((a for a in args if _compares_traced(ctx, compared(a))), None)
            if traced is not None:
                name = qualname.rsplit(".", 1)[1]
                return f"{name}(...)", "TracerBoolConversionError", traced
        if qualname == "builtins.filter" and len(args) == 2 and _is_none(args[0]):
            culprit = _truth_tested_elements(ctx, args[1])  # `filter(None, xs)` keeps the true items
            if culprit is not None:
                return "filter(None, ...)", "TracerBoolConversionError", culprit
        if qualname in ELEMENT_TRUTHS and len(args) == 1 and not node.keywords:
            culprit = _truth_tested_elements(ctx, args[0])
            if culprit is not None:
                return f"{qualname.rsplit('.', 1)[1]}(...)", "TracerBoolConversionError", culprit
        if qualname in BISECTIONS and len(args) >= 2 and is_traced_leaf(ctx.value(args[1])):
            return f"{qualname}(...)", "TracerBoolConversionError", args[1]  # `x < a[mid]`
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in SEARCHING_METHODS
            and len(args) == 1
            and is_traced_leaf(ctx.value(args[0]))
            and static_sequence(ctx, func.value)
        ):  # `CLASS_IDS.index(label)`: each item is compared with `==`
            return f"{snippet(ctx, func.value)}.{func.attr}(...)", "TracerBoolConversionError", args[0]
        if (
            qualname is None
            and isinstance(func, ast.Attribute)
            and func.attr in METHOD_CONVERSIONS
            and not args
            and is_traced(ctx.value(func.value))
        ):
            return f".{func.attr}()", METHOD_CONVERSIONS[func.attr], func.value
        return None

    def visit_Subscript(self, node: ast.Subscript, ctx: Context) -> None:
        if not ctx.abstract or isinstance(node.slice, (ast.Slice, ast.Tuple)):
            return
        base = ctx.value(node.value)
        python_container = is_container(base) and not is_jax_array(base)  # (not `split(key, 4)`)
        if not (is_static(base) or python_container) or not is_traced(ctx.value(node.slice)):
            return  # (a list of arrays is no array: `xs[i]` asks the index for a Python int)
        if _string_key(ctx, node.slice):
            return  # a call passes a string there: JAX611 reports it at the call, where JAX raises
        container, error = _indexed(ctx, node.value, base)
        advice = (
            "make the key static"
            if container == "a dict"
            else "make the container an array (`jnp.asarray`) or the index static"
        )
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` indexes {container} with traced `{index_snippet(ctx, node.slice)}`: "
            f"JAX raises {error} ({why_traced(ctx, node.slice)}); {advice}",
        )

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        """``[0.0] * n_pad``: a Python sequence repeated a number of times held by a JAX array
        (measured with JAX 0.10.2: a list or tuple raises ``TypeError`` for any JAX array, a
        string ``TracerIntegerConversionError`` for a tracer)."""
        if not isinstance(node.op, ast.Mult):
            return
        for sequence, count in ((node.left, node.right), (node.right, node.left)):
            kind = _repeated_sequence(ctx, sequence)
            value = ctx.value(count)
            if kind is None:
                continue
            if kind == "a string":
                if not (ctx.abstract and is_traced_leaf(value)):
                    continue
                error = "TracerIntegerConversionError"
                why = f"a string's length must be a Python int ({why_traced(ctx, count)})"
            elif is_traced_leaf(value) or (is_jax_array(value) and not is_container(value)):
                error = "TypeError"
                why = "Python multiplies a sequence by a Python int only, and a JAX array is none" + (
                    f" ({why_traced(ctx, count)})" if is_traced(value) else ""
                )
            else:
                continue
            if caught_here(ctx, node, error):
                return
            host = computed_by_numpy(ctx, count)  # `c = jnp.arange(4).sum() // 2`
            advice = (
                numpy_advice(snippet(ctx, count))
                if host is not None
                else f"make `{snippet(ctx, count)}` static, or build an array of a static size (`jnp.zeros`) "
                f"and mask it"
            )
            ctx.report(
                node,
                f"`{snippet(ctx, node)}` repeats {kind} `{snippet(ctx, count)}` times: {why}, so this "
                f"raises `{error}`; {advice}",
                fix=host,
            )
            return

    def visit_BoolOp(self, node: ast.BoolOp, ctx: Context) -> None:
        if not ctx.abstract or in_test_position(ctx, node) or container_display(node.values[-1]):
            return  # `opts or {}`: the operands are containers (or None), whose truth is their length
        culprit = next((v for v in node.values[:-1] if converts_tracer(ctx, v) is not None), None)
        if culprit is None:
            return
        operator = "and" if isinstance(node.op, ast.And) else "or"
        python_call = _argument_of_python_call(ctx)
        advice = PYTHON_VALUE if python_call else f"use `jnp.logical_{operator}` or `&`/`|` on boolean arrays"
        ctx.report(
            node,
            f"`{operator}` calls `bool()` on traced `{snippet(ctx, culprit)}`: JAX raises "
            f"{bool_error(ctx, culprit)} ({why_traced(ctx, culprit)}); {advice}",
            fix=None if python_call else _logical(f"logical_{operator}", node.values, ctx),
        )

    def visit_UnaryOp(self, node: ast.UnaryOp, ctx: Context) -> None:
        if not isinstance(node.op, ast.Not) or not ctx.abstract or in_test_position(ctx, node):
            return
        if converts_tracer(ctx, node.operand) is None:
            return
        python_call = _argument_of_python_call(ctx)
        advice = PYTHON_VALUE if python_call else "use `jnp.logical_not` or `~`"
        ctx.report(
            node,
            f"`not` calls `bool()` on traced `{snippet(ctx, node.operand)}`: JAX raises "
            f"{bool_error(ctx, node.operand)} ({why_traced(ctx, node.operand)}); {advice}",
            fix=None if python_call else _logical("logical_not", [node.operand], ctx),
        )

    def visit_Compare(self, node: ast.Compare, ctx: Context) -> None:
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            if not self.check_hashed_membership(node, ctx) and ctx.abstract:
                self.check_membership(node, ctx)
            return
        if len(node.ops) < 2 or not ctx.abstract or in_test_position(ctx, node):
            return
        if converts_tracer(ctx, node) is None:
            return
        ctx.report(
            node,
            f"the chained comparison `{snippet(ctx, node)}` calls `bool()` on a traced comparison: "
            f"JAX raises {bool_error(ctx, node)} ({why_traced(ctx, node)}); "
            f"combine the comparisons with `&`",
        )

    def check_hashed_membership(self, node: ast.Compare, ctx: Context) -> bool:
        """``label in {3, 7}``: a set or dict looks its key up by hash, and no tracer has one
        (measured with JAX 0.10.2: `TypeError: unhashable type` under jit, vmap and grad)."""
        collection = hashed_collection(ctx, node.comparators[0])
        if collection is None or not _hashless(ctx, node.left) or caught_here(ctx, node, "TypeError"):
            return False
        item, where = snippet(ctx, node.left), snippet(ctx, node.comparators[0])
        numbers = collection == "a set" and _set_of_numbers(ctx, node.comparators[0])
        fix = IsIn(node.left, node.comparators[0], isinstance(node.ops[0], ast.NotIn)) if numbers else None
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` looks `{item}` up in {collection} by its hash, and "
            f"{_hashless_description(ctx, node.left)}: this raises `TypeError: unhashable type`; "
            + (
                f"use `jnp.isin({item}, jnp.array(sorted({where})))`"
                if collection == "a set"
                else f"make `{item}` static, or look it up with `jnp` operations"
            ),
            fix=fix,
        )
        return True

    def check_membership(self, node: ast.Compare, ctx: Context) -> None:
        """``0 in tokens`` on a traced array: the array's ``__contains__`` compares every element
        and Python asks the truth of the traced answer (measured with JAX 0.10.2). Also
        ``label in CLASS_IDS``, a traced value sought in a Python list or tuple, outside a
        condition (where JAX501 reports it)."""
        array = node.comparators[0]
        value = ctx.value(array)
        if (
            is_traced_leaf(ctx.value(node.left))
            and static_sequence(ctx, array)
            and not in_test_position(ctx, node)
            and not caught_here(ctx, node, "TracerBoolConversionError")
        ):
            ctx.report(
                node,
                f"`{snippet(ctx, node)}` compares traced `{snippet(ctx, node.left)}` with each item of "
                f"`{snippet(ctx, array)}` and Python needs a bool from each comparison: JAX raises "
                f"{bool_error(ctx, node.left)} ({why_traced(ctx, node.left)}); use "
                f"`jnp.isin({snippet(ctx, node.left)}, jnp.array({snippet(ctx, array)}))`",
            )
            return
        if not is_traced_array(value) or is_container(value):
            return
        item = snippet(ctx, node.left)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` asks whether traced array `{snippet(ctx, array)}` holds "
            f"`{item}`: the answer is a tracer and Python needs a bool, so JAX raises "
            f"`TracerBoolConversionError` ({why_traced(ctx, array)}); use "
            f"`jnp.any({snippet(ctx, array)} == {item})`",
        )


# `bisect` compares the value it places with the items of the list, in Python
BISECTIONS = frozenset({"bisect.bisect", "bisect.bisect_left", "bisect.bisect_right", "bisect.insort"})
# methods of a Python list or tuple that compare their argument with each item
SEARCHING_METHODS = frozenset({"index", "count", "remove"})


# methods that hash their first argument, and the collections that have them
HASHING_METHODS = {
    "get": ("a dict",),
    "pop": ("a dict", "a set"),
    "setdefault": ("a dict",),
    "add": ("a set",),
    "discard": ("a set",),
    "remove": ("a set",),
}


def _repeated_sequence(ctx: Context, expr: ast.expr) -> str | None:
    """``a list``, ``a tuple`` or ``a string`` when ``expr`` is one written out, or a name
    bound once to one."""
    expr, _ = ctx.scope.followed(expr, limit=1)
    if isinstance(expr, ast.List):
        return "a list"
    if isinstance(expr, ast.Tuple):
        return "a tuple"
    if isinstance(expr, ast.JoinedStr) or (isinstance(expr, ast.Constant) and isinstance(expr.value, str)):
        return "a string"
    return None


def _set_of_numbers(ctx: Context, expr: ast.expr) -> bool:
    """A set display of number literals, written here or bound once to a name."""
    expr, _ = ctx.scope.followed(expr, limit=1)
    return isinstance(expr, ast.Set) and bool(expr.elts) and all(_literal_layout_number(e) for e in expr.elts)


def _literal_layout_number(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _hashless(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` is one tracer or JAX array, neither of which has a hash (measured with
    JAX 0.10.2: ``TypeError: unhashable type``, traced or concrete)."""
    value = ctx.value(expr)
    return is_traced_leaf(value) or (is_jax_array(value) and not is_container(value))


def _hashless_description(ctx: Context, expr: ast.expr) -> str:
    """Why ``expr`` has no hash, for a message: a tracer (and why it is one), or a JAX array."""
    if is_traced(ctx.value(expr)):
        return f"traced `{snippet(ctx, expr)}` has none ({why_traced(ctx, expr)})"
    return f"`{snippet(ctx, expr)}`, a JAX array, has none"


# built from an iterable by hashing each item
ELEMENT_HASHERS = frozenset(
    {"builtins.set", "builtins.frozenset", "collections.Counter", "builtins.dict.fromkeys"}
)
HASHED_BUILDERS = {"builtins.set": "a set", "builtins.frozenset": "a set", "builtins.dict": "a dict"}


def hashed_collection(ctx: Context, expr: ast.expr) -> str | None:
    """``a set`` or ``a dict`` when ``expr`` is one, written here or bound once to one (a
    display, a comprehension, ``set(...)``, ``frozenset(...)``, ``dict(...)``, or a dict's
    ``.keys()``): it finds a key by hashing it."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "keys":
        return "a dict" if not expr.args and hashed_collection(ctx, expr.func.value) == "a dict" else None
    expr, scope = ctx.scope.followed(expr, limit=1)
    if isinstance(expr, (ast.Set, ast.SetComp)):
        return "a set"
    if isinstance(expr, (ast.Dict, ast.DictComp)):
        return "a dict"
    if isinstance(expr, ast.Call):
        return HASHED_BUILDERS.get(ctx.model.qualname(expr.func, scope) or "")
    return None


def static_sequence(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` is a Python list or tuple holding no tracer: a display, or a name bound
    once to one (a set or dict would hash the tracer instead, which fails otherwise)."""
    value = ctx.value(expr)
    if not is_static(value) or not is_container(value) or is_mapping(value):
        return False
    expr, _ = ctx.scope.followed(expr, limit=1)
    return isinstance(expr, (ast.List, ast.Tuple))


# the advice where the result is handed to a call that wants a Python value, not an array
PYTHON_VALUE = "the call it is passed to wants a Python value: make the operand static (`static_argnames`)"


def _argument_of_python_call(ctx: Context) -> bool:
    """Whether the current node is an argument of a call to something other than JAX (a flax
    module's ``use_running_average=not train``), directly or through a name it is assigned to
    (``use_ra = not train``): it wants a Python bool, which an array is not."""
    if ctx.frame is None:
        return False
    parent, outer = ctx.frame
    while isinstance(parent, ast.IfExp) and outer is not None:  # `a if flag else not train`
        parent, outer = outer
    if (
        isinstance(parent, ast.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Name)
    ):
        return _passed_to_python_call(ctx, parent.targets[0].id)
    if isinstance(parent, ast.keyword) and outer is not None:
        parent = outer[0]
    return isinstance(parent, ast.Call) and not (ctx.qualname(parent.func) or "").startswith("jax.")


def _passed_to_python_call(ctx: Context, name: str) -> bool:
    """Whether the current function passes ``name`` to a call of something other than JAX."""
    function = ctx.function
    body = getattr(function.node, "body", []) if function is not None else []
    for node in own_nodes(body if isinstance(body, list) else [body]):
        if not isinstance(node, ast.Call) or (ctx.qualname(node.func) or "").startswith("jax."):
            continue
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if any(isinstance(a, ast.Name) and a.id == name for a in arguments):
            return True
    return False


def _truth_tested_elements(ctx: Context, argument: ast.expr) -> ast.expr | None:
    """What ``any``/``all``/``sorted`` call ``bool()`` on, element by element, when that is a
    tracer: the rows of a traced array (``any(x > 5)``), the items of a comprehension."""
    if isinstance(argument, (ast.GeneratorExp, ast.ListComp)):
        element, culprit = ctx.value(argument.elt), argument.elt
    else:
        element, culprit = iterated(ctx.value(argument)), argument
    return culprit if _compares_traced(ctx, element) and not is_container(element) else None


def _traced_order_key(ctx: Context, node: ast.Call) -> ast.expr | None:
    """The result of a ``key=lambda ...`` of ``max``/``min``/``sorted`` when it is traced (under
    an abstract trace: a JVP tracer compares by its value), which Python compares."""
    key = next((k.value for k in node.keywords if k.arg == "key"), None)
    if not isinstance(key, ast.Lambda) or not ctx.abstract:
        return None
    scope = ctx.model.index.scopes.get(key)
    if scope is None:
        return None
    value = ctx.model.value(key.body, scope)
    return key.body if is_traced(value) and not is_container(value) else None


def _compares_traced(ctx: Context, value: Value) -> bool:
    """Whether comparing ``value`` (as the built-in ``max``/``min`` do) gives a tracer: a traced
    value, or under ``jit`` any JAX array, even a concrete global (JAX stages every operation)."""
    return is_traced(value) or (is_jax_array(value) and ctx.level >= STAGED)


def _extremum(node: ast.Call, ctx: Context) -> ElementwiseFunction | None:
    """``max(a, b, ...)`` of two or more plain arguments -> ``jnp.maximum`` (``min``: ``minimum``)."""
    qualname = ctx.qualname(node.func)
    if qualname not in ("builtins.max", "builtins.min") or len(node.args) < 2 or node.keywords:
        return None
    if any(isinstance(a, ast.Starred) for a in node.args):
        return None
    function = "maximum" if qualname == "builtins.max" else "minimum"
    return safe_where_it_always_failed(ctx, ElementwiseFunction(function, tuple(node.args)), node)


def _logical(function: str, operands: list[ast.expr], ctx: Context) -> ElementwiseFunction:
    """``a and b`` -> ``jnp.logical_and(a, b)``: safe where it always failed and every operand
    is a boolean (a comparison, a mask), of which ``and`` gives what ``logical_and`` gives."""
    plan = ElementwiseFunction(function, tuple(operands))
    if not all(_boolean(operand, ctx) for operand in operands):
        return plan
    return safe_where_it_always_failed(ctx, plan, operands[0])


def _boolean(expr: ast.expr, ctx: Context) -> bool:
    """Whether ``expr`` is a boolean: a comparison, ``not``, ``and``/``or`` of booleans, a mask."""
    if isinstance(expr, ast.Compare) or (isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not)):
        return True
    if isinstance(expr, ast.BoolOp):
        return all(_boolean(value, ctx) for value in expr.values)
    return is_mask(ctx.value(expr))


def _redundant_bool(node: ast.Call, ctx: Context) -> UnwrapBool | None:
    """``bool(x)`` that is itself a condition (``if bool(x):``): the call adds nothing."""
    if ctx.qualname(node.func) != "builtins.bool" or len(node.args) != 1 or node.keywords:
        return None
    if isinstance(node.args[0], ast.Starred) or not in_test_position(ctx, node):
        return None
    return UnwrapBool(node.args[0])


def _array_form(node: ast.Call, ctx: Context) -> ConversionFix | None:
    """The array that the conversion would have made a Python (or NumPy) value of: ``int(x)`` ->
    ``x.astype(int)``, ``x.item()`` -> ``x.reshape(())``, ``np.asarray(x)`` -> ``jnp.asarray(x)``."""
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    qualname = ctx.qualname(node.func)
    builtin = qualname in ("builtins.int", "builtins.float", "builtins.complex", "builtins.bool")
    if ((builtin and len(node.args) == 1) or _is_item(node, qualname)) and not _feeds_arrays(node, ctx):
        return None  # wanted as a Python index, a shape or a count: an array cannot serve
    if builtin and len(node.args) == 1:
        operand = node.args[0]
        if ctx.function is not None and ctx.function in ctx.model.custom_derivatives:
            return None  # traced only under a staging caller: eagerly its arguments stay Python values
        if qualname == "builtins.bool" and _gives_bool(operand):
            return UnwrapBool(operand, condition=False)
        return AsDtype(operand, qualname.removeprefix("builtins."))  # pyright: ignore[reportOptionalMemberAccess]
    if qualname is not None and qualname.startswith("numpy.") and len(node.args) == 1:
        form = JAX_NUMPY_FORMS.get(qualname.removeprefix("numpy."))
        return JaxNumpyFunction(form, safe=runs_only_traced(ctx, CONCRETE)) if form else None
    if _is_item(node, qualname):
        return SingleElement(node.func.value)  # pyright: ignore[reportAttributeAccessIssue]
    if qualname in ("builtins.any", "builtins.all") and not isinstance(node.args[0], ast.GeneratorExp):
        return JaxNumpyFunction(ELEMENT_TRUTHS[qualname], safe=runs_only_traced(ctx))
    return None


def _is_item(node: ast.Call, qualname: str | None) -> bool:
    func = node.func
    return qualname is None and isinstance(func, ast.Attribute) and func.attr == "item" and not node.args


def _feeds_arrays(node: ast.Call, ctx: Context) -> bool:
    """Whether the converted value only meets array arithmetic, where an array serves as well:
    an operand of arithmetic or a comparison, the index of a JAX array, an argument of a `jnp`
    function that is not a shape, a returned value. Followed through one name it is assigned to."""
    if ctx.function is None:
        return False
    above = parents(ctx)
    parent = above.get(node)
    if isinstance(parent, ast.Assign) and parent.value is node:
        target = parent.targets[0] if len(parent.targets) == 1 else None
        if not isinstance(target, ast.Name):
            return False
        uses = [
            n
            for n in ast.walk(ctx.function.node)
            if isinstance(n, ast.Name) and n.id == target.id and isinstance(n.ctx, ast.Load)
        ]
        return bool(uses) and all(_array_use(ctx, use, above) for use in uses)
    return _array_use(ctx, node, above)


def _array_use(ctx: Context, node: ast.AST, above: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node``'s value meets array arithmetic (through the arithmetic that holds it)."""
    parent = above.get(node)
    while isinstance(parent, (ast.BinOp, ast.UnaryOp)):
        if isinstance(parent, ast.BinOp):
            other = ctx.value(parent.right if parent.left is node else parent.left)
            if is_jax_array(other) or is_traced(other):
                return True  # combined with an array: the result is an array either way
        node, parent = parent, above.get(parent)
    if isinstance(parent, (ast.Compare, ast.Return)):
        return True
    if isinstance(parent, (ast.IfExp, ast.If, ast.While)) and parent.test is node:
        return True  # a condition on an array: JAX501's to rewrite
    if isinstance(parent, ast.Tuple):
        return isinstance(above.get(parent), ast.Return)
    if isinstance(parent, ast.Subscript) and parent.slice is node:
        base = ctx.value(parent.value)
        return is_jax_array(base) or is_traced(base)
    if isinstance(parent, ast.Call) and node in parent.args:
        qualname = ctx.qualname(parent.func) or ""
        return qualname.startswith("jax.numpy.") and qualname not in SHAPE_TAKING
    return False


# jax.numpy functions whose arguments are shapes, sizes or counts: an array cannot serve there.
SHAPE_TAKING = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "zeros ones full empty eye identity arange linspace logspace geomspace tri tril triu "
        "reshape broadcast_to tile repeat resize pad roll split array_split take expand_dims"
    ).split()
)


def _gives_bool(node: ast.expr) -> bool:
    """A comparison (not chained: that is its own finding), whose array is boolean already."""
    return isinstance(node, ast.Compare) and len(node.ops) == 1


def _indexed(ctx: Context, node: ast.expr, value: Value) -> tuple[str, str]:
    """What a traced index fails on, and how (measured with JAX 0.10.2): a dict hashes the key,
    a NumPy array converts it with ``__array__``, a Python sequence with ``__index__``."""
    if is_mapping(value):
        return "a dict", "`TypeError: unhashable type`"
    if _made_by_numpy(ctx, node):
        return "a NumPy array", "`TracerArrayConversionError`"
    if is_container(value):
        return "a Python sequence", "`TracerIntegerConversionError`"
    sequence = "`TracerIntegerConversionError` (`TracerArrayConversionError` if it is a NumPy array)"
    return "a Python sequence or NumPy array", sequence


def _string_key(ctx: Context, index: ast.expr) -> bool:
    """A parameter some call in sight passes a string for (``ACTIVATIONS[activation]``)."""
    return (
        isinstance(index, ast.Name)
        and ctx.function is not None
        and passes_a_string(ctx.model, ctx.function, index.id)
    )


def _made_by_numpy(ctx: Context, node: ast.expr) -> bool:
    """``np.arange(3)``, or a name bound once to such a call."""
    if isinstance(node, ast.Name):
        owner = ctx.scope.lookup(node.id)
        if owner is None or owner.bound.get(node.id) != 1:
            return False
        node = owner.assigned.get(node.id, node)
    if not isinstance(node, ast.Call):
        return False
    qualname = ctx.qualname(node.func)
    return qualname is not None and qualname.startswith("numpy.")


ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.Flag", "enum.IntFlag", "enum.StrEnum"})


def _enum_class(ctx: Context, func: ast.expr, depth: int = 0) -> str | None:
    """The name of the ``enum`` class of this module ``func`` names (a subclass of ``Enum``,
    ``IntEnum``..., directly or through another such class of the module), or None."""
    cls = ctx.model.class_named(func, ctx.scope)
    if cls is None or depth > 4:
        return None
    for base in cls.bases:
        if ctx.qualname(base) in ENUM_BASES or _enum_class(ctx, base, depth + 1) is not None:
            return cls.name
    return None
