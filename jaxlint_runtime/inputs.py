"""Inputs for a verification: given by the user, made by a factory, or synthesised from hints.

Synthesis reads jaxtyping-style annotations (``Float[Array, "b n"]``, ``Int[Array, ""]``,
``Key[Array, ""]``), written as objects or as strings, and plain ``jax.Array``/``float``/``int``/
``bool`` hints. Named dimensions get small fixed sizes (3, 4, 5, ... in order of appearance),
the same size wherever the name appears; values come from a seeded generator.
"""

from __future__ import annotations

import ast
import inspect
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

DTYPES = {
    "Float": "float32",
    "Float16": "float16",
    "BFloat16": "bfloat16",
    "Float32": "float32",
    "Float64": "float64",
    "Inexact": "float32",
    "Real": "float32",
    "Num": "float32",
    "Shaped": "float32",
    "Int": "int32",
    "Integer": "int32",
    "Int8": "int8",
    "Int16": "int16",
    "Int32": "int32",
    "Int64": "int64",
    "UInt": "uint32",
    "UInt8": "uint8",
    "UInt16": "uint16",
    "UInt32": "uint32",
    "UInt64": "uint64",
    "Bool": "bool",
    "Complex": "complex64",
    "Complex64": "complex64",
    "Complex128": "complex128",
    "Key": "key",
}
ARRAY_TYPES = {"Array", "ndarray", "ArrayLike"}
KEY_TYPES = {"PRNGKeyArray", "KeyArray"}
KEY_PARAMETERS = {"key", "rng", "rng_key", "prng_key"}
FIRST_SIZE = 3
PLAIN_ARRAY_SHAPE = (4,)
PLAIN_INT = 2


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class InputError(Exception):
    """Inputs that cannot be made (a usage error, reported in one line)."""


@dataclass
class Inputs:
    """Arguments for one call; ``expected`` is the correct output when the original cannot run."""

    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    expected: Any = UNSET
    synthesised: bool = False


def as_inputs(value: Any) -> Inputs:
    """``Inputs`` from a factory's result: an ``Inputs`` or a tuple/list of positional arguments."""
    if isinstance(value, Inputs):
        return value
    if isinstance(value, tuple | list):
        return Inputs(tuple(value))
    raise InputError(
        f"an inputs factory must return a tuple of positional arguments or jaxlint_runtime.Inputs, "
        f"not {type(value).__name__}"
    )


def call_factory(factory: Callable[..., Any], seed: int) -> Inputs:
    """Call a factory, passing ``seed=`` when it takes a ``seed`` parameter."""
    try:
        takes_seed = "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        takes_seed = False
    return as_inputs(factory(seed=seed) if takes_seed else factory())


def synthesise(function: Callable[..., Any], seed: int = 0, dims: Mapping[str, int] | None = None) -> Inputs:
    """Arguments for every parameter of ``function`` without a default, from its annotations."""
    maker = _Maker(np.random.default_rng(seed), dict(dims or {}), seed)
    inputs = Inputs(synthesised=True)
    args: list[Any] = []
    for parameter in _parameters(function):
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.default is not parameter.empty:
            continue
        value = maker.value(parameter.name, parameter.annotation, _name(function))
        if parameter.kind is parameter.KEYWORD_ONLY:
            inputs.kwargs[parameter.name] = value
        else:
            args.append(value)
    inputs.args = tuple(args)
    return inputs


def describe(function: Callable[..., Any], inputs: Inputs) -> list[str]:
    """``name: float32[3,4]`` for every argument, for the report."""
    names = [p.name for p in _parameters(function, strict=False)]
    described = []
    for position, value in enumerate(inputs.args):
        name = names[position] if position < len(names) else f"args[{position}]"
        described.append(f"{name}: {_describe_value(value)}")
    described.extend(f"{name}: {_describe_value(value)}" for name, value in inputs.kwargs.items())
    return described


def _describe_value(value: Any) -> str:
    leaves = jax.tree_util.tree_leaves(value)
    if len(leaves) != 1 or leaves[0] is not value:
        return f"{type(value).__name__} of {len(leaves)} leaves"
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"{value.dtype}[{','.join(str(size) for size in value.shape)}]"
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _parameters(function: Callable[..., Any], strict: bool = True) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        if strict:
            raise InputError(f"cannot read the parameters of `{_name(function)}`") from None
        return []


def _name(function: Callable[..., Any]) -> str:
    return getattr(function, "__qualname__", None) or getattr(function, "__name__", repr(function))


@dataclass
class _Maker:
    rng: np.random.Generator
    sizes: dict[str, int]
    seed: int
    keys_made: int = 0
    named: int = 0

    def value(self, name: str, annotation: Any, function: str) -> Any:
        if annotation is inspect.Parameter.empty:
            raise InputError(
                f"cannot synthesise an input for parameter `{name}` of `{function}`: it has no type "
                f'annotation (annotate it, e.g. `{name}: Float[Array, "n"]`, or give inputs from a factory: '
                f"`jaxlint verify FILE::{function} --inputs module:factory`)"
            )
        try:
            node = ast.parse(annotation_text(annotation).strip(), mode="eval").body
        except SyntaxError:
            raise InputError(f"cannot read the annotation of `{name}` in `{function}`") from None
        return self._from_node(name, node, function)

    def _from_node(self, name: str, node: ast.expr, function: str) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.value(name, node.value, function)  # a quoted annotation
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self._from_node(name, _not_none(node.left, node.right), function)
        if isinstance(node, ast.Subscript):
            return self._subscript(name, node, function)
        kind = _last_name(node)
        if kind in ("float", "int", "bool", "complex"):
            return self._python_scalar(kind)
        if kind in KEY_TYPES or (kind in ARRAY_TYPES and name in KEY_PARAMETERS):
            return self._key(())
        if kind in ARRAY_TYPES:
            return self._array("float32", PLAIN_ARRAY_SHAPE, numpy=kind == "ndarray")
        raise InputError(
            f"cannot synthesise an input for `{name}` of `{function}` from `{ast.unparse(node)}`"
        )

    def _subscript(self, name: str, node: ast.Subscript, function: str) -> Any:
        kind = _last_name(node.value)
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if kind in ("Optional", "Union"):
            return self._from_node(name, _not_none(*parts), function)
        if kind not in DTYPES or len(parts) != 2:
            raise InputError(
                f"cannot synthesise an input for `{name}` of `{function}` from `{ast.unparse(node)}`"
            )
        dims = parts[1]
        if not isinstance(dims, ast.Constant) or not isinstance(dims.value, str):
            raise InputError(f'the dimensions of `{name}` in `{function}` must be a string like "b n"')
        shape = self._shape(dims.value, name, function)
        if DTYPES[kind] == "key":
            return self._key(shape)
        return self._array(DTYPES[kind], shape, numpy=_last_name(parts[0]) == "ndarray")

    def _shape(self, dims: str, name: str, function: str) -> tuple[int, ...]:
        shape = []
        for token in dims.split():
            if token == "..." or token.startswith("*"):
                continue  # any number of dimensions: synthesise none
            token = token.lstrip("#")
            if token == "_" or token.startswith("_"):
                shape.append(2)
                continue
            shape.append(self._size(token, name, function))
        return tuple(shape)

    def _size(self, token: str, name: str, function: str) -> int:
        if token.isdigit():
            return int(token)
        if token.isidentifier():
            if token not in self.sizes:
                self.sizes[token] = FIRST_SIZE + self.named
                self.named += 1
            return self.sizes[token]
        try:
            expression = ast.parse(token, mode="eval").body
            for identifier in (n.id for n in ast.walk(expression) if isinstance(n, ast.Name)):
                self._size(identifier, name, function)
            return int(_evaluate(expression, self.sizes))
        except (SyntaxError, ValueError, KeyError, ZeroDivisionError):
            raise InputError(f"cannot size dimension `{token}` of `{name}` in `{function}`") from None

    def _python_scalar(self, kind: str) -> Any:
        if kind == "float":
            return float(self.rng.standard_normal())
        if kind == "complex":
            return complex(self.rng.standard_normal(), self.rng.standard_normal())
        return PLAIN_INT if kind == "int" else True

    def _array(self, dtype: str, shape: tuple[int, ...], numpy: bool = False) -> Any:
        kind = np.dtype(jnp.dtype(dtype)).kind
        if kind == "b":
            values: np.ndarray = self.rng.random(shape) < 0.5
        elif kind in "iu":
            values = self.rng.integers(0, FIRST_SIZE, shape)
        elif kind == "c":
            values = self.rng.standard_normal(shape) + 1j * self.rng.standard_normal(shape)
        else:
            values = self.rng.standard_normal(shape)
        if numpy:
            return values.astype(jnp.dtype(dtype))
        return jnp.asarray(values, dtype=dtype)

    def _key(self, shape: tuple[int, ...]) -> Any:
        self.keys_made += 1
        key = jax.random.key(self.seed * 1000 + self.keys_made)
        if not shape:
            return key
        return jax.random.split(key, math.prod(shape)).reshape(shape)


def annotation_text(annotation: Any) -> str:
    """An annotation as source text, whether it was written as a string or evaluated."""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        texts = [annotation_text(a) for a in typing.get_args(annotation) if a is not type(None)]
        return texts[0] if texts else "None"
    if isinstance(annotation, type):
        return (
            annotation.__name__ if annotation.__module__.startswith("jaxtyping") else annotation.__qualname__
        )
    return getattr(annotation, "__name__", None) or str(annotation)


def _not_none(*nodes: ast.expr) -> ast.expr:
    for node in nodes:
        if not (isinstance(node, ast.Constant) and node.value is None) and _last_name(node) != "None":
            return node
    return nodes[0]


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.rsplit(".", 1)[-1]
    return ""


def _evaluate(node: ast.expr, sizes: Mapping[str, int]) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        return sizes[node.id]
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left, sizes), _evaluate(node.right, sizes)
        operators: dict[type, Callable[[int, int], int]] = {
            ast.Add: lambda a, b: a + b,
            ast.Sub: lambda a, b: a - b,
            ast.Mult: lambda a, b: a * b,
            ast.FloorDiv: lambda a, b: a // b,
        }
        if type(node.op) in operators:
            return operators[type(node.op)](left, right)
    raise ValueError("unsupported dimension expression")
