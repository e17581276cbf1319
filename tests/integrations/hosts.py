"""Helpers for driving the host programs (flake8, pylint, pre-commit, jaxlint) as subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

# Findings in three families, a fixable one, and a non-ASCII line before a finding's column.
BAD = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def step(x, n):
        tag = "naïve 😀"; print(tag, x)
        if x.sum() > 0:
            return jnp.zeros(n)
        return x
    """
)


def run(
    *command: str | Path, cwd: Path, timeout: float = 120, **kwargs: Any
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        **kwargs,
    )


def jaxlint_json(path: Path, cwd: Path, *options: str) -> list[dict[str, Any]]:
    """What `jaxlint check` reports for ``path``: the reference every host must match."""
    result = run(sys.executable, "-m", "jaxlint", "check", "--output-format", "json", *options, path, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
