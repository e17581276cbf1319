"""Compare two output pytrees leaf by leaf: structure, shapes, dtypes, values within tolerance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxlint_runtime.checks import is_typed_key
from jaxlint_runtime.report import LeafMismatch

# Default (rtol, atol) by floating dtype: compiled code fuses and reorders operations, so results
# may differ from op-by-op eager execution by a few units in the last place.
TOLERANCES: dict[str, tuple[float, float]] = {
    "bfloat16": (2e-2, 1e-2),
    "float16": (5e-3, 1e-3),
    "float32": (1e-5, 1e-6),
    "float64": (1e-9, 1e-12),
}
# Across platforms (eager reference on CPU, compiled on GPU/TPU) matrix products may use lower
# precision: compare with the tolerance of the next smaller type.
CROSS_DEVICE = {"float64": "float32", "float32": "float16", "float16": "bfloat16", "bfloat16": "bfloat16"}


# In these, a sum of many products is rounded at every step: its error grows with the size of the
# terms, not of the result, so an element near zero (cancellation) may be off by ``rtol`` times
# the leaf's largest value. Their absolute tolerance scales with that value (measured on an H100:
# the gradient of tanh(a @ b) in bfloat16, eager against compiled, differs by 0.11 where it is ~0).
LOW_PRECISION = frozenset({"bfloat16", "float16"})


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float
    scaled: bool = False  # atol is at least rtol times the reference's largest finite magnitude


def default_tolerance(dtype: Any, cross_device: bool = False) -> Tolerance:
    """The default tolerance for values of ``dtype``: exact for integers, looser for small floats."""
    dtype = np.dtype(dtype)
    if not jnp.issubdtype(dtype, jnp.inexact):
        return Tolerance(0.0, 0.0)
    name = _real_name(dtype)
    if cross_device:
        name = CROSS_DEVICE.get(name, name)
    if name in TOLERANCES:
        return Tolerance(*TOLERANCES[name], scaled=name in LOW_PRECISION)
    eps = float(jnp.finfo(dtype).eps)
    return Tolerance(min(0.25, 100 * eps), min(0.25, 10 * eps))


def _real_name(dtype: np.dtype) -> str:
    if jnp.issubdtype(dtype, jnp.complexfloating):
        return "float32" if dtype.itemsize == 8 else "float64"
    return dtype.name


def compare_trees(
    reference: Any,
    actual: Any,
    *,
    prefix: str = "output",
    rtol: float | None = None,
    atol: float | None = None,
    cross_device: bool = False,
    values: bool = True,
) -> list[LeafMismatch]:
    """Every difference between two pytrees; empty when they match.

    ``values=False`` compares structure, shapes and dtypes only (for fixes that change random
    streams by design).
    """
    reference_leaves, reference_tree = jax.tree_util.tree_flatten_with_path(reference)
    actual_leaves, actual_tree = jax.tree_util.tree_flatten_with_path(actual)
    if reference_tree != actual_tree:
        detail = f"pytree structure {reference_tree} in eager, {actual_tree} compiled"
        return [LeafMismatch(prefix, "structure", detail)]
    mismatches = []
    for (path, expected), (_, got) in zip(reference_leaves, actual_leaves):
        where = prefix + jax.tree_util.keystr(path)
        found = compare_leaf(where, expected, got, rtol, atol, cross_device, values)
        if found is not None:
            mismatches.append(found)
    return mismatches


def trees_equal(reference: Any, actual: Any) -> bool:
    """True when the trees match within the default tolerances."""
    try:
        return not compare_trees(reference, actual)
    except Exception:  # leaves that cannot be compared count as different
        return False


def compare_leaf(
    where: str,
    expected: Any,
    got: Any,
    rtol: float | None,
    atol: float | None,
    cross_device: bool,
    values: bool,
) -> LeafMismatch | None:
    reference, actual = as_numpy(expected), as_numpy(got)
    if reference.shape != actual.shape:
        return LeafMismatch(where, "shape", f"shape {reference.shape} in eager, {actual.shape} compiled")
    if not _is_python_scalar(expected) and canonical(reference.dtype) != canonical(actual.dtype):
        detail = f"dtype {canonical(reference.dtype)} in eager, {canonical(actual.dtype)} compiled"
        return LeafMismatch(where, "dtype", detail)
    if not values:
        return None
    tolerance = default_tolerance(actual.dtype, cross_device)
    if rtol is not None or atol is not None:  # the user's tolerance is taken as given
        tolerance = Tolerance(
            tolerance.rtol if rtol is None else rtol, tolerance.atol if atol is None else atol
        )
    return _compare_values(where, reference, actual, tolerance)


def as_numpy(leaf: Any) -> np.ndarray:
    """A leaf as a NumPy array: PRNG keys become their key data."""
    if is_typed_key(leaf):
        leaf = jax.random.key_data(leaf)
    return np.asarray(leaf)


def canonical(dtype: np.dtype) -> np.dtype:
    """The dtype JAX would use for ``dtype`` (float64 becomes float32 unless x64 is enabled)."""
    return np.dtype(jax.dtypes.canonicalize_dtype(dtype))


def _is_python_scalar(value: Any) -> bool:
    return isinstance(value, bool | int | float | complex)


def _compare_values(
    where: str, reference: np.ndarray, actual: np.ndarray, tolerance: Tolerance
) -> LeafMismatch | None:
    if not jnp.issubdtype(actual.dtype, jnp.number) and actual.dtype != bool:
        return None if np.array_equal(reference, actual) else LeafMismatch(where, "value", "values differ")
    complex_values = jnp.issubdtype(reference.dtype, jnp.complexfloating) or jnp.issubdtype(
        actual.dtype, jnp.complexfloating
    )
    wide = np.complex128 if complex_values else np.float64
    expected, got = reference.astype(wide), actual.astype(wide)
    if tolerance.scaled:
        finite = np.abs(expected[np.isfinite(expected)])
        largest = float(finite.max()) if finite.size else 0.0
        tolerance = Tolerance(tolerance.rtol, max(tolerance.atol, tolerance.rtol * largest))
    with np.errstate(invalid="ignore", over="ignore"):
        difference = np.abs(got - expected)
        close = difference <= tolerance.atol + tolerance.rtol * np.abs(expected)
    both_nan = np.isnan(expected) & np.isnan(got)
    same_infinity = np.isinf(expected) & (expected == got)
    bad = ~(close | both_nan | same_infinity)
    if not bad.any():
        return None
    return _describe_values(where, expected, got, difference, bad, tolerance, actual.dtype)


def _describe_values(
    where: str,
    expected: np.ndarray,
    got: np.ndarray,
    difference: np.ndarray,
    bad: np.ndarray,
    tolerance: Tolerance,
    dtype: np.dtype,
) -> LeafMismatch:
    finite = bad & np.isfinite(expected) & np.isfinite(got)
    max_abs = float(difference[finite].max()) if finite.any() else None
    max_rel = None
    if finite.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            relative = difference[finite] / np.abs(expected[finite])
        max_rel = float(np.nanmax(relative))
    parts = []
    if max_abs is not None:
        parts.append(f"max abs error {max_abs:.4g}, max rel error {max_rel:.4g}")
    nonfinite = int((bad & ~finite).sum())
    if nonfinite:
        parts.append(f"{nonfinite} element{'s' * (nonfinite != 1)} NaN or inf on one side only")
    tolerances = f"rtol {tolerance.rtol:g}, atol {tolerance.atol:g}, {np.dtype(dtype).name}"
    detail = f"{'; '.join(parts)} ({int(bad.sum())} of {bad.size} elements differ; {tolerances})"
    if max_rel is not None and not np.isfinite(max_rel):
        max_rel = None
    return LeafMismatch(where, "value", detail, max_abs, max_rel)
