"""Shared test helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def jaxlint_cmd() -> list[str]:
    """The command that runs jaxlint as a subprocess, from this environment."""
    return [sys.executable, "-m", "jaxlint"]
