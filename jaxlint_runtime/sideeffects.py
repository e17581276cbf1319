"""Which module globals a call changed: the side effects that jit runs once, at trace time."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

_SCALARS = (int, float, complex, str, bytes, bool, type(None))
_CONTAINERS = (list, dict, set, bytearray)


@dataclass
class Effects:
    """The names of module globals a call rebound, or whose list/dict/set changed size."""

    changed: set[str] = field(default_factory=set)


@contextmanager
def observe(namespace: dict[str, Any] | None) -> Iterator[Effects]:
    """Record which globals of ``namespace`` the body of the ``with`` changes."""
    effects = Effects()
    before = _snapshot(namespace)
    try:
        yield effects
    finally:
        after = _snapshot(namespace)
        effects.changed = {
            name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
        }


def _snapshot(namespace: dict[str, Any] | None) -> dict[str, tuple[object, ...]]:
    if namespace is None:
        return {}
    return {
        name: _fingerprint(value)
        for name, value in list(namespace.items())
        if not name.startswith("__") and not callable(value) and not _is_module(value)
    }


def _fingerprint(value: object) -> tuple[object, ...]:
    if isinstance(value, _SCALARS):
        return ("value", type(value).__name__, repr(value))
    if isinstance(value, _CONTAINERS):
        return ("size", type(value).__name__, len(value))
    return ("object", id(value))


def _is_module(value: object) -> bool:
    return type(value).__name__ == "module"
