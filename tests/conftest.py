"""Shared test helpers, and ``--update-snapshots``: the one command that rewrites the expected
outputs (rule messages, fixer results) from what jaxlint does now, to be reviewed with ``git diff``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-snapshots",
        action="store_true",
        help="rewrite tests/rules/snapshots and tests/fixers/cases/*.out.py from the current output",
    )


@pytest.fixture
def update_snapshots(request: pytest.FixtureRequest) -> bool:
    """Whether this run rewrites the expected outputs instead of only comparing with them."""
    return bool(request.config.getoption("--update-snapshots"))


@pytest.fixture
def jaxlint_cmd() -> list[str]:
    """The command that runs jaxlint as a subprocess, from this environment."""
    return [sys.executable, "-m", "jaxlint"]
