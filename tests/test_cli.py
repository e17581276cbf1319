"""The command line: output formats, exit codes, selection, noqa, configuration, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxlint.hosts.cli import main

BAD = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def f(x, n):
        print(x)
        if x.sum() > 0:
            return jnp.zeros(n)
        return x
    """
)
CLEAN = "import jax\n\n\n@jax.jit\ndef f(x):\n    return x * 2\n"


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_text_output_and_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}:7:5: JAX101 ")
    assert lines[1].startswith(f"{path}:8:5: JAX501 ")
    assert lines[2].startswith(f"{path}:9:16: JAX403 ")
    assert "Found 2 errors and 1 warning" in out


def test_clean_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "clean.py", CLEAN)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    assert "All checks passed" in out


def test_exit_zero_and_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    code, out, _ = run(capsys, "check", "--exit-zero", "--quiet", str(path))
    assert code == 0
    assert "Found" not in out and len(out.splitlines()) == 3


def test_show_source_draws_a_caret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    _, out, _ = run(capsys, "check", "--show-source", "--select", "JAX403", str(path))
    lines = out.splitlines()
    assert lines[1] == "   9 |         return jnp.zeros(n)"
    assert lines[2] == " " * 22 + "^" * 12


def test_json_uses_ruffs_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    code, out, _ = run(capsys, "check", "--output-format", "json", str(path))
    assert code == 1
    data = json.loads(out)
    assert [d["code"] for d in data] == ["JAX101", "JAX501", "JAX403"]
    first = data[0]
    assert set(first) == {
        "cell",
        "code",
        "end_location",
        "filename",
        "fix",
        "location",
        "message",
        "name",
        "noqa_row",
        "severity",
        "url",
    }
    assert first["location"] == {"row": 7, "column": 5}
    assert first["end_location"] == {"row": 7, "column": 13}
    assert first["filename"] == str(path.resolve())
    assert first["noqa_row"] == 7
    assert first["name"] == "print-in-traced-function"
    assert first["url"] is None  # no repository address declared: no link to another project


def test_json_of_clean_file_is_an_empty_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "clean.py", CLEAN)
    code, out, _ = run(capsys, "check", "--output-format", "json", str(path))
    assert code == 0 and json.loads(out) == []


def test_select_ignore_and_extend_select(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    _, out, _ = run(capsys, "check", "-q", "--select", "JAX5", str(path))
    assert [line.split()[1] for line in out.splitlines()] == ["JAX501"]
    _, out, _ = run(capsys, "check", "-q", "--ignore", "JAX1,JAX403", str(path))
    assert [line.split()[1] for line in out.splitlines()] == ["JAX501"]
    _, out, _ = run(capsys, "check", "-q", "--select", "JAX101", "--extend-select", "JAX403", str(path))
    assert [line.split()[1] for line in out.splitlines()] == ["JAX101", "JAX403"]


def test_statistics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "a.py", BAD)
    write(tmp_path, "b.py", BAD)
    _, out, _ = run(capsys, "check", "--statistics", "-q", str(tmp_path))
    rows = [line.split("\t") for line in out.splitlines()]
    assert ["    2", "JAX101", "print-in-traced-function"] in rows
    assert len(rows) == 3


def test_noqa(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (
        BAD.replace("print(x)", "print(x)  # noqa: JAX101")
        .replace("if x.sum() > 0:", "if x.sum() > 0:  # noqa: JAX5")
        .replace("jnp.zeros(n)", "jnp.zeros(n)  # noqa")
    )
    path = write(tmp_path, "bad.py", text)
    code, out, _ = run(capsys, "check", "-q", str(path))
    assert code == 0 and out == ""


def test_noqa_for_another_code_does_not_suppress(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.py", BAD.replace("print(x)", "print(x)  # noqa: JAX501"))
    _, out, _ = run(capsys, "check", "-q", "--select", "JAX101", str(path))
    assert "JAX101" in out


def test_syntax_error_is_reported_and_other_files_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "broken.py", "import jax\ndef f(:\n    pass\n")
    write(tmp_path, "bad.py", BAD)
    code, out, err = run(capsys, "check", "-q", str(tmp_path))
    assert code == 1 and err == ""
    assert f"{tmp_path / 'broken.py'}:2:7: JAX000 SyntaxError: invalid syntax" in out
    assert "bad.py:7:5: JAX101" in out


def test_newer_syntax_names_the_python_it_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if sys.version_info >= (3, 12):
        pytest.skip("only meaningful on an interpreter older than the syntax")
    path = write(tmp_path, "new.py", "type Vector = list[float]\n")
    _, out, _ = run(capsys, "check", "-q", str(path))
    assert "JAX000" in out and "needs Python 3.12+" in out and "language_version" in out


def test_undecodable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "binary.py"
    path.write_bytes(b"import jax\nx = '\xff\xfe'\n")
    code, out, _ = run(capsys, "check", "-q", str(path))
    assert code == 1
    assert "JAX001 cannot decode as utf-8" in out


def test_declared_latin1_and_bom_are_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin.py"
    latin.write_bytes(
        b"# -*- coding: latin-1 -*-\nimport jax\n\n@jax.jit\ndef f(x):\n    print('\xe9t\xe9', x)\n"
    )
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfimport jax\n\n@jax.jit\ndef f(x):\n    print(x)\n")
    _, out, _ = run(capsys, "check", "-q", str(latin), str(bom))
    assert f"{latin}:6:5: JAX101" in out
    assert f"{bom}:5:5: JAX101" in out


def test_columns_count_characters_not_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "u.py", "import jax\n\n@jax.jit\ndef f(x):\n    é = 1; print(x)\n")
    _, out, _ = run(capsys, "check", "-q", str(path))
    assert f"{path}:5:12: JAX101" in out


def test_missing_path_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(tmp_path / "nope.py"))
    assert code == 2 and out == ""
    assert err.strip().startswith("jaxlint: error: no such file or directory")
    assert len(err.strip().splitlines()) == 1


def test_unknown_selector_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "--select", "JAX999", str(tmp_path))
    assert code == 2 and "unknown rule selector `JAX999`" in err


def test_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "--frobnicate")
    assert code == 2 and err.startswith("jaxlint: error:")


def test_directory_recursion_skips_hidden_and_virtualenvs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "pkg/mod.py", BAD)
    write(tmp_path, ".hidden/mod.py", BAD)
    write(tmp_path, "build/mod.py", BAD)
    write(tmp_path, "env/pyvenv.cfg", "home = /usr\n")
    write(tmp_path, "env/lib/mod.py", BAD)
    write(tmp_path, "notes.txt", "print(x)")
    _, out, _ = run(capsys, "check", "--select", "JAX101", "-q", str(tmp_path))
    assert [Path(line.split(":")[0]).relative_to(tmp_path).as_posix() for line in out.splitlines()] == [
        "pkg/mod.py"
    ]


def test_pyproject_configuration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(
        tmp_path,
        "pyproject.toml",
        textwrap.dedent(
            """\
            [tool.jaxlint]
            ignore = ["JAX403"]
            exclude = ["generated"]
            traced-decorators = ["mylib.compile"]

            [tool.jaxlint.per-file-ignores]
            "tests/*" = ["JAX1"]
            """
        ),
    )
    write(tmp_path, "src/bad.py", BAD)
    write(tmp_path, "tests/test_bad.py", BAD)
    write(tmp_path, "generated/bad.py", BAD)
    write(
        tmp_path,
        "src/custom.py",
        "import jax\nfrom mylib import compile\n\n@compile\ndef f(x):\n    print(x)\n",
    )
    _, out, _ = run(capsys, "check", "-q", str(tmp_path))
    found = sorted(
        (Path(line.split(":")[0]).relative_to(tmp_path).as_posix(), line.split()[1])
        for line in out.splitlines()
    )
    assert found == [
        ("src/bad.py", "JAX101"),
        ("src/bad.py", "JAX501"),
        ("src/custom.py", "JAX101"),
        ("tests/test_bad.py", "JAX501"),
    ]


def test_broken_pyproject_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nselect = ["JAX1"\nignore = []\n')
    write(tmp_path, "a.py", CLEAN)
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == 2
    assert err.startswith(f"jaxlint: error: {tmp_path / 'pyproject.toml'}:3:")
    assert "invalid TOML" in err and len(err.strip().splitlines()) == 1


def test_unknown_config_option_and_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nselcet = ["JAX1"]\n')
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == 2 and f"{config}:2: unknown option `selcet`" in err
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nignore = ["JAX777"]\n')
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == 2 and "unknown rule selector `JAX777` in `ignore`" in err


def test_rule_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rule", "jax501")
    assert code == 0
    assert out.startswith("# JAX501 python-branch-on-tracer")
    assert "## Why is this bad?" in out and "TracerBoolConversionError" in out
    code, out, _ = run(capsys, "rule", "--all", "--output-format", "json")
    assert code == 0 and len(json.loads(out)) >= 19
    code, _, err = run(capsys, "rule", "JAX999")
    assert code == 2 and "unknown rule" in err


@pytest.mark.slow
def test_module_entry_point_runs_as_a_subprocess(tmp_path: Path, jaxlint_cmd: list[str]) -> None:
    path = write(tmp_path, "bad.py", BAD)
    result = subprocess.run(
        [*jaxlint_cmd, "check", "--output-format", "json", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert len(json.loads(result.stdout)) == 3
    assert "jax" not in result.stderr.lower()


@pytest.mark.slow
def test_static_analysis_never_imports_jax_nor_libcst_without_fixes(tmp_path: Path) -> None:
    unfixable = "import jax\n\n@jax.jit\ndef f(x):\n    assert x.sum() > 0\n    return x\n"
    paths = [str(write(tmp_path, "clean.py", CLEAN)), str(write(tmp_path, "assert.py", unfixable))]
    probe = (
        "import sys, jaxlint.hosts.cli as c\n"
        f"code = c.main(['check', '-q', *{paths!r}])\n"
        "assert 'jax' not in sys.modules, 'jax was imported'\n"
        "assert 'libcst' not in sys.modules, 'libcst imported without anything to fix'\n"
        "sys.exit(0 if code == 1 else 3)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
