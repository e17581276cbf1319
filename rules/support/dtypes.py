"""What an expression says of the dtype of the value it makes: its kind (``bool``, ``int``,
``float``) and whether JAX types it weakly (a Python number).

Only what the expression alone proves: ``jnp.int32(0)`` and ``jnp.arange(5)`` are strongly
typed integers, ``0`` a weakly typed one, ``c + 0.5`` and ``c / 2`` floats whatever ``c`` is,
``x < 0`` a boolean. Everything else is unknown (``None``). Complex values are never claimed.
Measured with JAX 0.10.2: ``jnp.array(0)`` and ``jnp.full(3, 0)`` are weakly typed,
``jnp.zeros(3)`` and ``jnp.arange(3)`` are not.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.scopes import Scope

from .callsites import passed_arguments

# the promotion order of the kinds: a weakly typed value takes the kind of a higher one
ORDER = ("bool", "int", "float")
# constructors whose dtype, when not given, is float32 (strongly typed)
FLOAT_BY_DEFAULT = frozenset(f"jax.numpy.{name}" for name in ("zeros", "ones", "empty", "eye", "identity"))
# constructors that take a dtype: the position it may be passed at
DTYPE_POSITION = {
    **{
        f"jax.numpy.{name}": 1
        for name in ("zeros", "ones", "empty", "array", "asarray", "zeros_like", "ones_like")
    },
    "jax.numpy.full": 2,
    "jax.numpy.full_like": 2,
    "jax.numpy.arange": 3,
}
# functions whose result is a float for any integer or float argument
FLOAT_RESULTS = frozenset(
    f"jax.numpy.{name}"
    for name in ("exp", "log", "sqrt", "mean", "sin", "cos", "tanh", "log1p", "expm1", "linspace")
)
DEPTH = 4  # names followed to their single binding
# `jax_enable_x64`, `JAX_ENABLE_X64`, `enable_x64()`: not the `x64` of `complex64`
MENTIONS_X64 = re.compile(r"(?<![a-z0-9])x64", re.IGNORECASE)
INT32_RANGE = range(-(2**31), 2**31)


@dataclass(frozen=True)
class DtypeKind:
    kind: str  # "bool", "int" or "float"
    weak: bool  # a Python number: JAX promotes it to the dtype of what it meets

    def describe(self) -> str:
        words = {"bool": "a boolean", "int": "an integer", "float": "a floating-point"}
        return words[self.kind] + (" Python number" if self.weak else " array")


def carry_mismatch(start: DtypeKind, out: DtypeKind) -> bool:
    """A loop carry that starts as ``start`` and comes back as ``out``: JAX promotes a weakly
    typed start to a higher kind, and raises on any other change of kind."""
    if start.kind == out.kind:
        return False
    return not (start.weak and ORDER.index(out.kind) > ORDER.index(start.kind))


def dtype_kind(
    model: SemanticModel, expr: ast.AST, scope: Scope, depth: int = 0, through_calls: bool = False
) -> DtypeKind | None:
    """The dtype kind ``expr`` is known to make; None when the expression does not prove one.
    ``through_calls``: a parameter has the kind every call in sight passes it (one level; it
    asks the model about the callers, so only rules that need it ask)."""
    if depth > DEPTH:
        return None
    if isinstance(expr, ast.Constant):
        return _constant_kind(expr.value)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return dtype_kind(model, expr.operand, scope, depth + 1, through_calls)
    if isinstance(expr, ast.Compare):
        return DtypeKind("bool", False)
    if isinstance(expr, ast.BinOp):
        return _binop_kind(model, expr, scope, depth, through_calls)
    if isinstance(expr, ast.Call):
        return _call_kind(model, expr, scope)
    if isinstance(expr, ast.Name):
        owner = scope.lookup(expr.id)
        value = None if owner is None else owner.single_value(expr.id)
        if value is None and owner is not None and through_calls:
            return _passed_kind(model, owner, expr.id, depth)
        return None if value is None else dtype_kind(model, value, owner or scope, depth + 1, through_calls)
    if _python_size(model, expr, scope):
        return DtypeKind("int", True)
    return None


def _passed_kind(model: SemanticModel, owner: Scope, name: str, depth: int) -> DtypeKind | None:
    """The dtype kind every call in sight passes for parameter ``name`` of the function
    ``owner`` (``loss(params, x, labels)`` called with ``jnp.array([0, 2])``)."""
    key = ("passed-kind", owner.node, name)
    if key not in model.memo:
        model.memo[key] = None  # (a recursive call passing the parameter on finds no kind)
        function = model.function_of(owner)
        passed = (
            None if function is None or owner.kind != "function" else passed_arguments(model, function, name)
        )
        kinds = [dtype_kind(model, argument, scope, depth + 1) for argument, scope in passed or []]
        if kinds and all(k is not None and k.kind == kinds[0].kind for k in kinds):  # pyright: ignore
            model.memo[key] = DtypeKind(kinds[0].kind, all(k.weak for k in kinds))  # pyright: ignore
    return model.memo[key]


def _python_size(model: SemanticModel, expr: ast.AST, scope: Scope) -> bool:
    """``x.shape[0]``, ``x.ndim``, ``len(x)``: a Python int, whatever ``x`` is."""
    if isinstance(expr, ast.Subscript):
        base = expr.value
        return (
            isinstance(base, ast.Attribute) and base.attr == "shape" and not isinstance(expr.slice, ast.Slice)
        )
    if isinstance(expr, ast.Attribute):
        return expr.attr == "ndim"
    return isinstance(expr, ast.Call) and model.qualname(expr.func, scope) == "builtins.len"


def _constant_kind(value: object) -> DtypeKind | None:
    if isinstance(value, bool):
        return DtypeKind("bool", False)  # JAX types Python booleans strongly
    if isinstance(value, int):
        return DtypeKind("int", True)
    if isinstance(value, float):
        return DtypeKind("float", True)
    return None


def _binop_kind(
    model: SemanticModel, node: ast.BinOp, scope: Scope, depth: int, through_calls: bool = False
) -> DtypeKind | None:
    left = dtype_kind(model, node.left, scope, depth + 1, through_calls)
    right = dtype_kind(model, node.right, scope, depth + 1, through_calls)
    if _complex(node.left) or _complex(node.right):
        return None
    if isinstance(node.op, ast.Div) or any(k is not None and k.kind == "float" for k in (left, right)):
        if isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.Mod, ast.FloorDiv)):
            weak = all(k is not None and k.weak for k in (left, right))
            return DtypeKind("float", weak)
        return None
    if left is None or right is None or not isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        return None
    if left.kind == right.kind == "bool":
        return None  # `True + True` is an integer, `a * b` of arrays a boolean
    kind = "int" if "int" in (left.kind, right.kind) else None
    return None if kind is None else DtypeKind(kind, left.weak and right.weak)


def _complex(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, complex)


def _call_kind(model: SemanticModel, call: ast.Call, scope: Scope) -> DtypeKind | None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "astype" and call.args:
        return named_dtype_kind(model, call.args[0], scope)
    qualname = model.qualname(func, scope)
    if qualname is None:
        return None
    leaf = qualname.rsplit(".", 1)[-1]
    if qualname.startswith(("jax.numpy.", "numpy.")) and qualname.count(".") == (
        2 if qualname.startswith("jax.") else 1
    ):
        scalar = _dtype_name_kind(leaf)
        if scalar is not None:  # `jnp.int32(0)`, `np.float32(x)`
            return DtypeKind(scalar, False)
    if qualname in FLOAT_RESULTS:
        return DtypeKind("float", False)
    if qualname == "builtins.float" and len(call.args) == 1 and not call.keywords:
        return DtypeKind("float", True)  # a Python float, weakly typed in JAX
    if qualname in DTYPE_POSITION:
        return _constructor_kind(model, call, scope, qualname)
    return None


def _constructor_kind(model: SemanticModel, call: ast.Call, scope: Scope, qualname: str) -> DtypeKind | None:
    """A constructor's dtype: the one it is given, else its default where that is known."""
    dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    position = DTYPE_POSITION[qualname]
    if dtype is None and len(call.args) > position:
        dtype = call.args[position]
    if dtype is not None:
        return named_dtype_kind(model, dtype, scope)
    if qualname in FLOAT_BY_DEFAULT:
        return DtypeKind("float", False)
    if qualname in ("jax.numpy.array", "jax.numpy.asarray") and call.args:
        return _literal_data_kind(call.args[0])
    if qualname == "jax.numpy.arange" and call.args:
        bounds = [_constant_kind(a.value) if isinstance(a, ast.Constant) else None for a in call.args]
        if all(b is not None and b.kind == "int" for b in bounds):
            return DtypeKind("int", False)
    return None


def _literal_data_kind(data: ast.expr) -> DtypeKind | None:
    """``jnp.array(0)`` (weakly typed, as its number) or ``jnp.array([1, 2])`` (strongly typed,
    the highest kind of its numbers), for data written as numbers."""
    if isinstance(data, ast.Constant):
        return _constant_kind(data.value)
    numbers = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.List, ast.Tuple)):
            stack.extend(item.elts)
        elif isinstance(item, ast.Constant) and (kind := _constant_kind(item.value)) is not None:
            numbers.append(kind.kind)
        else:
            return None
    if not numbers:
        return None
    return DtypeKind(max(numbers, key=ORDER.index), False)


def named_dtype_kind(model: SemanticModel, dtype: ast.expr, scope: Scope) -> DtypeKind | None:
    """The kind of a dtype written as ``jnp.int32``, ``np.float32``, ``int``, ``"int32"``."""
    if isinstance(dtype, ast.Constant) and isinstance(dtype.value, str):
        kind = _dtype_name_kind(dtype.value)
    else:
        qualname = model.qualname(dtype, scope)
        if qualname in ("builtins.int", "builtins.float", "builtins.bool"):
            kind = qualname.rsplit(".", 1)[1]
        elif qualname is not None and qualname.startswith(("jax.numpy.", "numpy.")):
            kind = _dtype_name_kind(qualname.rsplit(".", 1)[1])
        else:
            kind = None
    return None if kind is None else DtypeKind(kind, False)


def _dtype_name_kind(name: str) -> str | None:
    name = name.rstrip("_")
    if name == "bool":
        return "bool"
    if name.startswith(("int", "uint")) and name[-1].isdigit():
        return "int"
    if name.startswith(("float", "bfloat")) and name[-1].isdigit():
        return "float"
    return None


def mentions_x64(ctx: Context) -> bool:
    """Whether the module mentions x64 anywhere (``jax.config.update("jax_enable_x64", True)``,
    ``jax.enable_x64``, ``JAX_ENABLE_X64``, a comment): 64-bit types may be on, so stay silent."""
    found = ctx.memo.get("x64")
    if found is None:
        found = ctx.memo["x64"] = any(MENTIONS_X64.search(line) for line in ctx.lines)
    return found


def python_int_value(expr: ast.expr) -> int | None:
    """The Python int a constant expression makes (``2654435761``, ``0xFFFFFFFF``, ``2**32``,
    ``1 << 40``, ``-(2**31) - 1``); None for anything else (a bool, a name, a huge power)."""
    if isinstance(expr, ast.Constant):
        return expr.value if type(expr.value) is int else None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd, ast.Invert)):
        operand = python_int_value(expr.operand)
        if operand is None:
            return None
        return (
            -operand
            if isinstance(expr.op, ast.USub)
            else ~operand
            if isinstance(expr.op, ast.Invert)
            else operand
        )
    if isinstance(expr, ast.BinOp):
        left, right = python_int_value(expr.left), python_int_value(expr.right)
        if left is None or right is None:
            return None
        return _int_operation(expr.op, left, right)
    return None


def _int_operation(op: ast.operator, left: int, right: int) -> int | None:
    if isinstance(op, ast.Pow):
        return left**right if 0 <= right <= 128 and abs(left) <= 2**16 else None
    if isinstance(op, ast.LShift):
        return left << right if 0 <= right <= 128 else None
    operations = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__, ast.BitOr: int.__or__}
    operation = operations.get(type(op))
    return None if operation is None else operation(left, right)
