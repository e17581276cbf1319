"""The flake8 plugin, run through the real `flake8` as a subprocess."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.integrations.hosts import BAD, jaxlint_json, run, write

pytestmark = pytest.mark.slow  # drives a real host as a subprocess

FLAKE8 = (sys.executable, "-m", "flake8")


def flake8(cwd: Path, *args: str | Path) -> tuple[int, list[str], str]:
    result = run(*FLAKE8, *args, cwd=cwd)
    return result.returncode, result.stdout.splitlines(), result.stderr


def test_reports_what_jaxlint_check_reports(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.py", BAD)
    expected = [
        f"bad.py:{d['location']['row']}:{d['location']['column']}: {d['code']} {d['message']}"
        for d in jaxlint_json(path, tmp_path)
    ]
    assert [line.split(" ")[1] for line in expected] == ["JAX101", "JAX501", "JAX403"]
    code, lines, stderr = flake8(tmp_path, "bad.py")  # default selection: plugins are on
    assert code == 1, stderr
    assert [line for line in lines if ": JAX" in line] == expected
    assert "bad.py:7:22: JAX101" in lines[1]  # columns count characters, as pycodestyle's do
    assert any(": E702 " in line for line in lines)  # flake8's own checks still run


def test_flake8_selection_and_noqa(tmp_path: Path) -> None:
    write(tmp_path, "bad.py", BAD)
    _, lines, _ = flake8(tmp_path, "--select", "JAX5", "bad.py")
    assert [line.split(" ")[1] for line in lines] == ["JAX501"]
    _, lines, _ = flake8(tmp_path, "--select", "JAX", "--extend-ignore", "JAX101,JAX4", "bad.py")
    assert [line.split(" ")[1] for line in lines] == ["JAX501"]
    silenced = BAD.replace("if x.sum() > 0:", "if x.sum() > 0:  # noqa: JAX5").replace(
        "jnp.zeros(n)", "jnp.zeros(n)  # noqa: JAX403"
    )
    write(tmp_path, "bad.py", silenced)
    code, lines, _ = flake8(tmp_path, "--select", "JAX", "bad.py")
    assert code == 1 and [line.split(" ")[1] for line in lines] == ["JAX101"]
    write(tmp_path, "bad.py", BAD.replace("print(tag, x)", "print(tag, x)  # noqa"))
    code, lines, _ = flake8(tmp_path, "--select", "JAX", "--disable-noqa", "bad.py")
    assert [line.split(" ")[1] for line in lines] == ["JAX501", "JAX403"]  # jaxlint honours noqa too


def test_flake8_per_file_ignores(tmp_path: Path) -> None:
    write(tmp_path, "tests/test_step.py", BAD)
    write(tmp_path, "src/step.py", BAD)
    write(tmp_path, ".flake8", "[flake8]\nselect = JAX\nper-file-ignores =\n    tests/*: JAX1,JAX4\n")
    _, lines, _ = flake8(tmp_path, "src", "tests")
    assert sorted(line.split(" ")[1] for line in lines if line.startswith("src")) == [
        "JAX101",
        "JAX403",
        "JAX501",
    ]
    assert [line.split(" ")[1] for line in lines if line.startswith("tests")] == ["JAX501"]


def test_tool_jaxlint_configuration_applies(tmp_path: Path) -> None:
    write(
        tmp_path,
        "pyproject.toml",
        '[tool.jaxlint]\nignore = ["JAX403"]\n[tool.jaxlint.per-file-ignores]\n"legacy/*" = ["JAX5"]\n',
    )
    write(tmp_path, "bad.py", BAD)
    write(tmp_path, "legacy/old.py", BAD)
    _, lines, _ = flake8(tmp_path, "--select", "JAX", "bad.py", "legacy/old.py")
    assert [line.split(":")[0] + " " + line.split(" ")[1] for line in lines] == [
        "bad.py JAX101",
        "bad.py JAX501",
        "legacy/old.py JAX101",
    ]


def test_traced_decorators_option_from_flake8_config(tmp_path: Path) -> None:
    custom = "import jax\nimport mylib\n\n\n@mylib.compile\ndef g(y):\n    if y > 0:\n        return y\n    return -y\n"
    write(tmp_path, "custom.py", custom)
    _, lines, _ = flake8(tmp_path, "--select", "JAX", "custom.py")
    assert lines == []
    write(tmp_path, "setup.cfg", "[flake8]\njaxlint-traced-decorators = mylib.compile, other.jit\n")
    _, lines, _ = flake8(tmp_path, "--select", "JAX", "custom.py")
    assert [line.split(" ")[1] for line in lines] == ["JAX501"]


def test_plugin_reuses_flake8s_tree(tmp_path: Path) -> None:
    """jaxlint must not parse the file again: its own parser is booby-trapped here."""
    write(tmp_path, "bad.py", BAD)
    probe = (
        "import sys, jaxlint.engine.linter as engine\n"
        "def trap(*args, **kwargs):\n"
        "    raise AssertionError('jaxlint parsed the file a second time')\n"
        "engine.parse = trap\n"
        "from flake8.main.cli import main\n"
        "sys.exit(main(['--jobs', '1', '--select', 'JAX', 'bad.py']))\n"
    )
    result = run(sys.executable, "-c", probe, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert [line.split(" ")[1] for line in result.stdout.splitlines()] == ["JAX101", "JAX501", "JAX403"]


def test_broken_configuration_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "[tool.jaxlint]\nbogus = 1\n")
    write(tmp_path, "bad.py", BAD)
    code, lines, stderr = flake8(tmp_path, "--select", "JAX", "bad.py")
    assert code == 1
    assert "Traceback" not in stderr and "Traceback" not in "\n".join(lines)
    assert "pyproject.toml:2: unknown option `bogus` in [tool.jaxlint]" in lines[0]


def test_plugin_is_listed_by_flake8(tmp_path: Path) -> None:
    code, lines, _ = flake8(tmp_path, "--version")
    assert code == 0 and "jaxlint: " in lines[0]
