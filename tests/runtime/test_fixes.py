"""``verify_fix``: the thin call ``jaxlint check --fix --verify`` makes, tested with source strings."""

from __future__ import annotations

import textwrap

import jax
import jax.numpy as jnp
import pytest

from jaxlint_runtime import Inputs, verify_fix
from jaxlint_runtime.fixes import FixVerdict, changed_functions

pytestmark = pytest.mark.slow  # runs JAX

ORIGINAL = textwrap.dedent(
    """
    import jax
    import jax.numpy as jnp
    from jaxtyping import Array, Float


    @jax.jit
    def relu_or_leak(x):
        if x.sum() > 0:
            return x
        return 0.01 * x


    def set_first(x):
        x[0] = 10.0
        return x


    def safe_sqrt(x: Float[Array, ""]):
        if x > 0:
            return jnp.sqrt(x)
        return 0.0


    def init(key):
        w = jax.random.normal(key, (3, 2))
        b = jax.random.normal(key, (2,))
        return w, b


    def untouched(x):
        return x
    """
)

GOOD_FIXES = {
    "    if x.sum() > 0:\n        return x\n    return 0.01 * x": (
        "    return jax.lax.cond(x.sum() > 0, lambda v: v, lambda v: 0.01 * v, x)"
    ),
    "    x[0] = 10.0\n    return x": "    return x.at[0].set(10.0)",
    "    w = jax.random.normal(key, (3, 2))\n    b = jax.random.normal(key, (2,))": (
        "    w_key, b_key = jax.random.split(key)\n"
        "    w = jax.random.normal(w_key, (3, 2))\n"
        "    b = jax.random.normal(b_key, (2,))"
    ),
}


def fixed(source: str, replacements: dict[str, str]) -> str:
    for before, after in replacements.items():
        assert before in source
        source = source.replace(before, after)
    return source


def by_name(verdicts: list[FixVerdict]) -> dict[str, FixVerdict]:
    return {verdict.function: verdict for verdict in verdicts}


INPUTS = {
    "relu_or_leak": (jnp.array([1.0, -0.5]),),
    "set_first": Inputs((jnp.arange(4.0),), expected=jnp.array([10.0, 1.0, 2.0, 3.0])),
    "init": lambda: (jax.random.key(0),),
}


def test_good_fixes_are_verified() -> None:
    names = ["relu_or_leak", "set_first", "init"]
    verdicts = by_name(
        verify_fix(ORIGINAL, fixed(ORIGINAL, GOOD_FIXES), "model.py", names, INPUTS, isolate=False)
    )
    assert {name: v.status for name, v in verdicts.items()} == dict.fromkeys(names, "verified")
    assert not any(v.rollback for v in verdicts.values())
    init = verdicts["init"].report
    assert init is not None and any("now use distinct keys" in note for note in init.notes)


def test_a_fix_that_changes_results_is_rolled_back() -> None:
    source = fixed(ORIGINAL, GOOD_FIXES).replace("x.at[0].set(10.0)", "x.at[1].set(10.0)")
    (verdict,) = verify_fix(ORIGINAL, source, "model.py", ["set_first"], INPUTS, isolate=False)
    assert (verdict.status, verdict.rollback) == ("mismatch", True)
    assert verdict.reason.startswith("the fix changes results: output:")


def test_a_where_rewrite_with_nan_gradients_is_rolled_back_using_synthesised_inputs() -> None:
    where = "    return jnp.where(x > 0, jnp.sqrt(x), 0.0)"
    source = fixed(ORIGINAL, {"    if x > 0:\n        return jnp.sqrt(x)\n    return 0.0": where})
    verdicts = {}
    for seed in (0, 4):  # seed 0 draws x = 0.126, seed 4 draws x = -0.652: the gradient turns NaN
        (verdicts[seed],) = verify_fix(
            ORIGINAL, source, "model.py", ["safe_sqrt"], {}, seed=seed, isolate=False
        )
    assert all(v.synthesised_inputs for v in verdicts.values())
    assert (verdicts[0].status, verdicts[4].status) == ("verified", "mismatch")
    assert "gradient wrt x" in verdicts[4].reason


def test_functions_without_inputs_are_unverified() -> None:
    verdicts = by_name(
        verify_fix(ORIGINAL, ORIGINAL, "model.py", ["untouched", "nowhere"], {}, isolate=False)
    )
    assert verdicts["untouched"].status == "unverified"
    assert "no type annotation" in verdicts["untouched"].reason
    assert verdicts["nowhere"].status == "unverified"
    assert not any(v.rollback for v in verdicts.values())


def test_a_fix_that_breaks_the_module_is_rolled_back() -> None:
    broken = ORIGINAL + "\nraise RuntimeError('broken by the fix')\n"
    (verdict,) = verify_fix(ORIGINAL, broken, "model.py", ["set_first"], INPUTS, isolate=False)
    assert verdict.status == "failed" and verdict.rollback
    assert "RuntimeError: broken by the fix" in verdict.reason


def test_a_fix_whose_compiled_code_raises_is_rolled_back_with_the_rule() -> None:
    source = ORIGINAL.replace("return 0.01 * x", "return 0.01 * x[x > 0]")
    source = source.replace("    if x.sum() > 0:\n        return x\n", "")
    (verdict,) = verify_fix(ORIGINAL, source, "model.py", ["relu_or_leak"], INPUTS, isolate=False)
    assert verdict.status == "failed" and verdict.rollback
    assert verdict.report is not None and verdict.report.errors[0].rule == "JAX401"
    assert verdict.reason.startswith("model.py:")


def test_isolated_verification_survives_a_hang() -> None:
    source = fixed(ORIGINAL, GOOD_FIXES).replace("return x.at[0].set(10.0)", "while True:\n        pass")
    (verified,) = verify_fix(ORIGINAL, source, "model.py", ["relu_or_leak"], INPUTS)
    assert verified.status == "verified" and verified.report is not None
    (hung,) = verify_fix(ORIGINAL, source, "model.py", ["set_first"], INPUTS, timeout=5)
    assert (hung.status, hung.rollback) == ("failed", True)
    assert "did not finish within 5 s" in hung.reason


def test_inputs_that_cannot_be_sent_to_a_worker_leave_the_function_unverified() -> None:
    unpicklable = {"set_first": lambda: (jnp.arange(4.0),)}
    (verdict,) = verify_fix(ORIGINAL, ORIGINAL, "model.py", ["set_first"], unpicklable)
    assert verdict.status == "unverified" and "cannot be sent" in verdict.reason


def test_changed_functions_lists_what_a_fix_touched() -> None:
    source = fixed(ORIGINAL, GOOD_FIXES) + "\n\nclass Model:\n    def apply(self, x):\n        return x\n"
    original = ORIGINAL + "\n\nclass Model:\n    def apply(self, x):\n        return x + 0\n"
    assert changed_functions(original, source) == ["relu_or_leak", "set_first", "init", "Model.apply"]
    assert changed_functions(ORIGINAL, ORIGINAL.replace("return x\n", "return x  # same code\n")) == []
    assert changed_functions(ORIGINAL, "def (") == []
