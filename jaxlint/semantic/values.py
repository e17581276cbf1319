"""The abstract values of the semantic model: what jaxlint knows about one Python value.

A :class:`Value` is immutable and describes one Python value at one point of the program:

- a *leaf*: a JAX array or a number, traced or concrete, with what is known of its dtype (a
  boolean mask, an integer array, a PRNG key);
- a *container*: a tuple, list or dict, with the value of each item where it is known (the
  elements of ``(a, b)``, the entries of ``{"w": w}``) and, always, whether any item may be a
  tracer. Its truthiness and length are static even when it holds tracers;
- a *static* Python value: literals, shapes, dtypes, static arguments, modules;
- *unknown*: the model cannot tell, and rules stay silent.

A value also carries the identities of the PRNG keys it may be (:func:`key_ids`), which the
interpreter follows to find a key consumed twice.

"May be traced" is kept by joins (a tracer on either path is a tracer on one path); the other
facts hold after a join only where both paths agree. Rules ask the named predicates at the end of
this module; nothing outside it touches the representation.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

# The facts, as private bits: a value "is" each fact whose bit is set.
_TRACED = 1  # may be a tracer, or a container holding one
_ARRAY = 2  # a JAX array (a leaf, not a container)
_BOOL = 4  # a boolean dtype: a mask
_STATIC = 8  # a concrete Python value that holds no tracer
_CONTAINER = 16  # a tuple, list or dict
_MAPPING = 32  # a dict: iterating it gives its keys, which are never tracers
_ELEMENTS = 64  # a list known as a whole whose every element is a JAX array (`[jnp.zeros(n) for ...]`)
_NUMPY = 128  # a NumPy array or scalar (static; equinox's filters trace it as they trace an array)
_MUST = _ARRAY | _BOOL | _STATIC | _CONTAINER | _MAPPING | _ELEMENTS | _NUMPY  # kept by a join if both agree

Members = tuple[tuple[object, "Value"], ...]


@dataclass(frozen=True)
class LayerRef:
    """One transformation applied to a function value: ``jax.jit`` as ``call`` (its keywords say
    which parameters are static), or as a decorator (``call`` None), when ``offset`` leading
    parameters and the keywords ``bound`` were already filled (by ``partial`` or ``self``)."""

    transform: str
    call: ast.Call | None
    site: ast.expr
    offset: int = 0
    bound: frozenset[str] = frozenset()


@dataclass(frozen=True)
class FunctionRef:
    """A function of this module (a def or a lambda), with ``offset`` leading parameters bound
    (``self``, ``partial``), the keywords ``bound`` by ``partial``, and the transformations applied
    to it, innermost first."""

    node: ast.AST
    offset: int = 0
    bound: frozenset[str] = frozenset()
    layers: tuple[LayerRef, ...] = ()
    skip: int = 0  # leading call arguments the function does not receive (flax `apply(variables, x)`)
    # the PRNG keys it holds, bound by ``partial`` or as a nested ``def``'s defaults:
    # (parameter, how the key is written, its key identities)
    held: tuple[tuple[str, str, frozenset[object]], ...] = ()
    # the traced values ``partial`` bound, by parameter: the function gets them when called
    traced_bound: tuple[tuple[str, Value], ...] = ()


@dataclass(frozen=True)
class LibraryRef:
    """A function of a library (``jax.numpy.zeros``), with the transformations applied to it."""

    qualname: str
    layers: tuple[LayerRef, ...] = ()
    # the PRNG keys ``partial(jax.random.normal, key)`` bound: (parameter, text, identities)
    held: tuple[tuple[str, str, frozenset[object]], ...] = ()


@dataclass(frozen=True)
class ClassRef:
    """A class of this module: calling it makes an instance."""

    node: ast.ClassDef


@dataclass(frozen=True)
class InstanceRef:
    """An instance of a class of this module: its methods are functions of this module."""

    node: ast.ClassDef


@dataclass(frozen=True)
class Field:
    """Among a value's members, the key of an attribute of a record (a field of a NamedTuple,
    a registered dataclass, a flax struct or an equinox module): never equal to a dict key."""

    name: str


Ref = FunctionRef | LibraryRef | ClassRef | InstanceRef


class Value:
    """What the model knows about one Python value. Build values with the constructors of this
    module and ask them with its predicates; two values are equal when they say the same."""

    __slots__ = ("_flags", "_hash", "_items", "_keys", "_members", "_refs")

    def __init__(
        self,
        flags: int,
        items: tuple[Value, ...] | None = None,
        members: Members | None = None,
        keys: frozenset[object] = frozenset(),
        refs: frozenset[Ref] = frozenset(),
    ) -> None:
        if flags & _TRACED:
            flags &= ~_STATIC  # a value that may hold a tracer is not a concrete Python value
        self._flags = flags
        self._items = items  # every element of a sequence of known length, in order
        self._members = members  # the entries of a dict known by constant key (others may exist)
        self._keys = keys  # the PRNG keys this value may be
        self._refs = refs  # the functions, classes and instances this value may be
        self._hash = hash((flags, items, members, keys, refs))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Value) or self._hash != other._hash:
            return False
        return (
            self._flags == other._flags
            and self._items == other._items
            and self._members == other._members
            and self._keys == other._keys
            and self._refs == other._refs
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return describe(self)


_LEAVES: dict[int, Value] = {}


def _leaf(flags: int) -> Value:
    """The value with just these facts (shared: leaves are the common case)."""
    found = _LEAVES.get(flags)
    if found is None:
        found = _LEAVES[flags] = Value(flags)
    return found


UNKNOWN = _leaf(0)
STATIC = _leaf(_STATIC)
TRACED = _leaf(_TRACED)  # a tracer, or something holding one
TRACED_ARRAY = _leaf(_TRACED | _ARRAY)
TRACED_MASK = _leaf(_TRACED | _ARRAY | _BOOL)
CONCRETE_ARRAY = _leaf(_ARRAY)  # a JAX array known not to be a tracer here
CONCRETE_MASK = _leaf(_ARRAY | _BOOL)
CONTAINER = _leaf(_CONTAINER)  # a tuple, list or dict whose items are not known
TRACED_CONTAINER = _leaf(_CONTAINER | _TRACED)
STATIC_CONTAINER = _leaf(_CONTAINER | _STATIC)
NUMPY_ARRAY = _leaf(_STATIC | _NUMPY)  # `np.zeros(3)`, `np.float32(0.5)`: concrete, not a JAX array


# ---------------------------------------------------------------------------- constructors


def array(traced: bool, mask: bool = False) -> Value:
    """A JAX array: a tracer when ``traced``; a boolean mask when ``mask``."""
    return _leaf(_ARRAY | (_TRACED if traced else 0) | (_BOOL if mask else 0))


def sequence(items: Iterable[Value]) -> Value:
    """A tuple (or list) whose elements are known one by one."""
    items = tuple(items)
    return Value(_container_flags(items), items=items)


def mapping(entries: Iterable[tuple[object, Value]], others: Iterable[Value] = ()) -> Value:
    """A dict whose entries under constant keys are known (``others``: the values of entries
    under computed keys, known only as a whole)."""
    members = tuple(entries)
    rest = tuple(others)
    flags = _container_flags((*(v for _, v in members), *rest)) | _MAPPING
    if not rest:
        return Value(flags, members=members)
    # known only as a whole: it still holds the keys of its parts (`{**carry, "n": n}`)
    keys = frozenset().union(*(all_key_ids(v) for v in (*(v for _, v in members), *rest)))
    return Value(flags, keys=keys)


def entries(value: Value) -> tuple[tuple[object, Value], ...] | None:
    """The entries of a dict known by constant key, when its entries are all known."""
    return value._members if value._flags & _MAPPING else None


def container(values: Iterable[Value], is_mapping: bool = False) -> Value:
    """A tuple, list, set or dict built from ``values``, known only as a whole; a sequence of
    JAX arrays only (a comprehension of them) is known to hold arrays."""
    values = tuple(values)
    flags = _container_flags(values) | (_MAPPING if is_mapping else 0)
    if values and not is_mapping and all(v._flags & (_ARRAY | _CONTAINER) == _ARRAY for v in values):
        flags |= _ELEMENTS
    return _leaf(flags)


def without_elements(value: Value) -> Value:
    """``value`` after something not known to be an array went into it (``xs[0] = 1.0``)."""
    return _replace_flags(value, value._flags & ~_ELEMENTS)


def _container_flags(values: tuple[Value, ...]) -> int:
    traced = any(v._flags & _TRACED for v in values)
    static = all(v._flags & _STATIC for v in values)
    return _CONTAINER | (_TRACED if traced else 0) | (_STATIC if static and not traced else 0)


def record(ref: InstanceRef, fields: Iterable[tuple[str, Value]], is_tuple: bool) -> Value:
    """An instance of a pytree class of this module with the value of each field (in the order
    of its constructor; ``is_tuple``: a NamedTuple, whose elements are its fields). A pytree
    node, not a leaf: its truthiness is static, and it holds tracers when a field does."""
    return _record(tuple(fields), is_tuple, frozenset({ref}))


def _record(fields: tuple[tuple[str, Value], ...], is_tuple: bool, instances: frozenset[Ref]) -> Value:
    values = tuple(value for _, value in fields)
    members = tuple((Field(name), value) for name, value in fields)
    return Value(_container_flags(values), values if is_tuple else None, members, frozenset(), instances)


# the member that marks a record as a library layer (see :func:`library_layer`)
_LAYER = Field("__layer__")


def library_layer(fields: Iterable[tuple[str, Value]]) -> Value:
    """An equinox library layer (``eqx.nn.Linear(...)``) with the value of each field known."""
    return _record((*fields, (_LAYER.name, STATIC)), False, frozenset())


def traced_variable(held: frozenset[str] | None = None, traced: bool = True) -> Value:
    """A flax nnx variable whose value an nnx transformation traces (``v.value`` is a tracer),
    or, given the names of its variables, an nnx layer holding such variables. With ``traced``
    False: the same outside any transformation, each value a concrete JAX array."""
    if held is not None:
        return _record(
            tuple((name, traced_variable(None, traced)) for name in sorted(held)), False, frozenset()
        )
    return _record((("value", TRACED_ARRAY if traced else array(False)),), False, frozenset())


def is_nnx_variable(value: Value) -> bool:
    """A flax nnx variable (see :func:`traced_variable`): its ``.value`` is set in place."""
    members = value._members or ()
    return not value._refs and len(members) == 1 and members[0][0] == Field("value")


def field_of(value: Value, name: str) -> Value | None:
    """The value of field ``name`` of a record, when it is known."""
    for key, entry in value._members or ():
        if isinstance(key, Field) and key.name == name:
            return entry
    return None


def record_kind(value: Value) -> str | None:
    """``"tuple"`` for a known NamedTuple, ``"layer"`` for an equinox library layer (whose
    constructor takes no fields: ``eqx.tree_at`` replaces one), ``"dataclass"`` for another
    known record, else None."""
    if not value._members or not all(isinstance(k, Field) for k, _ in value._members):
        return None
    if any(k == _LAYER for k, _ in value._members):
        return "layer"
    return "tuple" if value._items is not None else "dataclass"


def with_fields(value: Value, updates: dict[str, Value]) -> Value | None:
    """A record with some fields replaced (``_replace``, ``dataclasses.replace``); None when
    ``value`` is not a known record or has no such field."""
    members = value._members
    if not members or not updates.keys() <= {k.name for k, _ in members if isinstance(k, Field)}:
        return None
    fields = [(k.name, updates.get(k.name, v)) for k, v in members if isinstance(k, Field)]
    instances = frozenset(ref for ref in value._refs if isinstance(ref, InstanceRef))
    if len(fields) != len(members) or len(instances) > 1:
        return None
    # no instance: a record another module built (its class is not this module's to know)
    return _record(tuple(fields), value._items is not None, instances)


def keys_of_the_keyed_field(value: Value) -> frozenset[object]:
    """The keys of a known record held in one field alone (``EnvState(pos, key)``: the ones
    ``key`` may be, after a loop's join); empty where no field or several fields hold keys."""
    if record_kind(value) is None:
        return frozenset()
    keyed = [all_key_ids(entry) for _, entry in value._members or ()]
    keyed = [keys for keys in keyed if keys]
    return keyed[0] if len(keyed) == 1 else frozenset()


def with_items(value: Value, items: Iterable[Value]) -> Value:
    """``value`` with its elements replaced, in order: a NamedTuple stays that record (its
    fields keep their names); any other sequence becomes a plain one."""
    found = tuple(items)
    members = value._members or ()
    if record_kind(value) == "tuple" and len(members) == len(found):
        fields = tuple((key.name, item) for (key, _), item in zip(members, found, strict=True))  # pyright: ignore[reportAttributeAccessIssue]
        return _record(fields, True, frozenset(r for r in value._refs if isinstance(r, InstanceRef)))
    return sequence(found)


def traced_leaves(value: Value, traced: bool = True) -> Value:
    """``value`` as a transformation passes it to the function it traces (a ``lax`` body's
    carry): the same pytree, every leaf a tracer, no key identities. With ``traced`` False:
    the same pytree of concrete leaves (what a ``lax`` loop returns to eager code)."""
    tracer = _TRACED if traced else 0
    if value._items is None and value._members is None:
        if value._flags & _CONTAINER:
            return _leaf(_CONTAINER | tracer | (value._flags & _MAPPING))
        return _leaf(tracer | (value._flags & (_ARRAY | _BOOL)))
    items = tuple(traced_leaves(v, traced) for v in value._items) if value._items is not None else None
    members = (
        tuple((k, traced_leaves(v, traced)) for k, v in value._members)
        if value._members is not None
        else None
    )
    flags = _CONTAINER | tracer | (value._flags & (_MAPPING | _ARRAY))  # (an array of keys stays one)
    instances = frozenset(ref for ref in value._refs if isinstance(ref, InstanceRef))
    return Value(flags, items, members, frozenset(), instances)


def gradient_like(value: Value, traced: bool) -> Value | None:
    """What ``jax.grad`` returns for an argument ``value``: the same pytree, every leaf a JAX
    array (a tracer when ``traced``), no key identities. None where the pytree is not known
    (a value of unknown kind may be a dict, a container of unknown items anything)."""
    if value._items is None and value._members is None:
        if value._flags & _CONTAINER:
            return None
        if value._flags & (_ARRAY | _NUMPY) or (value._flags & _STATIC and not value._refs):
            return _leaf(_ARRAY | (_TRACED if traced else 0))
        return None
    items = tuple(gradient_like(v, traced) for v in value._items) if value._items is not None else None
    members = (
        tuple((k, gradient_like(v, traced)) for k, v in value._members)
        if value._members is not None
        else None
    )
    if (items is not None and None in items) or (members is not None and any(v is None for _, v in members)):
        return None
    flags = _CONTAINER | (_TRACED if traced else 0) | (value._flags & _MAPPING)
    return Value(flags, items, members)  # pyright: ignore[reportArgumentType]


def is_numpy_array(value: Value) -> bool:
    """A NumPy array or scalar (``np.zeros(3)``): concrete and mutable in place."""
    return bool(value._flags & _NUMPY) and not value._flags & (_CONTAINER | _TRACED)


def filter_traced(value: Value, depth: int = 0) -> Value | None:
    """``value`` as equinox's ``filter_jit``/``filter_vmap`` passes it to the function it traces:
    each JAX or NumPy array leaf a tracer (``eqx.is_array``), every other leaf as it was. None when it holds no known JAX
    array (a Python number, or a container of unknown items, stays static there)."""
    if value._items is None and value._members is None:
        if value._flags & (_ARRAY | _NUMPY) and not value._flags & _CONTAINER:
            return _leaf(_TRACED | _ARRAY | (value._flags & _BOOL)) if not value._flags & _TRACED else None
        if value._flags & _ELEMENTS and not value._flags & _TRACED:
            return _leaf(value._flags | _TRACED)  # a list of arrays: each one traced
        return None
    if depth > 4:
        return None
    items = [filter_traced(v, depth + 1) for v in value._items or ()]
    members = [(k, filter_traced(v, depth + 1)) for k, v in value._members or ()]
    if all(v is None for v in items) and all(v is None for _, v in members):
        return None
    new_items = (
        tuple(v if new is None else new for v, new in zip(value._items, items))
        if value._items is not None
        else None
    )
    new_members = (
        tuple((k, v if new is None else new) for (k, v), (_, new) in zip(value._members, members))
        if value._members is not None
        else None
    )
    return Value(value._flags | _TRACED, new_items, new_members, value._keys, value._refs)


def compiled_output(value: Value) -> Value:
    """What a compiled function returns to eager code for the traced ``value`` it returned:
    the same pytree, each traced leaf a concrete JAX array; other leaves as they were (a
    ``None``), or unknown."""

    def leaf(part: Value) -> Value:
        if part._flags & _TRACED:
            return _leaf(_ARRAY | (part._flags & _BOOL))
        return part if part._flags & _STATIC and not part._refs and not part._keys else UNKNOWN

    return _same_pytree(value, leaf)


def gradient(value: Value) -> Value:
    """What ``jax.grad`` returns to eager code for the argument ``value`` it differentiates:
    the same pytree, each array leaf a concrete JAX array; unknown where a leaf is not known
    to be an array."""
    return _same_pytree(value, lambda part: _leaf(_ARRAY) if part._flags & _ARRAY else UNKNOWN)


def _same_pytree(value: Value, leaf: Callable[[Value], Value]) -> Value:
    """``value``'s pytree with each leaf mapped by ``leaf``; a container of unknown parts stays
    a container (a dict stays a dict)."""
    if value._items is None and value._members is None:
        return _leaf(_CONTAINER | (value._flags & _MAPPING)) if value._flags & _CONTAINER else leaf(value)
    items = tuple(_same_pytree(v, leaf) for v in value._items) if value._items is not None else None
    members = (
        tuple((k, _same_pytree(v, leaf)) for k, v in value._members) if value._members is not None else None
    )
    return Value(_CONTAINER | (value._flags & _MAPPING), items, members, frozenset(), frozenset())


def keyed_parts(
    value: Value, key: object, derive: Callable[[object, object], object], depth: int = 0
) -> Value:
    """``value`` known as the key ``key``, and each of its known elements, fields and entries
    as the key ``derive(key, index)`` (a parameter whose pytree is known: ``k, x = carry``)."""
    items, members = value._items, value._members
    if depth < 4 and items is not None:
        items = tuple(keyed_parts(v, derive(key, i), derive, depth + 1) for i, v in enumerate(items))
    if depth < 4 and members is not None:
        members = tuple(
            (k, keyed_parts(v, derive(key, k.name if isinstance(k, Field) else k), derive, depth + 1))
            for k, v in members
        )
    return Value(value._flags, items, members, frozenset({key}), value._refs)


def with_keys(value: Value, keys: frozenset[object]) -> Value:
    """``value``, known to be one of the PRNG keys ``keys``."""
    if value._keys == keys:
        return value
    return Value(value._flags, value._items, value._members, keys, value._refs)


def referring(refs: Iterable[Ref], static: bool = True) -> Value:
    """A function, class or instance of this module (or a library function): one of ``refs``.
    Functions and classes are static Python values; an instance may hold arrays (``static``
    False: its facts are unknown)."""
    return Value(_STATIC if static else 0, refs=frozenset(refs))


# ---------------------------------------------------------------------------- operations


def join(a: Value, b: Value) -> Value:
    """What holds on either of two paths: may-be-traced and the key identities of both are kept,
    the other facts only where the two agree; items are joined item by item."""
    if a is b or a == b:
        return a
    flags = ((a._flags | b._flags) & _TRACED) | (a._flags & b._flags & _MUST)
    items = None
    if a._items is not None and b._items is not None and len(a._items) == len(b._items):
        items = tuple(join(x, y) for x, y in zip(a._items, b._items))
    members = _join_members(a._members, b._members)
    keys = a._keys | b._keys
    refs = a._refs | b._refs
    if items is None and members is None and not keys and not refs:
        return _leaf(flags)
    return Value(flags, items, members, keys, refs)


def _join_members(a: Members | None, b: Members | None) -> Members | None:
    if a is None or b is None:
        return None
    right = dict(b)
    joined = tuple((key, join(value, right[key])) for key, value in a if key in right)
    return joined or None


def join_all(values: Iterable[Value], empty: Value = STATIC) -> Value:
    """Join several values; ``empty`` when there are none."""
    result: Value | None = None
    for value in values:
        result = value if result is None else join(result, value)
    return empty if result is None else result


def combine(values: Iterable[Value]) -> Value:
    """The value of an operation whose result depends on all ``values`` (arithmetic, calls)."""
    traced = False
    static = True
    array_ = False
    numpy = False
    for value in values:
        flags = value._flags
        traced = traced or bool(flags & _TRACED)
        static = static and bool(flags & _STATIC)
        array_ = array_ or bool(flags & _ARRAY)
        numpy = numpy or bool(flags & _NUMPY)
    if traced:
        return TRACED_ARRAY if array_ else TRACED
    if static:  # NumPy's arithmetic with Python numbers gives NumPy values (`np.float32(0.1) * 0.9`)
        return NUMPY_ARRAY if numpy else STATIC
    return CONCRETE_ARRAY if array_ else UNKNOWN


def element(value: Value) -> Value:
    """The value of one element of ``value`` (iteration, unpacking): the keys of a dict."""
    flags = value._flags
    if flags & _MAPPING:
        return STATIC  # dict keys are hashable: never tracers
    if value._items is not None:
        return join_all(value._items, UNKNOWN)
    if flags & _STATIC:
        return STATIC
    if flags & _ELEMENTS:
        return _leaf(_ARRAY | (flags & _TRACED))
    return _leaf(flags & (_TRACED | _ARRAY | _BOOL))  # an element of a container is not known to be one


def iterated(value: Value) -> Value:
    """The value a ``for`` loop binds iterating over ``value``: the keys of a dict, the rows of an
    array, the elements of a sequence. A value of unknown kind (a traced argument, which may be
    an array, a tuple or a dict) gives a value unknown too: a dict's keys are never tracers."""
    if value._items is None and not value._flags & (_MAPPING | _STATIC | _ARRAY | _CONTAINER):
        return UNKNOWN
    return element(value)


def tree_leaves(value: Value, depth: int = 0) -> tuple[Value, ...] | None:
    """The leaves ``jax.tree.leaves`` gives of ``value``, in its order (a dict's by sorted key),
    when every part of the tree is known down to its arrays; None otherwise."""
    if value._flags & _ARRAY and not value._flags & _CONTAINER:
        return (value,)
    if depth > 8 or not value._flags & _CONTAINER:
        return None
    parts: list[Value] = []
    if value._items is not None:
        parts = list(value._items)
    elif value._members is not None and value._flags & _MAPPING:
        keys = [k for k, _ in value._members]
        if not all(type(k) is str for k in keys) and not all(type(k) is int for k in keys):
            return None
        parts = [v for _, v in sorted(value._members, key=lambda entry: entry[0])]  # pyright: ignore[reportArgumentType, reportCallIssue]
    elif value._members is not None and all(isinstance(k, Field) for k, _ in value._members):
        parts = [v for _, v in value._members]  # a dataclass record: its fields in order
    else:
        return None
    leaves: list[Value] = []
    for part in parts:
        found = tree_leaves(part, depth + 1)
        if found is None:
            return None
        leaves.extend(found)
    return tuple(leaves)


def entry_values(value: Value) -> Value:
    """The value of one entry of a dict (``d.values()``, ``d[k]`` with ``k`` unknown)."""
    if value._members is not None:
        known = join_all((v for _, v in value._members), UNKNOWN)
        return known if value._flags & _TRACED == known._flags & _TRACED else join(known, TRACED)
    flags = value._flags
    if flags & _STATIC:
        return STATIC
    return _leaf(flags & _TRACED)


def subscript(value: Value, index: object) -> Value | None:
    """The value of ``value[index]`` for a constant ``index`` when it is known: an element of a
    sequence of known length, or the entry of a dict under that key."""
    if value._items is not None and type(index) is int and -len(value._items) <= index < len(value._items):
        return value._items[index]
    if value._members is not None:
        for key, entry in value._members:
            if key == index:
                return entry
    return None


def keys_along(value: Value, path: tuple[object, ...]) -> frozenset[object] | None:
    """The keys at ``value[path[0]][path[1]]...`` (items, entries or fields): of the part where
    it is known, else of the part of the keys standing for a whole whose parts are not known
    (a traced argument); None where the path leads nowhere known."""
    from jaxlint.semantic.keys import along

    for position, index in enumerate(path):
        if value._items is None and value._members is None:
            return frozenset(along(key, path[position:]) for key in key_ids(value))
        part = subscript(value, index)
        if part is None and isinstance(index, str):
            part = field_of(value, index)
        if part is None:
            return None
        value = part
    return all_key_ids(value)


def keys_along_all(value: Value, paths: Iterable[tuple[object, ...]]) -> frozenset[object] | None:
    """The keys at every one of ``paths`` in ``value`` (see :func:`keys_along`); None where
    there are no paths or one leads nowhere known."""
    parts = [keys_along(value, path) for path in paths]
    if not parts or any(part is None for part in parts):
        return None
    return frozenset().union(*parts)  # pyright: ignore[reportArgumentType]


def known_elements(value: Value) -> tuple[Value, ...] | None:
    """Every element of a sequence of known length, in order (None when the length is unknown)."""
    return value._items


def concatenate(a: Value, b: Value) -> Value | None:
    """``a + b`` for two sequences of known length."""
    if a._items is None or b._items is None:
        return None
    return sequence((*a._items, *b._items))


def whole(value: Value) -> Value:
    """``value`` known only as a whole: its facts, without its items or key identities."""
    return _leaf(value._flags)


def known_container(value: Value) -> Value:
    """``value``, shown by an ``isinstance`` test to be a Python container (so not an array)."""
    return _leaf(_CONTAINER | (value._flags & (_TRACED | _STATIC)))


def traced(value: Value) -> Value:
    """``value``, now (also) a tracer: an array argument of a jitted function."""
    return _replace_flags(value, value._flags | _TRACED)


def untraced(value: Value) -> Value:
    """``value`` seen where nothing is abstract (a helper's result returned to eager code)."""
    if not value._flags & _TRACED:
        return value
    return _replace_flags(value, value._flags & ~_TRACED)


def as_array(value: Value) -> Value:
    """``value``, known to be a JAX array leaf (an annotation, a method only arrays have)."""
    return _replace_flags(value, value._flags | _ARRAY)


def as_container(value: Value, is_mapping: bool = False) -> Value:
    """``value``, known to be a container (and a dict, when ``is_mapping``)."""
    return _replace_flags(value, value._flags | _CONTAINER | (_MAPPING if is_mapping else 0))


def holding_tracer(value: Value) -> Value:
    """A container after a tracer was stored in it (``xs.append(t)``, ``d[k] = t``)."""
    return _leaf((value._flags & ~_STATIC) | _TRACED)


def refine(a: Value, b: Value) -> Value:
    """A value of which both ``a`` and ``b`` are true (two transformations' views of one parameter)."""
    return _replace_flags(a, a._flags | b._flags)


def leaf_part(value: Value, keep_mask: bool) -> Value:
    """The array-ness and traced-ness of ``value`` (``x.T``, ``x.at``: an array like ``x``;
    ``keep_mask``: its dtype too)."""
    flags = value._flags | _ARRAY
    return _leaf(flags & (_TRACED | _ARRAY | (_BOOL if keep_mask else 0)))


def mask_of(value: Value) -> Value:
    """``value``'s dtype made boolean (a comparison of arrays, ``x.any()``)."""
    return _replace_flags(value, value._flags | _BOOL)


def not_mask(value: Value) -> Value:
    """``value`` with no dtype known (``-x``, ``abs(x)`` of a mask are no longer masks)."""
    return _replace_flags(value, value._flags & ~_BOOL)


def _replace_flags(value: Value, flags: int) -> Value:
    if flags == value._flags:
        return value
    if value._items is None and value._members is None and not value._keys and not value._refs:
        return _leaf(flags)
    return Value(flags, value._items, value._members, value._keys, value._refs)


# ---------------------------------------------------------------------------- predicates


def is_traced(value: Value) -> bool:
    """May be a tracer, or a container holding one."""
    return bool(value._flags & _TRACED)


def is_traced_leaf(value: Value) -> bool:
    """May be a tracer itself (not a container of tracers): what ``bool()``/``int()`` would raise on."""
    return bool(value._flags & _TRACED) and not value._flags & _CONTAINER


def is_static(value: Value) -> bool:
    """A concrete Python value that holds no tracer."""
    return bool(value._flags & _STATIC)


def is_plain_static(value: Value) -> bool:
    """A concrete value and nothing more known of it (a Python value, or a NumPy array)."""
    return value in (STATIC, NUMPY_ARRAY)


def is_container(value: Value) -> bool:
    """A tuple, list or dict (perhaps of tracers): its truthiness and length are static."""
    return bool(value._flags & _CONTAINER)


def is_mapping(value: Value) -> bool:
    """A dict: iterating it gives its keys."""
    return bool(value._flags & _MAPPING)


def holds_arrays(value: Value) -> bool:
    """A list known as a whole whose every element is a JAX array."""
    return bool(value._flags & _ELEMENTS)


def is_jax_array(value: Value) -> bool:
    """A JAX array (a leaf), traced or not."""
    return bool(value._flags & _ARRAY)


def is_traced_array(value: Value) -> bool:
    return value._flags & (_TRACED | _ARRAY) == _TRACED | _ARRAY


def is_mask(value: Value) -> bool:
    """A boolean JAX array."""
    return value._flags & (_ARRAY | _BOOL) == _ARRAY | _BOOL


def is_traced_mask(value: Value) -> bool:
    return value._flags & (_TRACED | _ARRAY | _BOOL) == _TRACED | _ARRAY | _BOOL


def instance_classes(value: Value) -> list[ast.ClassDef]:
    """The classes of this module ``value`` may be an instance of."""
    return [ref.node for ref in value._refs if isinstance(ref, InstanceRef)]


def is_unknown(value: Value) -> bool:
    return value == UNKNOWN


def key_ids(value: Value) -> frozenset[object]:
    """The PRNG keys ``value`` may be."""
    return value._keys


def without_keys(value: Value) -> Value:
    """``value`` with no key identities, in its elements and entries too: keys belong to one run
    of the interpreter over one function, and do not cross into another."""
    if not value._keys and not value._items and not value._members:
        return value
    items = tuple(without_keys(v) for v in value._items) if value._items is not None else None
    members = tuple((k, without_keys(v)) for k, v in value._members) if value._members is not None else None
    if items is None and members is None and not value._refs:
        return _leaf(value._flags)
    return Value(value._flags, items, members, frozenset(), value._refs)


def all_key_ids(value: Value) -> frozenset[object]:
    """The PRNG keys ``value`` may be or hold (in its known elements and entries too)."""
    found = value._keys
    for element in value._items or ():
        found = found | all_key_ids(element)
    for _, entry in value._members or ():
        found = found | all_key_ids(entry)
    return found


def refs(value: Value) -> frozenset[Ref]:
    """The functions, classes and instances ``value`` may be (empty: not one the model knows)."""
    return value._refs


# ---------------------------------------------------------------------------- text and JSON

_NAMES = (
    (_TRACED, "T"),
    (_ARRAY, "A"),
    (_BOOL, "B"),
    (_STATIC, "S"),
    (_CONTAINER, "C"),
    (_MAPPING, "D"),
    (_ELEMENTS, "E"),
    (_NUMPY, "N"),
)


def describe(value: Value) -> str:
    """A short text for tools and test failures: ``TA`` (traced array), ``S`` (static),
    ``(S, T)`` (a pair), ``{'w': T}`` (a dict), ``?`` (unknown)."""
    if value._items is not None:
        return (
            "(" + ", ".join(describe(v) for v in value._items) + ("," if len(value._items) == 1 else "") + ")"
        )
    if value._members is not None and all(isinstance(k, Field) for k, _ in value._members):
        return "(" + ", ".join(f"{k.name}={describe(v)}" for k, v in value._members) + ")"  # pyright: ignore[reportAttributeAccessIssue]
    if value._members is not None:
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in value._members) + ", ...}"
    text = "".join(letter for bit, letter in _NAMES if value._flags & bit) or "?"
    text += f"#{len(value._keys)}k" if value._keys else ""
    return text + "".join(f" {_describe_ref(ref)}" for ref in value._refs)


def _describe_ref(ref: Ref) -> str:
    if isinstance(ref, LibraryRef):
        name = ref.qualname
    else:
        node = ref.node
        name = (
            node.name
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            else "<lambda>"
        )
        name = f"{name}()" if isinstance(ref, InstanceRef) else name
    layers = ref.layers if isinstance(ref, (FunctionRef, LibraryRef)) else ()
    for layer in layers:
        name = f"{layer.transform.rsplit('.', 1)[-1]}({name})"
    return f"<{name}>"


def portable(value: Value) -> Value:
    """``value`` as another module's analysis sees it: its facts, items, entries and fields,
    without the key identities and references into this module's syntax tree (which another
    analysis of the same file, or another module, would not share)."""
    items, members = value._items, value._members
    if items is None and members is None:
        return _leaf(value._flags)
    if items is not None:
        items = tuple(portable(v) for v in items)
    if members is not None:
        members = tuple((_portable_key(k), portable(v)) for k, v in members)
    return Value(value._flags, items, members)


def _portable_key(key: object) -> object:
    """A member's key as JSON can hold it: a field, a string, an int; another constant (a
    float, a tuple) by its text."""
    if isinstance(key, (Field, str)) or (isinstance(key, int) and not isinstance(key, bool)):
        return key
    return repr(key)


def to_json(value: Value) -> Any:
    """``value`` as plain JSON data (for the cache and other modules): what :func:`portable`
    keeps of it, so that ``from_json(to_json(v)) == portable(v)``."""
    items, members = value._items, value._members
    if items is None and members is None:
        return value._flags
    if members is None and items is not None and value == sequence(items):
        return [to_json(v) for v in items]
    data: dict[str, Any] = {"flags": value._flags}
    if items is not None:
        data["items"] = [to_json(v) for v in items]
    if members is not None:
        data["members"] = [[_member_json(k), to_json(v)] for k, v in members]
    return data


def _member_json(key: object) -> Any:
    key = _portable_key(key)
    return {"field": key.name} if isinstance(key, Field) else key


def from_json(data: Any) -> Value:
    """The value :func:`to_json` wrote (``ValueError`` for anything else)."""
    if isinstance(data, bool):
        raise ValueError("not a value")
    if isinstance(data, int):
        if not 0 <= data < 2 * _MAPPING:
            raise ValueError("not a value")
        return _leaf(data)
    if isinstance(data, list):
        return sequence(from_json(v) for v in data)
    if not isinstance(data, dict):
        raise ValueError("not a value")
    flags = data.get("flags")
    if not isinstance(flags, int) or isinstance(flags, bool) or not 0 <= flags < 2 * _MAPPING:
        raise ValueError("not a value")
    items = data.get("items")
    members = data.get("members")
    if not isinstance(items, (list, type(None))) or not isinstance(members, (list, type(None))):
        raise ValueError("not a value")
    if items is None and members is None:
        raise ValueError("not a value")
    entries = []
    for entry in members or ():
        if not (isinstance(entry, list) and len(entry) == 2):
            raise ValueError("not a value")
        entries.append((_member_key(entry[0]), from_json(entry[1])))
    known = tuple(from_json(v) for v in items) if items is not None else None
    return Value(flags, known, tuple(entries) if members is not None else None)


def _member_key(data: Any) -> object:
    """A dict key (a string or int) or a record's field, as :func:`to_json` wrote it."""
    if isinstance(data, (str, int)) and not isinstance(data, bool):
        return data
    if isinstance(data, dict) and isinstance(data.get("field"), str) and len(data) == 1:
        return Field(data["field"])
    raise ValueError("not a value")
