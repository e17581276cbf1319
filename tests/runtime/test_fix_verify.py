"""``jaxlint check --fix --verify``: fixes are kept only for functions proven to compute the same."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxlint.fixing.applier import FixResult
from jaxlint.fixing.verify_fixes import verified_fix

pytestmark = pytest.mark.slow  # runs JAX

ANNOTATED_AND_NOT = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp
    from jaxtyping import Array, Float


    @jax.jit
    def leaky(x: Float[Array, "n"]) -> Float[Array, "n"]:
        if x.sum() > 0:
            y = x
        else:
            y = 0.01 * x
        return y


    @jax.jit
    def unannotated(x):
        print("x is", x)
        return x * 2
    """
)


def jaxlint(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "jaxlint", "check", "--no-cache", *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)


def test_verified_fixes_are_written_and_unverifiable_ones_reported(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(ANNOTATED_AND_NOT)
    result = jaxlint(tmp_path, "--fix", "--unsafe-fixes", "--verify", "model.py")
    fixed = (tmp_path / "model.py").read_text()
    assert "y = jnp.where(x.sum() > 0, x, 0.01 * x)" in fixed
    assert 'jax.debug.print("x is {}", x)' in fixed
    warnings = [line for line in result.stderr.splitlines() if line.startswith("jaxlint: warning")]
    assert len(warnings) == 1, result.stderr  # `leaky` was run and matched: nothing to say
    assert "model.py: `unannotated` fixed, unverified: no inputs" in warnings[0]
    assert "2 fixed, 0 remaining" in result.stdout and result.returncode == 0
    assert result.stderr.splitlines()[-1] == (
        "jaxlint: verified 1 fixed function(s); took back 0 whose results changed; "
        "1 could not be run (kept, see warnings)"
    )


def test_diff_with_verify_shows_the_verified_fixes(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(ANNOTATED_AND_NOT)
    result = jaxlint(tmp_path, "--diff", "--unsafe-fixes", "--verify", "model.py")
    assert "+    y = jnp.where(x.sum() > 0, x, 0.01 * x)" in result.stdout
    assert (tmp_path / "model.py").read_text() == ANNOTATED_AND_NOT


def test_verify_needs_fix_or_diff(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(ANNOTATED_AND_NOT)
    result = jaxlint(tmp_path, "--verify", "model.py")
    assert result.returncode == 2
    assert result.stderr == "jaxlint: error: --verify checks fixes: use it with --fix or --diff\n"


INTENDED = textwrap.dedent(
    """\
    import jax
    from jaxtyping import Array, Float


    @jax.jit
    def reset_first(x: Float[Array, "n"]) -> Float[Array, "n"]:
        x.at[0].set(0.0)
        return x * 2
    """
)


def test_a_fix_meant_to_change_results_is_held_against_itself(tmp_path: Path) -> None:
    """JAX203's fix applies the update the original discarded: the original's eager result is the
    bug, so the fixed function compiled is compared with itself run eagerly, and kept."""
    (tmp_path / "model.py").write_text(INTENDED)
    result = jaxlint(tmp_path, "--fix", "--verify", "model.py")
    assert "x = x.at[0].set(0.0)" in (tmp_path / "model.py").read_text(), result.stderr
    assert "not fixed" not in result.stderr and "1 fixed, 0 remaining" in result.stdout


ORIGINAL = textwrap.dedent(
    """\
    import jax.numpy as jnp
    from jaxtyping import Array, Float


    def halve(x: Float[Array, "n"]) -> Float[Array, "n"]:
        return x / 2


    def clip(x: Float[Array, "n"]) -> Float[Array, "n"]:
        return jnp.minimum(x, 1.0)
    """
)
RIGHT_CLIP = ORIGINAL.replace("jnp.minimum(x, 1.0)", "jnp.where(x < 1.0, x, 1.0)")


def test_a_fix_that_changes_results_is_taken_back_and_the_rest_verified_again(tmp_path: Path) -> None:
    path = str(tmp_path / "model.py")
    Path(path).write_text(ORIGINAL)
    both = RIGHT_CLIP.replace("return x / 2", "return x / 3")
    asked: list[frozenset[str]] = []

    def refix(keep: frozenset[str]) -> FixResult:
        asked.append(keep)
        return FixResult(ORIGINAL, RIGHT_CLIP if "halve" in keep else both)

    result, problems = verified_fix(path, refix(frozenset()), refix)
    assert result.fixed == RIGHT_CLIP
    assert asked == [frozenset(), frozenset({"halve"})]
    assert len(problems) == 1 and problems[0].startswith(f"{path}: `halve` not fixed: verification mismatch")


def test_a_fix_of_module_level_code_is_kept_and_reported_unverified(tmp_path: Path) -> None:
    path = str(tmp_path / "model.py")
    Path(path).write_text(ORIGINAL)
    changed = FixResult(ORIGINAL, ORIGINAL + "\nSCALE = 2\n")
    result, problems = verified_fix(path, changed, lambda keep: changed)
    assert result is changed
    assert problems == [f"{path}: `<module>` fixed, unverified: module-level code cannot be run on its own"]
