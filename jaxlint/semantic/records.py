"""Pytree classes of this module: what each field of an instance holds when the instance is traced.

JAX flattens a NamedTuple, a registered dataclass (``jax.tree_util.register_dataclass``), a flax
struct (``flax.struct.dataclass``, ``PyTreeNode``), a chex dataclass or an equinox ``Module``
into its fields: under ``jit`` each data field is a leaf (a tracer) or a subtree, and each static
field (``field(metadata={"static": True})``, ``struct.field(pytree_node=False)``,
``eqx.field(static=True)``, ``meta_fields``) stays the Python value it was. ``equinox.filter_jit``
traces only array leaves, so an equinox field is known to be traced only when it is annotated as
an array.

A library's pytree class (flax's ``TrainState``) is known from measurement
(``measured.library_records``): a module that imports it, or subclasses it, knows its fields.

Classes registered with their own flatten function (``register_pytree_node_class``) keep their
attributes to themselves: an attribute of theirs is never taken to be a field.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jaxlint.semantic.measured import library_records
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.tracing import annotation_kind_in
from jaxlint.semantic.values import (
    STATIC,
    TRACED,
    TRACED_ARRAY,
    TRACED_CONTAINER,
    UNKNOWN,
    InstanceRef,
    Value,
    record,
)

if TYPE_CHECKING:
    from jaxlint.semantic.model import SemanticModel

NAMED_TUPLES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
DATACLASSES = frozenset({"dataclasses.dataclass"})
REGISTER_DATACLASS = frozenset({"jax.tree_util.register_dataclass", "jax.tree.register_dataclass"})
PYTREE_DATACLASSES = frozenset({"flax.struct.dataclass", "chex.dataclass", "chex.mappable_dataclass"})
PYTREE_BASES = frozenset({"flax.struct.PyTreeNode"})
EQUINOX_BASES = frozenset({"equinox.Module"})
CUSTOM_REGISTRATION = frozenset(
    {
        "jax.tree_util.register_pytree_node_class",
        "jax.tree_util.register_pytree_node",
        "jax.tree_util.register_pytree_with_keys",
        "jax.tree_util.register_pytree_with_keys_class",
        "jax.tree_util.register_static",
    }
)
STATIC_FIELD_CALLS = frozenset({"equinox.static_field"})
FIELD_CALLS = frozenset({"dataclasses.field", "flax.struct.field", "equinox.field", "chex.field"})
MAX_DEPTH = 4
MEASURED_KINDS = {"traced": TRACED, "container": TRACED_CONTAINER, "static": STATIC}


@dataclass(frozen=True)
class PytreeClass:
    """A pytree class: its fields in constructor order, and whether each is static."""

    node: ast.ClassDef
    fields: tuple[str, ...]
    static: frozenset[str]
    annotations: tuple[tuple[str, ast.expr | None], ...]
    scope: Scope
    is_tuple: bool
    only_arrays_traced: bool  # equinox: filter_jit leaves non-array leaves static
    measured: tuple[tuple[str, str], ...] = ()  # fields of a library base class, as measured


@dataclass(frozen=True)
class LibraryRecord:
    """A library's pytree class: its fields in order, each with what it holds when traced
    (``"traced"``, ``"container"`` or ``"static"``, measured)."""

    qualname: str
    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Fields:
    """What the model knows of the pytree classes of one module."""

    classes: dict[ast.ClassDef, PytreeClass]
    custom_attributes: frozenset[str]  # attributes of classes with their own flatten function
    custom_classes: frozenset[ast.ClassDef] = frozenset()  # the classes with their own flatten function
    library: tuple[LibraryRecord, ...] = ()  # library pytree classes the module imports


def is_dataclass(model: SemanticModel, cls: ast.ClassDef, scope: Scope) -> bool:
    """Whether a decorator of ``cls`` makes it a dataclass (``@dataclass``, a flax or chex one)."""
    names = {model.resolver.qualname(_callee(d), scope) for d in cls.decorator_list}
    return bool(names & (DATACLASSES | PYTREE_DATACLASSES))


def find_pytree_classes(model: SemanticModel) -> Fields:
    """The pytree classes defined in the module, and the attributes of custom pytree classes."""
    registered = _registered_by_call(model)
    found: dict[ast.ClassDef, PytreeClass] = {}
    custom: set[str] = set()
    custom_classes: set[ast.ClassDef] = set()
    for cls, scope in model.index.classes:
        names = {model.resolver.qualname(_callee(d), scope) for d in cls.decorator_list}
        if names & CUSTOM_REGISTRATION or registered.get(cls.name) == "custom":
            custom |= _self_attributes(cls)
            custom_classes.add(cls)
            flattened = _flattened_fields(cls)
            if flattened is not None:
                found[cls] = _make(cls, scope, flattened, set())
            continue
        pytree = _pytree_class(model, cls, scope, names, registered.get(cls.name), found)
        if pytree is not None:
            found[cls] = pytree
    return Fields(found, frozenset(custom), frozenset(custom_classes), _imported_records(model))


def _flattened_fields(cls: ast.ClassDef) -> list[Field] | None:
    """The fields of a class with its own ``tree_flatten``, when that returns displays of
    ``self``'s attributes: ``return (self.coeffs, self.degree), None`` gives the children
    (traced) and the auxiliary data (static). None for any other form."""
    flatten = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "tree_flatten"), None)
    if flatten is None or not flatten.args.args:
        return None
    self_name = flatten.args.args[0].arg
    returns = [n for n in ast.walk(flatten) if isinstance(n, ast.Return)]
    if len(returns) != 1 or not isinstance(returns[0].value, ast.Tuple) or len(returns[0].value.elts) != 2:
        return None
    children, aux = returns[0].value.elts
    traced = _self_attributes_in(children, self_name)
    static = [] if isinstance(aux, ast.Constant) else _self_attributes_in(aux, self_name)
    if traced is None or static is None:
        return None
    return [*((name, None, False) for name in traced), *((name, None, True) for name in static)]


def _self_attributes_in(display: ast.expr, self_name: str) -> list[str] | None:
    """``["a", "b"]`` for ``(self.a, self.b)`` (or one ``self.a``); None for anything else."""
    items = display.elts if isinstance(display, (ast.Tuple, ast.List)) else [display]
    names = [
        item.attr
        for item in items
        if isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name) and item.value.id == self_name
    ]
    return names if len(names) == len(items) else None


def _imported_records(model: SemanticModel) -> tuple[LibraryRecord, ...]:
    """The library pytree classes the module imports, or whose module it imports
    (``from flax.training import train_state``)."""
    imported = {model.resolver.absolute(path) for path in model.index.module.imports.values()}
    return tuple(
        LibraryRecord(qualname, fields)
        for qualname, fields in library_records().items()
        if qualname in imported or qualname.rpartition(".")[0] in imported
    )


def _callee(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _pytree_class(
    model: SemanticModel,
    cls: ast.ClassDef,
    scope: Scope,
    decorators: set[str | None],
    registration: object,
    known: dict[ast.ClassDef, PytreeClass],
) -> PytreeClass | None:
    bases = [model.resolver.qualname(base, scope) for base in cls.bases]
    inherited = [known[b] for b in (model.class_named(base, scope) for base in cls.bases) if b in known]
    own = _own_fields(model, cls, scope)
    measured = [field for base in bases if base in library_records() for field in library_records()[base]]
    if measured:  # a subclass of flax's `TrainState`: a struct dataclass with the base's fields first
        fields = [(name, None, kind == "static") for name, kind in measured]
        return _make(cls, scope, [*fields, *own], set(), measured=tuple(measured))
    if set(bases) & NAMED_TUPLES:
        return _make(cls, scope, own, set(), is_tuple=True)
    registered = isinstance(registration, tuple) or bool(decorators & REGISTER_DATACLASS)
    if (
        (decorators & DATACLASSES and registered)
        or decorators & PYTREE_DATACLASSES
        or set(bases) & PYTREE_BASES
    ):
        meta = set(registration[1]) if isinstance(registration, tuple) else set()
        return _make(cls, scope, [*_inherited(inherited), *own], meta)
    if set(bases) & EQUINOX_BASES or any(base.only_arrays_traced for base in inherited):
        return _make(cls, scope, [*_inherited(inherited), *own], set(), only_arrays=True)
    if inherited and not any(base.is_tuple for base in inherited):
        return _make(cls, scope, [*_inherited(inherited), *own], set())
    return None


Field = tuple[str, ast.expr | None, bool]  # name, annotation, static


def _inherited(bases: list[PytreeClass]) -> list[Field]:
    annotations = {name: annotation for base in bases for name, annotation in base.annotations}
    return [(name, annotations.get(name), name in base.static) for base in bases for name in base.fields]


def _make(
    cls: ast.ClassDef,
    scope: Scope,
    fields: list[Field],
    meta: set[str],
    is_tuple: bool = False,
    only_arrays: bool = False,
    measured: tuple[tuple[str, str], ...] = (),
) -> PytreeClass:
    order: dict[str, Field] = {}
    for field in fields:
        order[field[0]] = field  # a redefined field keeps its place, as in a dataclass
    static = frozenset(name for name, _, is_static in order.values() if is_static) | meta
    return PytreeClass(
        cls,
        tuple(order),
        static,
        tuple((name, annotation) for name, annotation, _ in order.values()),
        scope,
        is_tuple,
        only_arrays,
        measured,
    )


def _own_fields(model: SemanticModel, cls: ast.ClassDef, scope: Scope) -> list[Field]:
    fields: list[Field] = []
    for stmt in cls.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.simple):
            continue
        annotation = stmt.annotation
        base = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        if model.resolver.qualname(base, scope) in ("typing.ClassVar", "typing.Final"):
            continue
        fields.append((stmt.target.id, annotation, _is_static_field(model, stmt.value, scope)))
    return fields


def _is_static_field(model: SemanticModel, default: ast.expr | None, scope: Scope) -> bool:
    """``field(metadata={"static": True})``, ``struct.field(pytree_node=False)``,
    ``eqx.field(static=True)``, ``eqx.static_field()``."""
    if not isinstance(default, ast.Call):
        return False
    callee = model.resolver.qualname(default.func, scope)
    if callee in STATIC_FIELD_CALLS:
        return True
    if callee not in FIELD_CALLS:
        return False
    for keyword in default.keywords:
        if keyword.arg == "static" and _is_true(keyword.value):
            return True
        if keyword.arg == "pytree_node" and _is_false(keyword.value):
            return True
        if keyword.arg == "metadata" and _says_static(keyword.value):
            return True
    return False


def _says_static(metadata: ast.expr) -> bool:
    if isinstance(metadata, ast.Dict):
        return any(
            isinstance(k, ast.Constant) and k.value == "static" and _is_true(v)
            for k, v in zip(metadata.keys, metadata.values)
        )
    if isinstance(metadata, ast.Call) and isinstance(metadata.func, ast.Name) and metadata.func.id == "dict":
        return any(k.arg == "static" and _is_true(k.value) for k in metadata.keywords)
    return False


def _is_true(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is True


def _is_false(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is False


def _registered_by_call(model: SemanticModel) -> dict[str, object]:
    """Classes registered by a module-level call: ``register_dataclass(C, data_fields=...,
    meta_fields=[...])`` gives ``(data, meta)``; ``register_pytree_node(C, ...)`` gives "custom"."""
    found: dict[str, object] = {}
    module = model.index.module
    for stmt in model.tree.body:
        call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if not isinstance(call, ast.Call) or not call.args or not isinstance(call.args[0], ast.Name):
            continue
        callee = model.resolver.qualname(call.func, module)
        name = call.args[0].id
        if callee in REGISTER_DATACLASS:
            found[name] = (_strings(call, "data_fields", 1), _strings(call, "meta_fields", 2))
        elif callee in CUSTOM_REGISTRATION:
            found[name] = "custom"
    return found


def _strings(call: ast.Call, keyword: str, position: int) -> tuple[str, ...]:
    argument = next((k.value for k in call.keywords if k.arg == keyword), None)
    if argument is None and len(call.args) > position:
        argument = call.args[position]
    if not isinstance(argument, (ast.List, ast.Tuple)):
        return ()
    return tuple(e.value for e in argument.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))


def _self_attributes(cls: ast.ClassDef) -> set[str]:
    """Names assigned as ``self.name`` in the class's methods, and its annotated names."""
    found: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    return found


def traced_field(model: SemanticModel, pytree: PytreeClass, name: str, depth: int = 0) -> Value:
    """What field ``name`` of a traced instance of ``pytree`` holds."""
    if name in pytree.static:
        return STATIC
    measured = dict(pytree.measured).get(name)
    if measured is not None:
        return MEASURED_KINDS[measured]
    annotation = dict(pytree.annotations).get(name)
    nested = model.class_named(annotation, pytree.scope) if annotation is not None else None
    fields = model.pytree_fields.classes
    if nested is not None and nested in fields and depth < MAX_DEPTH:
        return traced_instance(model, fields[nested], depth + 1)
    kind = annotation_kind_in(model, annotation, pytree.scope)
    if kind == "array":
        return TRACED_ARRAY
    if pytree.only_arrays_traced:
        return UNKNOWN
    if kind == "container":
        return TRACED_CONTAINER
    return TRACED


def traced_instance(model: SemanticModel, pytree: PytreeClass, depth: int = 0) -> Value:
    """An instance of ``pytree`` passed to a transformation: each field as it is traced."""
    fields = [(name, traced_field(model, pytree, name, depth)) for name in pytree.fields]
    return record(InstanceRef(pytree.node), fields, pytree.is_tuple)


def class_declaring(model: SemanticModel, names: frozenset[str], named_tuple: bool) -> PytreeClass | None:
    """The one pytree class of the module (a NamedTuple, or another record) declaring every
    field of ``names``; None when none or several do, or a custom pytree class has one."""
    fields = model.pytree_fields
    if names & fields.custom_attributes:
        return None
    found = [p for p in fields.classes.values() if p.is_tuple == named_tuple and names <= set(p.fields)]
    return found[0] if len(found) == 1 else None


def record_kind_of_field(model: SemanticModel, name: str) -> str | None:
    """How a record of unknown class with a field ``name`` is rebuilt with a new value there:
    ``"tuple"`` (``_replace``) when every pytree class of the module declaring the field is a
    NamedTuple, ``"dataclass"`` (``dataclasses.replace``) when every one is a dataclass; None
    when none declares it, they differ, one is an equinox ``Module`` or a custom pytree class has
    such an attribute."""
    fields = model.pytree_fields
    declaring = [p for p in fields.classes.values() if name in p.fields]
    if not declaring or name in fields.custom_attributes or any(p.only_arrays_traced for p in declaring):
        return None
    kinds = {"tuple" if p.is_tuple else "dataclass" for p in declaring}
    return kinds.pop() if len(kinds) == 1 else None


def field_by_name(model: SemanticModel, name: str) -> Value | None:
    """What attribute ``name`` of a traced pytree of unknown class holds: the field of that
    name of the module's pytree classes, when they all agree it is traced (None otherwise, or
    when a custom pytree class has such an attribute)."""
    fields = model.pytree_fields
    if name in fields.custom_attributes:
        return None
    values = [traced_field(model, p, name) for p in fields.classes.values() if name in p.fields]
    values += [MEASURED_KINDS[kind] for r in fields.library for field, kind in r.fields if field == name]
    if not values or any(v in (STATIC, UNKNOWN) for v in values):
        return None
    first = values[0]
    return first if all(v == first for v in values) else TRACED
