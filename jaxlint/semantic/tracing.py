"""Which parameters a chain of transformations traces, and how abstract the result is.

``jax.jit`` traces every parameter except the static ones (and those with a non-``None`` default,
which callers may leave to their Python value); ``vmap`` the ones whose ``in_axes`` is not
``None``; ``grad`` its ``argnums`` (concretely); a ``lax`` body the arguments the primitive passes;
``equinox.filter_jit`` the parameters annotated as arrays. A parameter is traced if any layer
traces it, and the function is as abstract as its most abstract layer.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from jaxlint.engine.astutil import keyword_argument
from jaxlint.semantic import api
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope, parameter_defaults
from jaxlint.semantic.transforms import ABSTRACT, CONCRETE, HOST, NONE, body_operand
from jaxlint.semantic.values import (
    CONCRETE_ARRAY,
    CONTAINER,
    STATIC,
    TRACED,
    TRACED_ARRAY,
    UNKNOWN,
    Value,
    as_array,
    as_container,
    container,
    is_jax_array,
    is_plain_static,
    is_static,
    is_traced,
    known_elements,
    mapping,
    refine,
    sequence,
    traced,
    without_keys,
)

if TYPE_CHECKING:
    from jaxlint.semantic.model import Layer, SemanticModel

UNRESOLVED = object()


def trace_params(
    model: SemanticModel, info: FunctionInfo, layers: list[Layer], context: int
) -> tuple[int, dict[str, Value]]:
    """The level and traced parameter values that ``layers`` give ``info``'s function."""
    if any(layer.transform.level == HOST for layer in layers):
        return HOST, {}
    if any(_never_wraps(info, layer) for layer in layers):
        return context, {}  # `jax.jit` raises when it wraps the function: nothing is traced
    level = max([context, *(layer.transform.level for layer in layers)])
    positional = info.positional_names()
    args = info.node.args
    skip_first = info.is_method and positional and not _is_static(info)
    values: dict[str, Value] = {}
    for layer in layers:
        for index, name in enumerate(positional):
            if index < layer.offset or name in layer.bound or (skip_first and index == 0):
                continue
            _merge(values, name, _layer_value(model, info, layer, index - layer.offset, name))
        for param in args.kwonlyargs:
            if param.arg not in layer.bound:
                _merge(values, param.arg, _layer_value(model, info, layer, None, param.arg))
        for param in (args.vararg, args.kwarg):
            if param is not None and layer.transform.kind in ("jit", "remat", "pmap", "vmap", "body"):
                if param is args.kwarg and _static_through_kwargs(info, layer):
                    continue  # `static_argnames=("mode",)` reaching `**options`: some entries static
                if param is args.vararg and _static_through_varargs(info, layer):
                    continue  # `static_argnums=(1, 2)` reaching `*dims`: some items static
                _merge(values, param.arg, TRACED)
    if skip_first and any(layer.offset == 0 and layer.transform.kind in TRACING_SELF for layer in layers):
        instance = _traced_self(model, info)
        if instance is not None:
            values[positional[0]] = instance
    if level >= ABSTRACT:
        values = {k: traced(v) if is_jax_array(v) and not is_static(v) else v for k, v in values.items()}
    for name, value in list(values.items()):
        if known_elements(value) is None and is_traced(value):
            pytree = _annotated_pytree(model, info, name)
            if pytree is not None:
                values[name] = pytree
                continue
            kind = annotation_kind(model, _annotation_of(info, name), info)
            if kind == "array":
                values[name] = as_array(value)
            elif kind == "container":
                values[name] = as_container(value)
    return level, values


def _static_through_kwargs(info: FunctionInfo, layer: Layer) -> bool:
    """Whether the jit marks static a name that only the function's ``**kwargs`` can take."""
    names = static_names(layer.call) if layer.transform.kind == "jit" else set()
    args = info.node.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    return bool(names) and not names <= params  # pyright: ignore[reportOperatorIssue]


def _never_wraps(info: FunctionInfo, layer: Layer) -> bool:
    """Whether the jit names a static position past the positional parameters left after
    ``layer.offset`` (``jax.jit(partial(f, a), static_argnums=2)`` on ``f(a, x, s)``): it raises
    `ValueError` when it wraps the function (measured with JAX 0.10.2)."""
    if layer.transform.kind != "jit" or info.node.args.vararg is not None:
        return False
    positions = static_positions(layer.call)
    count = len(info.positional_names()) - layer.offset
    return bool(positions) and any(not -count <= p < count for p in positions)  # pyright: ignore[reportOptionalIterable]


def _static_through_varargs(info: FunctionInfo, layer: Layer) -> bool:
    """Whether the jit marks static a position that only the function's ``*args`` can take
    (or positions it does not spell as literals)."""
    if layer.transform.kind != "jit":
        return False
    positions = static_positions(layer.call)
    named = len(info.positional_names()) - layer.offset
    return positions is None or any(p >= named or p < 0 for p in positions)


# Transformations that receive the object a decorated method is called on as its first argument
# and trace it: a pytree object's leaves become tracers (an equinox module's arrays).
TRACING_SELF = frozenset({"jit", "remat", "pmap", "filter"})


def _traced_self(model: SemanticModel, info: FunctionInfo) -> Value | None:
    """``self`` of a method of a pytree class that a transformation decorates: its fields, traced."""
    from jaxlint.semantic.records import traced_instance

    cls = model.index.parents.get(info.node)
    pytree = None if cls is None or not isinstance(cls.node, ast.ClassDef) else model.pytree_class(cls.node)
    return None if pytree is None else traced_instance(model, pytree)


def _annotated_pytree(model: SemanticModel, info: FunctionInfo, name: str) -> Value | None:
    """A traced parameter annotated with a pytree class of this module: its fields, traced."""
    from jaxlint.semantic.records import traced_instance

    annotation = _annotation_of(info, name)
    if annotation is None:
        return None
    cls = model.class_named(annotation, model.index.parents.get(info.node, info.scope))
    pytree = None if cls is None else model.pytree_class(cls)
    return None if pytree is None else traced_instance(model, pytree)


def _merge(values: dict[str, Value], name: str, value: Value | None) -> None:
    if value is None:
        return
    old = values.get(name)
    if old is None or is_plain_static(old):
        values[name] = value
    elif not is_plain_static(value):
        values[name] = refine(old, value)


def _layer_value(
    model: SemanticModel, info: FunctionInfo, layer: Layer, position: int | None, name: str
) -> Value | None:
    transform = layer.transform
    kind = transform.kind
    if kind in ("jit", "remat", "pmap"):
        return _jit_value(info, layer, position, name)
    if kind == "vmap":
        if _has_non_none_default(info, name):
            return None  # left out by the caller, it keeps its Python default
        if transform.unmapped and _passed_through(layer, transform.unmapped, position, name):
            return None  # `jnp.vectorize(f, excluded={1})`: the caller's value, unmapped
        return _vmap_value(layer, position)
    if kind == "grad":
        argnums = _int_set(keyword_argument(layer.call, "argnums"), default={0})
        if argnums is UNRESOLVED or position is None:
            return None
        return TRACED if position in argnums else None  # a pytree of JVP tracers, concrete  # pyright: ignore[reportOperatorIssue]
    if kind == "body":
        arity = _body_arity(layer)
        if position is None or (arity is not None and position >= arity):
            return None
        operand = None if layer.call is None else body_operand(layer.call, transform, position)
        return TRACED if operand is None else fed_value(operand)  # None: the interpreter feeds it
    if kind in ("filter", "filter_vmap"):
        return (
            _annotated_pytree(model, info, name)
            or _annotation_value(model, info, name)
            or array_parameters(info).get(name)
        )
    return None


def _jit_value(info: FunctionInfo, layer: Layer, position: int | None, name: str) -> Value | None:
    transform = layer.transform
    numbers = _int_set(keyword_argument(layer.call, transform.static_argnums), default=set())
    names = _str_set(keyword_argument(layer.call, transform.static_argnames), default=set())
    if numbers is UNRESOLVED or names is UNRESOLVED:
        return None
    positional_count = len(info.positional_names()) - layer.offset
    numbers = {n + positional_count if n < 0 else n for n in numbers}  # pyright: ignore[reportGeneralTypeIssues]
    if (position is not None and position in numbers) or name in names:  # pyright: ignore[reportOperatorIssue]
        return STATIC
    passed = layer.passed is not None and _passed(layer.passed, position, name)
    if _has_non_none_default(info, name):
        # a knob with a default (`num_iterations=15`) is traced where a call in sight passes it
        return TRACED if passed else None
    if layer.passed is not None and not passed and has_default(info, name):
        # `f = jax.jit(loss); f(p, t)`: where the calls of the jitted function are in sight, a
        # parameter none of them passes keeps its Python default (`axis=None`)
        return None
    return TRACED


def _passed_through(layer: Layer, keyword: str, position: int | None, name: str) -> bool:
    """Whether the ``keyword`` set of the mapping (``excluded={0, "scale"}``) may name this
    parameter: by position or name, or in a set that is not written out."""
    given = keyword_argument(layer.call, keyword)
    if given is None:
        return False
    elements = given.elts if isinstance(given, (ast.Tuple, ast.List, ast.Set)) else None
    if elements is None or not all(isinstance(e, ast.Constant) for e in elements):
        return True  # `excluded=EXCLUDED`: any parameter may be
    values = {e.value for e in elements if isinstance(e, ast.Constant)}
    return name in values or position in values


def _vmap_value(layer: Layer, position: int | None) -> Value | None:
    in_axes = keyword_argument(layer.call, "in_axes")
    if in_axes is None and layer.call is not None and len(layer.call.args) > 1:
        in_axes = layer.call.args[1]
    if in_axes is None or position is None:
        return TRACED
    if isinstance(in_axes, ast.Constant):
        return None if in_axes.value is None else TRACED
    if isinstance(in_axes, (ast.Tuple, ast.List)):
        if position >= len(in_axes.elts):
            return None
        axis = in_axes.elts[position]
        if isinstance(axis, ast.Constant):
            return None if axis.value is None else TRACED
        return _mapped_value(axis)
    return None


def _mapped_value(axes: ast.expr) -> Value:
    """What a vmapped function receives for an argument whose ``in_axes`` entry is ``axes``, a
    prefix of its pytree: a tracer where an axis maps it, the caller's value where ``None``
    leaves it unmapped (``in_axes=({"x": 0, "scale": None},)``: ``batch["scale"]`` is the
    concrete value passed). A tuple, list or dict of axes gives the argument that structure."""
    if isinstance(axes, ast.Constant):
        return UNKNOWN if axes.value is None else TRACED
    if isinstance(axes, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in axes.elts):
        return sequence(_mapped_value(e) for e in axes.elts)
    keys = (
        [k.value if isinstance(k, ast.Constant) and type(k.value) in (str, int) else None for k in axes.keys]
        if isinstance(axes, ast.Dict)
        else []
    )
    if isinstance(axes, ast.Dict) and None not in keys:
        return mapping((k, _mapped_value(v)) for k, v in zip(keys, axes.values, strict=True))
    return UNKNOWN  # an axis the syntax does not say: neither traced nor concrete for sure


def fed_value(operand: ast.expr) -> Value | None:
    """What a body receives for ``operand``, when its syntax alone says: a number is a
    tracer, ``None`` stays ``None``, a tuple, list or dict display of those keeps its structure.
    None for anything else: the interpreter feeds the body what the operand holds."""
    if isinstance(operand, (ast.Tuple, ast.List)) and not any(
        isinstance(e, ast.Starred) for e in operand.elts
    ):
        items = [fed_value(e) for e in operand.elts]
        return None if None in items else sequence(items)  # pyright: ignore[reportArgumentType]
    if isinstance(operand, ast.Dict):
        keys = [
            k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None
            for k in operand.keys
        ]
        entries = [(k, fed_value(v)) for k, v in zip(keys, operand.values)]
        if any(k is None or v is None for k, v in entries):
            return None
        return mapping(entries)  # pyright: ignore[reportArgumentType]
    if isinstance(operand, ast.Constant):
        return STATIC if operand.value is None else TRACED
    return None


def is_display(operand: ast.expr) -> bool:
    """Whether :func:`fed_value` knows everything about ``operand`` from its syntax."""
    return fed_value(operand) is not None


def _body_arity(layer: Layer) -> int | None:
    transform = layer.transform
    if transform.operands_from is not None and layer.call is not None:
        args = layer.call.args
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        return max(0, len(args) - transform.operands_from)
    return transform.arity


def static_positions(call: ast.Call | None) -> set[int] | None:
    """The positions ``jax.jit(f, static_argnums=...)`` as ``call`` marks static (None when they
    are not literals)."""
    found = _int_set(keyword_argument(call, "static_argnums"), default=set())
    return None if found is UNRESOLVED else found  # pyright: ignore[reportReturnType]


def static_names(call: ast.Call | None) -> set[str] | None:
    """The parameter names ``jax.jit(f, static_argnames=...)`` as ``call`` marks static (None
    when they are not literals)."""
    found = _str_set(keyword_argument(call, "static_argnames"), default=set())
    return None if found is UNRESOLVED else found  # pyright: ignore[reportReturnType]


def int_literals(expr: ast.expr | None) -> set[int] | None:
    """``(0, 2)``, ``[1]`` or ``1`` as the set of ints it spells (None when it is not literal)."""
    found = _int_set(expr, default=set())
    return None if found is UNRESOLVED or expr is None else found  # pyright: ignore[reportReturnType]


def str_literals(expr: ast.expr | None) -> set[str] | None:
    """``("a", "b")`` or ``"a"`` as the set of names it spells (None when it is not literal)."""
    found = _str_set(expr, default=set())
    return None if found is UNRESOLVED or expr is None else found  # pyright: ignore[reportReturnType]


def _int_set(expr: ast.expr | None, default: set[int]) -> set[int] | object:
    if expr is None:
        return default
    elements = expr.elts if isinstance(expr, (ast.Tuple, ast.List)) else [expr]
    found: set[int] = set()
    for element in elements:
        number = _int_literal(element)
        if number is None:
            return UNRESOLVED
        found.add(number)
    return found


def _int_literal(expr: ast.expr) -> int | None:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    if (
        isinstance(expr, ast.UnaryOp)
        and isinstance(expr.op, ast.USub)
        and isinstance(expr.operand, ast.Constant)
        and type(expr.operand.value) is int
    ):
        return -expr.operand.value
    return None


def _str_set(expr: ast.expr | None, default: set[str]) -> set[str] | object:
    if expr is None:
        return default
    elements = expr.elts if isinstance(expr, (ast.Tuple, ast.List)) else [expr]
    found: set[str] = set()
    for element in elements:
        if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
            return UNRESOLVED
        found.add(element.value)
    return found


def _passed(passed: tuple[int, frozenset[str]], position: int | None, name: str) -> bool:
    count, keywords = passed
    return name in keywords or (position is not None and position < count)


def has_default(info: FunctionInfo, name: str) -> bool:
    return name in parameter_defaults(info.node.args)


def _has_non_none_default(info: FunctionInfo, name: str) -> bool:
    default = parameter_defaults(info.node.args).get(name)
    return default is not None and not (isinstance(default, ast.Constant) and default.value is None)


def _is_static(info: FunctionInfo) -> bool:
    node = info.node
    if isinstance(node, ast.Lambda):
        return False
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _annotation_of(info: FunctionInfo, name: str) -> ast.expr | None:
    for param in info.param_nodes():
        if param.arg == name:
            return param.annotation
    return None


def annotation_kind(model: SemanticModel, annotation: ast.expr | None, info: FunctionInfo) -> str:
    """``"array"``, ``"scalar"``, ``"container"``, ``"optional-array"`` or ``""`` for the
    annotation of one of ``info``'s parameters."""
    return annotation_kind_in(model, annotation, model.index.parents.get(info.node, info.scope))


def annotation_kind_in(model: SemanticModel, annotation: ast.expr | None, scope: Scope) -> str:
    """``"array"``, ``"scalar"``, ``"container"``, ``"optional-array"`` or ``""`` for an
    annotation written in ``scope``."""
    if annotation is None:
        return ""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return ""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        kinds = {annotation_kind_in(model, side, scope) for side in (annotation.left, annotation.right)}
        if _is_none(annotation.left) or _is_none(annotation.right):
            if "container" in kinds:
                return "container"
            return "optional-array" if "array" in kinds else ""
        return kinds.pop() if len(kinds) == 1 and kinds <= {"array", "container"} else ""
    if isinstance(annotation, ast.Subscript):
        base = model.resolver.qualname(annotation.value, scope) or ""
        if base.rsplit(".", 1)[-1] in api.JAXTYPING_DTYPES and base.startswith("jaxtyping"):
            return "array"
        if base in api.CONTAINER_ANNOTATIONS:
            return "container"
        if base in ("typing.Optional",):
            inner = annotation_kind_in(model, annotation.slice, scope)
            if inner == "container":
                return "container"
            return "optional-array" if inner == "array" else ""
        return ""
    qualname = model.resolver.qualname(annotation, scope)
    if qualname in api.ARRAY_ANNOTATIONS:
        return "array"
    if qualname in api.SCALAR_ANNOTATIONS:
        return "scalar"
    if qualname in api.CONTAINER_ANNOTATIONS:
        return "container"
    return ""


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


# Attributes only arrays have (JAX or NumPy, which `equinox.filter_jit` traces alike): a
# parameter read as `x.shape` or `x.at[...]` is an array, not a Python value kept static.
ARRAY_ONLY_ATTRIBUTES = frozenset({"at", "shape", "ndim", "dtype", "T", "astype", "reshape"})
# Methods no Python number, string or container has (`x.sum()`, `x.item()`): the receiver is an
# array (or a NumPy scalar, which `equinox.filter_jit` traces too).
ARRAY_ONLY_CALLS = frozenset(
    m for m in api.ARRAY_ONLY_METHODS if not m.startswith("__") and m not in ("conjugate", "conj")
)


def array_parameters(info: FunctionInfo) -> dict[str, Value]:
    """Parameters the body reads as arrays (``x.shape``, ``x.at[...]``, ``x.sum()``, masked
    with a comparison of themselves, ``x[x > 0]``): a traced array under a filtering transform.
    (A pytree read as ``batch.value.shape`` may also hold Python values, which the transform
    keeps static: it is left alone.)"""
    params = set(info.positional_names())
    found: dict[str, Value] = {}
    for node in ast.walk(info.node):
        name = _array_use(node)
        if name is not None and name in params:
            found[name] = TRACED_ARRAY
    return found


def _array_use(node: ast.AST) -> str | None:
    """The name ``node`` uses as only an array can be used."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id if node.attr in ARRAY_ONLY_ATTRIBUTES else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        receiver = node.func.value
        if node.func.attr in ARRAY_ONLY_CALLS and isinstance(receiver, ast.Name):
            return receiver.id
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and isinstance(node.slice, ast.Compare)
    ):
        # `x > 0` fails on containers, and a number cannot be indexed: `x[x > 0]` masks an array
        compared = [node.slice.left, *node.slice.comparators]
        if any(isinstance(c, ast.Name) and c.id == node.value.id for c in compared):
            return node.value.id
    return None


def _annotation_value(model: SemanticModel, info: FunctionInfo, name: str) -> Value | None:
    kind = annotation_kind(model, _annotation_of(info, name), info)
    if kind == "array":
        return TRACED_ARRAY
    if kind == "optional-array":
        return TRACED
    if kind == "scalar":
        return STATIC
    return None


def flax_params(model: SemanticModel, info: FunctionInfo) -> dict[str, Value]:
    """Array-annotated inputs of a flax ``__call__`` are traced; configuration stays static."""
    values: dict[str, Value] = {}
    for index, param in enumerate(info.param_nodes()):
        if index == 0:
            continue
        value = _annotation_value(model, info, param.arg)
        if _has_non_none_default(info, param.arg):
            value = STATIC
        if value is not None:
            values[param.arg] = value
    return values


def bind_values(
    info: FunctionInfo, offset: int, positional: list[Value], keywords: dict[str, Value]
) -> dict[str, Value]:
    """Map a call's argument values onto ``info``'s parameters (``offset`` leading ones bound
    already, as ``self`` or by ``partial``); extra ones go to ``*args``/``**kwargs``."""
    args = info.node.args
    names = info.positional_names()[offset:]
    positional = [without_keys(value) for value in positional]
    keywords = {name: without_keys(value) for name, value in keywords.items()}
    bound: dict[str, Value] = dict(zip(names, positional))
    extra = positional[len(names) :]
    if extra and args.vararg is not None:
        bound[args.vararg.arg] = container(extra)
    known = {p.arg for p in info.param_nodes()}
    for name, value in keywords.items():
        if name in known:
            bound[name] = value
        elif not name.startswith("**") and args.kwarg is not None:
            old = bound.get(args.kwarg.arg)
            bound[args.kwarg.arg] = container([value] if old is None else [old, value])
    return bound


def initial_param_value(model: SemanticModel, info: FunctionInfo, name: str) -> Value:
    """The value of a parameter that no transformation traces: from its annotation alone."""
    kind = annotation_kind(model, _annotation_of(info, name), info)
    if kind == "array":
        return CONCRETE_ARRAY
    if kind == "scalar" and info.effective_level == NONE:
        return STATIC
    if kind == "container":
        return CONTAINER
    return UNKNOWN


__all__ = ["CONCRETE", "array_parameters", "flax_params", "initial_param_value", "trace_params"]
