"""``compare``: the original run eagerly against the fixed version compiled."""

from __future__ import annotations

import types
from collections.abc import Callable

import jax
import jax.numpy as jnp
import pytest

from jaxlint_runtime import compare

pytestmark = pytest.mark.slow  # runs JAX

UserModule = Callable[[str], types.ModuleType]

ORIGINAL = """
import jax
import jax.numpy as jnp


def safe_sqrt(x):
    if x > 0:
        return jnp.sqrt(x)
    return 0.0


def init(key):
    w = jax.random.normal(key, (3, 2))
    b = jax.random.normal(key, (2,))
    return w, b


def set_first(x):
    x[0] = 10.0
    return x
"""

FIXED = """
import jax
import jax.numpy as jnp


def where_sqrt(x):
    return jnp.where(x > 0, jnp.sqrt(x), 0.0)


def double_where_sqrt(x):
    safe = jnp.where(x > 0, x, 1.0)
    return jnp.where(x > 0, jnp.sqrt(safe), 0.0)


def init_split(key):
    w_key, b_key = jax.random.split(key)
    w = jax.random.normal(w_key, (3, 2))
    b = jax.random.normal(b_key, (2,))
    return w, b


def init_still_reused(key):
    w_key, _ = jax.random.split(key)
    w = jax.random.normal(w_key, (3, 2))
    b = jax.random.normal(w_key, (2,))
    return w, b


def init_wrong_shape(key):
    w_key, b_key = jax.random.split(key)
    return jax.random.normal(w_key, (3, 2)), jax.random.normal(b_key, (3,))


def set_first(x):
    return x.at[0].set(10.0)


def set_second(x):
    return x.at[1].set(10.0)
"""


@pytest.fixture
def modules(user_module: UserModule) -> tuple[types.ModuleType, types.ModuleType]:
    return user_module(ORIGINAL), user_module(FIXED)


def test_where_rewrite_that_poisons_gradients_is_rejected(modules: tuple[types.ModuleType, ...]) -> None:
    original, fixed = modules
    report = compare(original.safe_sqrt, fixed.where_sqrt, jnp.float32(-2.0))
    assert not report.ok and report.matched is False
    (mismatch,) = report.mismatches
    assert mismatch.path == "gradient wrt x" and "NaN" in mismatch.detail
    assert report.gradient == "mismatched (1 input)"


def test_double_where_rewrite_is_accepted(modules: tuple[types.ModuleType, ...]) -> None:
    original, fixed = modules
    for x in (jnp.float32(-2.0), jnp.float32(4.0)):
        report = compare(original.safe_sqrt, fixed.double_where_sqrt, x)
        assert report.ok, report.mismatches
        assert report.gradient == "matched (1 input)"


@pytest.mark.parametrize("make_key", [jax.random.key, jax.random.PRNGKey], ids=["typed", "legacy"])
def test_key_splitting_changes_streams_by_design(
    modules: tuple[types.ModuleType, ...], make_key: Callable[[int], jax.Array]
) -> None:
    original, fixed = modules
    report = compare(original.init, fixed.init_split, make_key(0))
    assert report.ok
    assert "draws 1 and 2 shared one key before the fix and now use distinct keys" in report.notes
    assert report.gradient.startswith("skipped")


def test_a_split_that_still_reuses_a_key_is_rejected(modules: tuple[types.ModuleType, ...]) -> None:
    original, fixed = modules
    report = compare(original.init, fixed.init_still_reused, jax.random.key(0))
    assert not report.ok
    assert {finding.rule for finding in report.findings} == {"JAX301"}


def test_a_split_that_changes_shapes_is_rejected(modules: tuple[types.ModuleType, ...]) -> None:
    original, fixed = modules
    report = compare(original.init, fixed.init_wrong_shape, jax.random.key(0))
    (mismatch,) = report.mismatches
    assert (mismatch.kind, mismatch.path) == ("shape", "output[1]")


def test_random_streams_can_be_required_to_stay_the_same(modules: tuple[types.ModuleType, ...]) -> None:
    original, fixed = modules
    report = compare(original.init, fixed.init_split, jax.random.PRNGKey(0), random_streams="same")
    assert report.matched is False


def test_expected_output_stands_in_for_an_original_that_raises(modules: tuple[types.ModuleType, ...]) -> None:
    original, fixed = modules
    expected = jnp.array([10.0, 1.0, 2.0, 3.0])
    assert compare(original.set_first, fixed.set_first, jnp.arange(4.0), expected=expected).ok
    wrong = compare(original.set_first, fixed.set_second, jnp.arange(4.0), expected=expected)
    assert wrong.matched is False
    report = compare(original.set_first, fixed.set_first, jnp.arange(4.0))
    (finding,) = report.findings
    assert finding.message.startswith("no reference output") and finding.rule == "JAX201"
