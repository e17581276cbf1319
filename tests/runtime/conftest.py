"""Helpers for the runtime tests: user modules written to temporary files, GPU-only tests."""

from __future__ import annotations

import textwrap
import types
from collections.abc import Callable
from pathlib import Path

import jax
import pytest

from jaxlint_runtime.targets import load_module_from_path


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("gpu") and jax.default_backend() != "gpu":
        pytest.skip("needs a GPU backend")


@pytest.fixture
def user_module(tmp_path: Path) -> Callable[[str], types.ModuleType]:
    """Write dedented source to a file and import it the way ``jaxlint verify`` does."""
    counter = iter(range(1000))

    def make(source: str) -> types.ModuleType:
        path = tmp_path / f"user_code_{next(counter)}.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return load_module_from_path(str(path))

    return make
