"""The built wheel ships the rules and fixers as ``jaxlint.rules`` / ``jaxlint.fixers`` only."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # builds and installs a wheel with pip

# what a checkout holds besides its sources: a build from a copy never sees them
NOT_SOURCES = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".corpus")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of the sources (an old ``build/`` folder in the checkout, which
    setuptools would reuse, cannot leak stale modules into it)."""
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source") / "jaxlint"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("jaxlint-*.whl")
    return found


# where each installed package's sources live in the checkout
SOURCE_FOLDERS = {
    "jaxlint": "jaxlint",
    "jaxlint/rules": "rules",
    "jaxlint/fixers": "fixers",
    "jaxlint_runtime": "jaxlint_runtime",
}


def source_files() -> set[str]:
    """Every Python file of the checkout's packages, named as the wheel must name it."""
    expected = set()
    for installed, folder in SOURCE_FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            expected.add(f"{installed}/{path.relative_to(ROOT / folder).as_posix()}")
    return expected


def test_wheel_file_list(wheel: Path) -> None:
    """The wheel holds every source file under its installed name (a family folder missing from
    pyproject's package list would be absent here, yet present in an editable install)."""
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert not {"rules", "fixers", "tests", "examples"} & tops
    assert "jaxlint/rules/control_flow/jax501_python_branch_on_tracer.py" in names
    assert "jaxlint/fixers/control_flow/jax501_python_branch_on_tracer.py" in names
    assert {name for name in names if name.endswith(".py")} == source_files()


def test_wheel_declares_the_runtime_extra_and_the_pytest_plugin(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith("/METADATA"))).decode()
    assert "Provides-Extra: runtime" in metadata
    assert 'Requires-Dist: jax>=0.4.30; extra == "runtime"' in metadata
    assert not any(
        line.startswith("Requires-Dist: jax") and "extra" not in line for line in metadata.splitlines()
    )
    entry_points = archive.read(
        next(n for n in archive.namelist() if n.endswith("/entry_points.txt"))
    ).decode()
    assert "[pytest11]\njaxlint = jaxlint_runtime.pytest_plugin" in entry_points


def test_installed_wheel_imports_rules_only_under_jaxlint(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    probe = (
        "import importlib.util, jaxlint.engine.registry as r\n"
        "assert importlib.util.find_spec('rules') is None, 'top-level rules package'\n"
        "assert importlib.util.find_spec('fixers') is None, 'top-level fixers package'\n"
        "print(len(r.all_rules()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-P", "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) == len(list((ROOT / "rules").rglob("jax*.py")))


def test_editable_install_has_no_top_level_rules(tmp_path: Path) -> None:
    probe = "import importlib.util\nprint(importlib.util.find_spec('rules'), importlib.util.find_spec('fixers'))\n"
    result = subprocess.run(
        [sys.executable, "-P", "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None None"
