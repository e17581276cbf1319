"""The abstract values of the semantic model: what jaxlint knows about one Python value.

A value is a small set of facts packed in an ``int`` (or a ``tuple`` of values for a Python tuple
whose elements are known one by one):

- ``TRACED``: may be an abstract tracer, or a container holding one (under ``jit``, ``vmap``,
  ``lax`` bodies ...). Python control flow and conversions on it raise.
- ``ARRAY``: known to be a JAX array (a leaf, not a container), traced or concrete.
- ``BOOL``: known to have a boolean dtype (a mask).
- ``STATIC``: a concrete Python value whose contents hold no tracer (literals, shapes, dtypes,
  static arguments).
- ``CONTAINER``: known to be a Python tuple, list or dict (perhaps of tracers): its truthiness
  and length are static.

``UNKNOWN`` (0) means the model cannot tell, and rules stay silent on it.
"""

from __future__ import annotations

from collections.abc import Iterable

Value = int | tuple["Value", ...]

UNKNOWN = 0
TRACED = 1
ARRAY = 2
BOOL = 4
STATIC = 8
CONTAINER = 16

TRACED_ARRAY = TRACED | ARRAY
TRACED_MASK = TRACED | ARRAY | BOOL
_MEET_FLAGS = ARRAY | BOOL | STATIC | CONTAINER


def flat(value: Value) -> int:
    """Collapse a tuple value to the facts that hold for the tuple as one container."""
    if isinstance(value, int):
        return value
    if not value:
        return STATIC | CONTAINER
    flags = [flat(element) for element in value]
    traced = any(f & TRACED for f in flags)
    static = all(f & STATIC for f in flags)
    return CONTAINER | (TRACED if traced else 0) | (STATIC if static else 0)


def join(a: Value, b: Value) -> Value:
    """What holds on either of two paths: may-be-traced is kept, the other facts must agree."""
    if a == b:
        return a
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return tuple(join(x, y) for x, y in zip(a, b))
    fa, fb = flat(a), flat(b)
    return ((fa | fb) & TRACED) | (fa & fb & _MEET_FLAGS)


def join_all(values: Iterable[Value], empty: Value = STATIC) -> Value:
    """Join several values; ``empty`` when there are none."""
    result: Value | None = None
    for value in values:
        result = value if result is None else join(result, value)
    return empty if result is None else result


def combine(values: Iterable[Value]) -> int:
    """The value of an operation whose result depends on all ``values`` (arithmetic, calls)."""
    traced = False
    static = True
    array = False
    for value in values:
        f = flat(value)
        traced = traced or bool(f & TRACED)
        static = static and bool(f & STATIC)
        array = array or bool(f & ARRAY)
    if traced:
        return TRACED | (ARRAY if array else 0)
    if static:
        return STATIC
    return ARRAY if array else UNKNOWN


def element(value: Value) -> Value:
    """The value of one element of ``value`` (iteration, indexing, unpacking)."""
    if isinstance(value, tuple):
        return join_all(value, UNKNOWN)
    if value & STATIC:
        return STATIC
    return value & (TRACED | ARRAY | BOOL)  # an element of a container is not known to be one


def container(values: Iterable[Value]) -> int:
    """The value of a list, set or dict built from ``values``: a container, never an array."""
    return flat(tuple(values))


def is_traced(value: Value) -> bool:
    return bool(flat(value) & TRACED)


def is_traced_array(value: Value) -> bool:
    return isinstance(value, int) and value & TRACED_ARRAY == TRACED_ARRAY


def is_jax_array(value: Value) -> bool:
    return isinstance(value, int) and bool(value & ARRAY)


def is_static(value: Value) -> bool:
    return bool(flat(value) & STATIC)


def is_container(value: Value) -> bool:
    return isinstance(value, tuple) or bool(value & CONTAINER)


def is_mask(value: Value) -> bool:
    return isinstance(value, int) and value & (ARRAY | BOOL) == ARRAY | BOOL
