"""Pytree comparison: structure, shapes, dtypes, and values within dtype-aware tolerances."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxlint_runtime.comparison import compare_trees, default_tolerance

pytestmark = pytest.mark.slow  # runs JAX


def test_tolerances_loosen_as_precision_drops() -> None:
    rtols = [default_tolerance(dtype).rtol for dtype in ("float64", "float32", "float16", "bfloat16")]
    assert rtols == sorted(rtols)
    assert len(set(rtols)) == 4
    assert default_tolerance("int32").rtol == 0.0
    assert default_tolerance("float32", cross_device=True) == default_tolerance("float16")
    assert default_tolerance("complex64") == default_tolerance("float32")


@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16])
def test_low_precision_tolerance_scales_with_the_largest_value(dtype) -> None:
    """A sum rounded at every step errs in proportion to its terms: near a cancellation the
    element is ~0 and its error ~rtol times the leaf's largest value (seen on an H100)."""
    reference = jnp.array([40.0, -30.0, 0.01], dtype)
    rounding = jnp.array([40.0, -30.0, 0.15], dtype)  # 0.14 off: 0.35% of 40, yet 15 times the element
    wrong = jnp.array([40.0, -30.0, 4.0], dtype)  # 10% of 40: not rounding
    assert compare_trees(reference, rounding) == []
    (mismatch,) = compare_trees(reference, wrong)
    assert mismatch.kind == "value" and "1 of 3 elements differ" in mismatch.detail
    assert compare_trees(reference, rounding, atol=0.01) != []  # a tolerance the user gives is kept
    single = jnp.array([40.0, -30.0, 0.01], jnp.float32)
    assert compare_trees(single, jnp.array([40.0, -30.0, 0.15], jnp.float32)) != []


def test_equal_trees_match() -> None:
    tree = {"w": jnp.ones((2, 3)), "b": (jnp.zeros(3), 4)}
    assert compare_trees(tree, {"w": jnp.ones((2, 3)), "b": (jnp.zeros(3), jnp.int32(4))}) == []


def test_value_mismatch_names_the_leaf_and_the_errors() -> None:
    reference = {"w": jnp.array([1.0, 2.0]), "b": jnp.array([0.0, 4.0])}
    actual = {"w": jnp.array([1.0, 2.0]), "b": jnp.array([0.0, 5.0])}
    (mismatch,) = compare_trees(reference, actual)
    assert mismatch.path == "output['b']"
    assert mismatch.kind == "value"
    assert mismatch.max_abs_error == pytest.approx(1.0)
    assert mismatch.max_rel_error == pytest.approx(0.25)
    assert "1 of 2 elements differ" in mismatch.detail


@pytest.mark.parametrize(
    ("dtype", "relative_error", "matches"),
    [
        ("float32", 1e-6, True),
        ("float32", 1e-3, False),
        ("bfloat16", 1e-3, True),
        ("float16", 1e-3, True),
        ("float16", 5e-2, False),
    ],
)
def test_default_tolerance_follows_the_dtype(dtype: str, relative_error: float, matches: bool) -> None:
    reference = np.full(4, 100.0, dtype=np.float64)
    actual = jnp.asarray(reference * (1 + relative_error), dtype=dtype)
    assert (compare_trees(jnp.asarray(reference, dtype=dtype), actual) == []) is matches


def test_explicit_tolerance_wins() -> None:
    reference, actual = jnp.array([1.0]), jnp.array([1.1])
    assert compare_trees(reference, actual)
    assert compare_trees(reference, actual, rtol=0.2) == []


def test_structure_shape_and_dtype_differences() -> None:
    (structure,) = compare_trees((jnp.ones(2),), [jnp.ones(2)])
    assert structure.kind == "structure"
    (shape,) = compare_trees({"x": jnp.ones(2)}, {"x": jnp.ones(3)})
    assert (shape.kind, shape.path) == ("shape", "output['x']")
    (dtype,) = compare_trees(jnp.ones(2, jnp.float32), jnp.ones(2, jnp.int32))
    assert dtype.kind == "dtype"


def test_nan_in_the_same_place_matches_and_a_new_nan_does_not() -> None:
    assert compare_trees(jnp.array([jnp.nan, 1.0]), jnp.array([jnp.nan, 1.0])) == []
    (mismatch,) = compare_trees(jnp.array([0.5, 1.0]), jnp.array([jnp.nan, 1.0]))
    assert "NaN or inf on one side only" in mismatch.detail
    assert mismatch.max_abs_error is None


def test_python_scalars_compare_by_value_only() -> None:
    assert compare_trees((3, 2.5), (jnp.int32(3), jnp.float32(2.5))) == []
    assert compare_trees(3, jnp.int32(4))


def test_keys_compare_by_key_data_and_values_can_be_skipped() -> None:
    assert compare_trees(jax.random.key(0), jax.random.key(0)) == []
    assert compare_trees(jax.random.key(0), jax.random.key(1))
    assert compare_trees(jnp.ones(3), jnp.zeros(3), values=False) == []


def test_bfloat16_values_are_compared_with_a_tolerance() -> None:
    reference = jnp.array([1.0, 2.0, 4.0], jnp.bfloat16)
    assert compare_trees(reference, reference + jnp.bfloat16(0.0078125)) == []
    (mismatch,) = compare_trees(reference, reference * 2)
    assert "bfloat16" in mismatch.detail and mismatch.max_abs_error == pytest.approx(4.0)
