"""Whole-project analysis: what one module tells another about the functions it traces.

A module that jits a function it imported (``step = jax.jit(train_step)``), or calls an imported
helper from traced code with traced arguments, emits a :class:`TraceRequest` for the module that
defines the function. Those requests become that module's *seeds*: its functions are analysed
as traced exactly as if the transform or the call were local. Requests are plain, hashable data
(they are cached and cross process boundaries), and a module's seeds only grow, so the project
fixed point terminates.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jaxlint.semantic.transforms import NONE
from jaxlint.semantic.values import Value, from_json, to_json


@dataclass(frozen=True)
class LayerSpec:
    """One transform applied to a function of another module, as plain data."""

    transform: str
    keywords: tuple[tuple[str, str], ...] = ()  # keyword -> source text of its (literal) value
    arguments: tuple[str, ...] = ()  # positional arguments after the function, as source text
    offset: int = 0
    bound: tuple[str, ...] = ()
    passed: tuple[int, tuple[str, ...]] | None = None  # see Layer.passed

    def call(self) -> ast.Call:
        """A stand-in ``transform(f, *arguments, **keywords)`` call for the tracing logic."""
        return ast.Call(
            func=ast.Name(id="transform", ctx=ast.Load()),
            args=[ast.Name(id="function", ctx=ast.Load()), *map(_expression, self.arguments)],
            keywords=[ast.keyword(arg=name, value=_expression(text)) for name, text in self.keywords],
            lineno=0,
            col_offset=0,
        )


@dataclass(frozen=True)
class TraceRequest:
    """The function ``target`` names is traced: by ``layers`` (a transform applied to it), or by a
    call from traced code whose argument values are ``positional`` and ``keywords``.

    ``target`` is the qualified name the requesting module sees (``pkg.utils.loss``); once the
    project routes the request, it is the function's path in its module (``loss``, ``Model.apply``).
    """

    target: str
    level: int
    reason: str
    layers: tuple[LayerSpec, ...] = ()
    positional: tuple[Value, ...] = ()
    keywords: tuple[tuple[str, Value], ...] = ()
    offset: int = 0
    reused: bool = False  # the caller's trace is cached: the target's Python runs once per trace

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "level": self.level,
            "reason": self.reason,
            "layers": [
                [
                    layer.transform,
                    [list(k) for k in layer.keywords],
                    list(layer.arguments),
                    layer.offset,
                    list(layer.bound),
                ]
                for layer in self.layers
            ],
            "positional": [to_json(v) for v in self.positional],
            "keywords": [[name, to_json(v)] for name, v in self.keywords],
            "offset": self.offset,
            "reused": self.reused,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TraceRequest:
        layers = tuple(
            LayerSpec(t, tuple((k, v) for k, v in kw), tuple(args), offset, tuple(bound))
            for t, kw, args, offset, bound in data["layers"]
        )
        return cls(
            target=data["target"],
            level=data["level"],
            reason=data["reason"],
            layers=layers,
            positional=tuple(from_json(v) for v in data["positional"]),
            keywords=tuple((name, from_json(v)) for name, v in data["keywords"]),
            offset=data["offset"],
            reused=bool(data.get("reused", False)),
        )


@dataclass(frozen=True)
class ProjectView:
    """What one module's analysis needs of the project: its own name (for relative imports), the
    requests other modules sent it (its seeds), and what the functions it called in other
    modules return when traced (``returns``: the qualified name it called -> value)."""

    module: str = ""
    is_package: bool = False
    seeds: tuple[TraceRequest, ...] = ()
    returns: tuple[tuple[str, Value], ...] = ()
    globals: tuple[tuple[str, Value], ...] = ()  # module-level values it imports, by qualified name

    def returned(self, qualname: str) -> Value | None:
        for name, value in self.returns:
            if name == qualname:
                return value
        return None

    def global_value(self, qualname: str) -> Value | None:
        """The value of another module's module-level name this module imports, when known."""
        for name, value in self.globals:
            if name == qualname:
                return value
        return None

    def fingerprint(self) -> str:
        """What in this view changes the module's results (for the cache)."""
        seeds = seeds_fingerprint(self.seeds)
        return repr((self.module, self.is_package, seeds, sorted(self.returns), sorted(self.globals)))

    @property
    def package(self) -> str:
        return self.module if self.is_package else self.module.rpartition(".")[0]


@dataclass
class ProjectIndex:
    """Every checked module, and the names packages re-export (``from .core import f`` in
    ``pkg/__init__.py``), to route a request to the module that defines its function."""

    modules: dict[str, str] = field(default_factory=dict)  # module name -> path
    exports: dict[str, dict[str, str]] = field(default_factory=dict)

    def locate(self, qualname: str) -> tuple[str, str] | None:
        """``(module, function path)`` when ``qualname`` names a function (or another name) of a
        checked module."""
        for _ in range(4):  # follow re-exports a few levels
            parts = qualname.split(".")
            for cut in range(len(parts) - 1, 0, -1):
                module = ".".join(parts[:cut])
                if module not in self.modules:
                    continue
                rest = parts[cut:]
                exported = self.exports.get(module, {}).get(rest[0])
                if exported is not None and exported != ".".join(parts[: cut + 1]):
                    qualname = ".".join([exported, *rest[1:]])
                    break
                return (module, ".".join(rest)) if len(rest) <= 2 else None
            else:
                return None
        return None


@cache
def module_name(path: str | Path) -> tuple[str, bool]:
    """The dotted module name of a file, from the packages (``__init__.py``) around it, and
    whether the file is a package's ``__init__``."""
    file = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(file))[0]
    is_package = stem == "__init__"
    parts = [] if is_package else [stem]
    directory = os.path.dirname(file)
    while _is_package(directory) and os.path.dirname(directory) != directory:
        parts.insert(0, os.path.basename(directory))
        directory = os.path.dirname(directory)
    return ".".join(parts) or stem, is_package


@cache
def _is_package(directory: str) -> bool:
    return os.path.exists(os.path.join(directory, "__init__.py"))


def trace_everything(tree: ast.Module, module: str = "") -> ProjectView:
    """A view that jits every named function and method of ``tree``, as if JAX traced them all:
    stress tests run every rule and fixer this way over code that never uses JAX."""
    seeds = tuple(
        TraceRequest(path, NONE, f"`{path}` is traced (stress test)", layers=(LayerSpec("jax.jit"),))
        for path in _function_paths(tree)
    )
    return ProjectView(module, seeds=seeds)


def _function_paths(tree: ast.Module) -> list[str]:
    """``f``, ``Class.method``, ``f.inner``: the path of every def, however deeply nested."""
    paths: list[str] = []
    stack: list[tuple[ast.AST, str]] = [(tree, "")]
    while stack:
        node, prefix = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                paths.append(prefix + child.name)
                stack.append((child, f"{prefix}{child.name}."))
            elif isinstance(child, ast.ClassDef):
                stack.append((child, f"{prefix}{child.name}."))
            elif not isinstance(child, ast.expr):
                stack.append((child, prefix))
    return paths


def seeds_fingerprint(seeds: tuple[TraceRequest, ...]) -> str:
    return repr(sorted(repr(seed) for seed in seeds))


def _expression(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body
