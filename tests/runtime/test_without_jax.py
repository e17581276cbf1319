"""Without jax the static linter keeps working and ``jaxlint verify`` says how to get jax."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs jaxlint in subprocesses without jax

BLOCK_JAX = """
import sys

class BlockJax:
    def find_spec(self, name, path=None, target=None):
        if name == "jax" or name.startswith("jax."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, BlockJax())
from jaxlint.hosts.cli import main
code = main(sys.argv[1:])
assert "jax" not in sys.modules, "jax was imported"
sys.exit(code)
"""


def run_without_jax(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_JAX, *args], cwd=folder, capture_output=True, text=True, check=False
    )


def test_static_check_works_without_jax(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text("import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n")
    result = run_without_jax(tmp_path, "check", "model.py")
    assert result.returncode == 1, result.stderr
    assert "JAX101" in result.stdout


def test_verify_without_jax_says_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text("def f(x: float):\n    return x\n")
    result = run_without_jax(tmp_path, "verify", "model.py::f")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "jaxlint: error: `jaxlint verify` needs JAX, which is not installed here: "
        "pip install jax (or, in a jaxlint checkout, pip install '.[runtime]')\n"
    )


def test_importing_the_package_and_the_plugin_does_not_import_jax() -> None:
    probe = (
        "import sys, jaxlint_runtime, jaxlint_runtime.pytest_plugin, jaxlint_runtime.cli, jaxlint_runtime.fixes\n"
        "assert 'jax' not in sys.modules, sorted(m for m in sys.modules if m.startswith('jax'))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_fix_verify_without_jax_says_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text("import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n")
    result = run_without_jax(tmp_path, "check", "--fix", "--verify", "model.py")
    assert result.returncode == 2
    assert result.stderr.startswith("jaxlint: error: `--verify` needs JAX, which is not installed here")
    assert "print(x)" in (tmp_path / "model.py").read_text()


def test_pytest_jaxlint_verify_without_jax_says_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert True\n")
    blocked = BLOCK_JAX.split("from jaxlint.hosts.cli")[0] + (
        "import pytest\nsys.exit(pytest.main(['-p', 'no:cacheprovider', '--jaxlint-verify', 'test_one.py']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 4, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "--jaxlint-verify needs JAX, which is not installed here: pip install jax" in result.stderr
