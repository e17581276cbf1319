"""Which PRNG key values an eager run consumes, to find draws that share a key.

JAX's key-reuse checker follows typed keys (``jax.random.key``) only. Recording the *value* of
the key each ``jax.random`` call consumes also catches legacy ``PRNGKey`` arrays and keys
re-created from the same seed. ``fold_in`` derives a key without consuming it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import jax
import numpy as np

from jaxlint_runtime.checks import is_tracer, is_typed_key
from jaxlint_runtime.rulemap import caller_location

NOT_CONSUMING = frozenset({"fold_in", "key", "PRNGKey", "key_data", "key_impl", "clone", "wrap_key_data"})


@dataclass(frozen=True)
class Draw:
    """One call of a ``jax.random`` function that consumes a key."""

    function: str
    key: bytes | None  # the key's value; None when it was a tracer
    path: str | None
    line: int | None

    @property
    def samples(self) -> bool:
        return self.function != "split"


@dataclass
class DrawRecorder:
    """Records the key value every consuming ``jax.random`` call receives, outermost calls only."""

    draws: list[Draw] = field(default_factory=list)
    reused_by_checker: bool = False  # JAX's key-reuse checker stopped the run
    _depth: int = 0

    def shared_keys(self) -> list[list[Draw]]:
        """Groups of two or more draws that consumed keys with identical values."""
        groups: dict[bytes, list[Draw]] = {}
        for draw in self.draws:
            if draw.key is not None:
                groups.setdefault(draw.key, []).append(draw)
        return [group for group in groups.values() if len(group) > 1]

    def reuses_keys(self) -> bool:
        return self.reused_by_checker or bool(self.shared_keys())

    def samples(self) -> list[Draw]:
        return [draw for draw in self.draws if draw.samples]

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def recording(key: Any, *args: Any, **kwargs: Any) -> Any:
            if self._depth == 0:
                where = caller_location()
                path, line = where if where else (None, None)
                self.draws.append(Draw(name, key_value(key), path, line))
            self._depth += 1
            try:
                return function(key, *args, **kwargs)
            finally:
                self._depth -= 1

        return recording


@contextmanager
def recording_draws() -> Iterator[DrawRecorder]:
    """Patch the consuming functions of ``jax.random`` for the duration of the ``with``."""
    recorder = DrawRecorder()
    originals = consuming_functions()
    for name, function in originals.items():
        setattr(jax.random, name, recorder.wrap(name, function))
    try:
        yield recorder
    finally:
        for name, function in originals.items():
            setattr(jax.random, name, function)


@functools.cache
def consuming_functions() -> dict[str, Callable[..., Any]]:
    """The public ``jax.random`` functions whose first parameter is a key they consume."""
    found = {}
    for name in dir(jax.random):
        function = getattr(jax.random, name)
        if name.startswith("_") or name in NOT_CONSUMING or not inspect.isfunction(function):
            continue
        parameters = list(inspect.signature(function).parameters)
        if parameters[:1] == ["key"]:
            found[name] = function
    return found


def key_value(key: Any) -> bytes | None:
    """The bytes of a concrete key (typed or legacy), or None for a tracer."""
    if is_tracer(key):
        return None
    try:
        if is_typed_key(key):
            key = jax.random.key_data(key)
        data = np.asarray(key)
    except Exception:
        return None
    return str(data.shape).encode() + data.tobytes()


def describe_group(group: list[Draw]) -> str:
    calls = ", ".join(f"`{draw.function}`" + (f" (line {draw.line})" if draw.line else "") for draw in group)
    return f"{calls} consume keys with identical values and draw identical random bits"
