"""The README's integration snippets, as users paste them, work with the real hosts."""

from __future__ import annotations

import json
import re
import shlex
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT
from tests.integrations.hosts import run, write
from tests.integrations.test_output_formats import validate_sarif

pytestmark = pytest.mark.slow  # drives a real host as a subprocess

README = (ROOT / "README.md").read_text(encoding="utf-8")
CUSTOM = (
    "import jax\nimport mylib\n\n\n@mylib.compile\ndef g(y):\n    if y > 0:\n        print(y)\n    return y\n"
)


def snippet(first_line: str) -> str:
    """The fenced block of the README that starts with ``first_line`` (a file-name comment)."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```$", README, re.MULTILINE | re.DOTALL)
    found = [block for block in blocks if block.startswith(first_line + "\n")]
    assert len(found) == 1, f"README has no single block starting with {first_line!r}"
    return found[0]


def block_after(marker: str) -> str:
    """The first fenced block after the line containing ``marker``."""
    tail = README[README.index(marker) :]
    match = re.search(r"^```[a-z]*\n(.*?)^```$", tail, re.MULTILINE | re.DOTALL)
    assert match is not None
    return match.group(1)


def test_pre_commit_config_is_valid(tmp_path: Path) -> None:
    config = write(tmp_path, ".pre-commit-config.yaml", snippet("# .pre-commit-config.yaml"))
    result = run(sys.executable, "-m", "pre_commit", "validate-config", config, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    (repo,) = yaml.safe_load(config.read_text(encoding="utf-8"))["repos"]
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {hook["id"] for hook in repo["hooks"]} == {hook["id"] for hook in manifest}


def test_flake8_config(tmp_path: Path) -> None:
    write(tmp_path, ".flake8", snippet("# .flake8 or setup.cfg"))
    write(tmp_path, "src/custom.py", CUSTOM)
    write(tmp_path, "tests/test_custom.py", CUSTOM)
    result = run(sys.executable, "-m", "flake8", "src", "tests", cwd=tmp_path)
    codes = [" ".join(line.split(" ")[:2]) for line in result.stdout.splitlines() if " JAX" in line]
    assert codes == [
        "src/custom.py:7:5: JAX501",
        "src/custom.py:8:9: JAX101",
        "tests/test_custom.py:7:5: JAX501",
    ]


def test_pylint_config(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", snippet("# pyproject.toml"))
    write(tmp_path, "custom.py", CUSTOM)
    result = run(sys.executable, "-m", "pylint", "--persistent=n", "--score=n", "custom.py", cwd=tmp_path)
    assert "E9501: JAX501" in result.stdout and "(print-in-traced-function)" in result.stdout, result.stderr


def test_editor_snippets_start_the_server() -> None:
    vscode = json.loads(block_after("Generic LSP Client (v2)"))
    assert [vscode["glspc.server.command"], *vscode["glspc.server.commandArguments"]] == ["jaxlint", "server"]
    assert 'cmd = { "jaxlint", "server" }' in block_after("Neovim 0.10 or later")
    helix = tomllib.loads(block_after("Helix, in `languages.toml`"))
    assert helix["language-server"]["jaxlint"] == {"command": "jaxlint", "args": ["server"]}
    assert "jaxlint" in helix["language"][0]["language-servers"]


def test_github_workflow_uploads_valid_sarif(tmp_path: Path) -> None:
    workflow = yaml.safe_load(snippet("# .github/workflows/jaxlint.yml"))
    steps = workflow["jobs"]["jaxlint"]["steps"]
    assert workflow["jobs"]["jaxlint"]["permissions"]["security-events"] == "write"
    sarif_step = next(step["run"] for step in steps if "sarif" in step.get("run", ""))
    upload = next(
        step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif")
    )
    command, target = sarif_step.split(" > ")
    assert upload["with"]["sarif_file"] == target
    write(tmp_path, "src/custom.py", CUSTOM.replace("mylib.compile", "jax.jit"))
    argv = shlex.split(command)
    assert argv[0] == "jaxlint"
    result = run(sys.executable, "-m", "jaxlint", *argv[1:], cwd=tmp_path)
    assert result.returncode == 0, result.stderr  # --exit-zero: the upload step still runs
    log = json.loads(result.stdout)
    validate_sarif(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["JAX501", "JAX101"]
