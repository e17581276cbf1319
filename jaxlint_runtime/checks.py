"""JAX's own run-time checks, switched on for a verification, and capture of what code prints."""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax.core import Tracer


@dataclass(frozen=True)
class Checks:
    """Which of JAX's debugging checks run during verification."""

    key_reuse: bool = True
    tracer_leaks: bool = True
    nans: bool = False

    def names(self) -> list[str]:
        switched = [
            ("key reuse (jax_debug_key_reuse)", self.key_reuse),
            ("tracer leaks (jax_check_tracer_leaks)", self.tracer_leaks),
            ("NaNs (jax_debug_nans)", self.nans),
        ]
        return [name for name, on in switched if on]

    @contextlib.contextmanager
    def enabled(self, eager: bool = False) -> Iterator[None]:
        """Switch the checks on; tracer leaks are checked only where jit traces (not op by op,
        where the check garbage-collects after every operation)."""
        leaks = jax.checking_leaks() if self.tracer_leaks and not eager else contextlib.nullcontext()
        with jax.debug_key_reuse(self.key_reuse), jax.debug_nans(self.nans), leaks:
            yield


NO_CHECKS = Checks(key_reuse=False, tracer_leaks=False, nans=False)


@contextlib.contextmanager
def captured_stdout() -> Iterator[io.StringIO]:
    """Collect what Python code prints (``jax.debug.print`` included) instead of showing it."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        try:
            yield buffer
        finally:
            with contextlib.suppress(Exception):
                jax.effects_barrier()
            sys.stdout.flush()


def is_typed_key(leaf: object) -> bool:
    """A new-style PRNG key array (``jax.random.key``), as opposed to a legacy ``PRNGKey``."""
    dtype = getattr(leaf, "dtype", None)
    return dtype is not None and jnp.issubdtype(dtype, jax.dtypes.prng_key)


def is_tracer(leaf: object) -> bool:
    return isinstance(leaf, Tracer)


def block(value: object) -> object:
    """Wait until every array of ``value`` is computed (errors surface here, not later)."""
    return jax.block_until_ready(value)
