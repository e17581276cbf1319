"""``pytest --jaxlint-verify`` on a small generated test suite, run as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs JAX

SUITE = """\
from functools import partial

import jax
import jax.numpy as jnp

scale = 1.0


@jax.jit
def apply_scale(x):
    return x * scale


@jax.jit
def double(x):
    return x * 2


@jax.jit
def grow(x):
    return x + 1


@partial(jax.jit, static_argnames=("power",))
def outer(x, power):
    return double(x) ** power


class Model:
    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x - 1


def test_double():
    assert (double(jnp.ones(3)) == 2).all()


def test_scale_before_the_change():
    assert (apply_scale(jnp.ones(3)) == 1).all()


def test_scale_after_the_change():
    global scale
    scale = 3.0
    apply_scale(jnp.ones(3))  # the compiled function still multiplies by 1.0


def test_many_shapes():
    for n in range(1, 9):
        assert grow(jnp.ones(n)).shape == (n,)


def test_jit_inside_jit_static_arguments_and_methods():
    assert (outer(jnp.ones(2), power=3) == 8).all()
    assert (Model()(jnp.ones(2)) == 0).all()


def test_a_function_from_the_conftest(halve):
    assert (halve(jnp.ones(2)) == 0.5).all()
"""

CONFTEST = """\
import pytest
from jax import jit


@jit
def halve(x):
    return x / 2


@pytest.fixture(name="halve")
def halve_fixture():
    return halve
"""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    (tmp_path / "test_suite.py").write_text(SUITE, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    return tmp_path


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rf", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_the_plugin_is_registered_as_a_pytest11_entry_point() -> None:
    plugins = {entry.name: entry.value for entry in entry_points(group="pytest11")}
    assert plugins.get("jaxlint") == "jaxlint_runtime.pytest_plugin"


def test_exactly_the_divergent_call_fails(suite: Path) -> None:
    result = run_pytest(suite, "--jaxlint-verify")
    output = result.stdout
    assert result.returncode == 1, output
    assert "1 failed, 5 passed" in output
    assert "cross-checked 14 calls of 6 jitted functions against eager execution: 1 mismatch" in output
    assert "FAILED test_suite.py::test_scale_after_the_change" in output
    assert "jaxlint --jaxlint-verify found a jit/eager mismatch in test_scale_after_the_change" in output
    assert "`apply_scale` (" in output and "test_suite.py:9): the compiled call differs" in output
    assert "output: max abs error 2" in output


def test_recompilation_storms_are_reported_at_the_end(suite: Path) -> None:
    output = run_pytest(suite, "--jaxlint-verify", "--jaxlint-max-traces", "5").stdout
    assert "jaxlint verify" in output
    assert "`grow` was traced 8 times (more than 5)" in output
    assert "first signatures: (float32[1]); (float32[2]); (float32[3])" in output
    assert "`double` was traced" not in output
    quiet = run_pytest(suite, "--jaxlint-verify", "--jaxlint-max-traces", "20").stdout
    assert "was traced" not in quiet


def test_without_the_option_nothing_changes(suite: Path) -> None:
    result = run_pytest(suite)
    assert result.returncode == 0, result.stdout
    assert "6 passed" in result.stdout and "jaxlint verify" not in result.stdout
