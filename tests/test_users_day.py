"""A user's day, through the real CLI as a subprocess: paths and configuration in every run,
standard input, .gitignore and globs, rule selection, notebooks, hints, progress, the small
things (issue 18's numbered items, one or more tests each)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test runs jaxlint in subprocesses

PRINTS = "import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"
BRANCHES = "import jax\n\n\n@jax.jit\ndef g(x):\n    if x > 0:\n        return x\n    return -x\n"


def jaxlint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "jaxlint", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def codes(output: str) -> list[tuple[str, str]]:
    """(path, code) of each finding line of text output."""
    found = []
    for line in output.splitlines():
        parts = line.split(": ", 1)
        if len(parts) == 2 and parts[1][:3] == "JAX":
            found.append((parts[0].rsplit(":", 2)[0], parts[1].split()[0]))
    return found


# 1. paths from the cache are the paths this run spells


def test_cached_findings_use_the_path_of_this_run(tmp_path: Path) -> None:
    write(tmp_path, "src/pkg/data.py", PRINTS)
    cache = str(tmp_path / "cache")
    jaxlint("check", "--cache-dir", cache, ".", cwd=tmp_path)
    inner = tmp_path / "src" / "pkg"
    text = jaxlint("check", "--cache-dir", cache, "--show-source", "data.py", cwd=inner)
    assert text.stdout.startswith("data.py:6:5: JAX101"), text.stdout
    assert "   6 |     print(x)\n" in text.stdout and "        ^^^^^^^^" in text.stdout
    github = jaxlint("check", "--cache-dir", cache, "--output-format", "github", "data.py", cwd=inner)
    assert "file=data.py,line=6" in github.stdout
    sarif = json.loads(
        jaxlint("check", "--cache-dir", cache, "--output-format", "sarif", "data.py", cwd=inner).stdout
    )
    (result,) = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "data.py"


# 2. configuration is resolved per file, whatever the order of the paths


def test_configuration_is_per_file_not_per_first_path(tmp_path: Path) -> None:
    write(tmp_path, "a/m.py", PRINTS)
    write(tmp_path, "b/m.py", PRINTS)
    write(tmp_path, "b/pyproject.toml", '[tool.jaxlint]\nignore = ["JAX101"]\n')
    forward = codes(jaxlint("check", "-q", "a", "b", cwd=tmp_path).stdout)
    backward = codes(jaxlint("check", "-q", "b", "a", cwd=tmp_path).stdout)
    assert forward == backward == [("a/m.py", "JAX101")]


def test_a_jaxlint_toml_configures_its_folder(tmp_path: Path) -> None:
    write(tmp_path, "c/m.py", PRINTS)
    write(tmp_path, "c/jaxlint.toml", 'ignore = ["JAX1"]\n')
    assert jaxlint("check", "-q", "c", cwd=tmp_path).returncode == 0
    shown = jaxlint("check", "--show-settings", "c/m.py", cwd=tmp_path).stdout
    assert "jaxlint.toml" in shown and "ignore: ('JAX1',)" in shown


# 3. standard input


def test_standard_input_with_the_name_it_stands_for(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nper-file-ignores = {"tests/**/*.py" = ["JAX101"]}\n')
    plain = jaxlint("check", "-", cwd=tmp_path, stdin=PRINTS)
    assert plain.returncode == 1 and plain.stdout.startswith("-:6:5: JAX101")
    named = jaxlint("check", "--stdin-filename", "src/m.py", cwd=tmp_path, stdin=PRINTS)
    assert named.stdout.startswith("src/m.py:6:5: JAX101")
    ignored = jaxlint("check", "--stdin-filename", "tests/unit/test_m.py", cwd=tmp_path, stdin=PRINTS)
    assert ignored.returncode == 0, ignored.stdout
    fixed = jaxlint("check", "--fix", "-", cwd=tmp_path, stdin=PRINTS)
    assert fixed.stdout == PRINTS.replace("print(x)", 'jax.debug.print("{}", x)')
    assert "1 fixed" in fixed.stderr and fixed.returncode == 0


# 4. .gitignore and ruff-style globs


def test_gitignore_and_double_star_globs(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path, ".gitignore", "generated/\n*_pb2.py\n")
    write(tmp_path, "generated/model.py", PRINTS)
    write(tmp_path, "api_pb2.py", PRINTS)
    write(tmp_path, "tests/conftest.py", PRINTS)
    write(tmp_path, "tests/unit/test_m.py", PRINTS)
    write(tmp_path, "src/m.py", PRINTS)
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nper-file-ignores = {"tests/**/*.py" = ["JAX101"]}\n')
    files = jaxlint("check", "--show-files", ".", cwd=tmp_path).stdout.split()
    assert files == ["./src/m.py", "./tests/conftest.py", "./tests/unit/test_m.py"]
    assert codes(jaxlint("check", "-q", ".", cwd=tmp_path).stdout) == [("./src/m.py", "JAX101")]
    why = jaxlint("check", "--show-files", "-v", ".", cwd=tmp_path).stderr.splitlines()
    assert (
        "jaxlint: skipped ./generated (.gitignore)" in why
        and "jaxlint: skipped ./api_pb2.py (.gitignore)" in why
    )
    named = jaxlint("check", "--show-files", "generated", cwd=tmp_path).stdout.split()
    assert named == ["generated/model.py"]  # a folder named on the command line is checked
    everything = jaxlint("check", "--show-files", "--no-respect-gitignore", ".", cwd=tmp_path).stdout.split()
    assert "./generated/model.py" in everything and "./api_pb2.py" in everything


# 5. rule selection as in ruff


def test_selection_accumulates_and_the_command_line_wins(tmp_path: Path) -> None:
    write(tmp_path, "m.py", PRINTS + "\n\n" + BRANCHES.replace("import jax\n", ""))
    both = jaxlint("check", "-q", "--select", "JAX1", "--select", "JAX5", "m.py", cwd=tmp_path)
    assert [code for _, code in codes(both.stdout)] == ["JAX101", "JAX501"]
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nignore = ["JAX101"]\n')
    assert [c for _, c in codes(jaxlint("check", "-q", "m.py", cwd=tmp_path).stdout)] == ["JAX501"]
    again = jaxlint("check", "-q", "--extend-select", "JAX101", "m.py", cwd=tmp_path)
    assert [c for _, c in codes(again.stdout)] == ["JAX101", "JAX501"]
    specific = jaxlint("check", "-q", "--select", "JAX5", "--ignore", "JAX501", "m.py", cwd=tmp_path)
    assert codes(specific.stdout) == []


# 6. notebooks


def notebook(cells: list[tuple[str, str]]) -> str:
    data = {
        "cells": [
            {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True)}
            | (
                {
                    "execution_count": 1,
                    "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}],
                }
                if kind == "code"
                else {}
            )
            for kind, text in cells
        ],
        "metadata": {"kernelspec": {"name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


NOTEBOOK = notebook(
    [
        (
            "code",
            "IN_COLAB = False\nif IN_COLAB:\n    !pip install jax\nimport jax\nimport jax.numpy as jnp\n",
        ),
        ("code", "%%bash\nfor x in 1 2; do echo $x; done\n"),
        ("markdown", "# Model\n"),
        ("code", "  @jax.jit\n  def f(x):\n      print(x)\n      return x * 2\n"),
        ("code", "x = jnp.ones(3)\n%timeit f(x)\n%timeit f(x).block_until_ready()\nfiles = !ls\n"),
    ]
)


def test_notebooks_are_read_as_ipython_reads_them(tmp_path: Path) -> None:
    write(tmp_path, "analysis.ipynb", NOTEBOOK)
    result = jaxlint("check", "-q", "analysis.ipynb", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        "analysis.ipynb:cell 4:3:7: JAX101 `print` in `f` runs only while JAX traces it, and shows tracers, "
        "not values (`f` is traced by `jax.jit` at line 1); use `jax.debug.print`",
        "analysis.ipynb:cell 5:2:1: JAX604 `%timeit f(x)` times `f(x)` without waiting for it: JAX dispatches "
        "work asynchronously, so this measures dispatch, not the computation; time "
        "`f(x).block_until_ready()` instead",
    ]


def test_notebook_locations_in_github_and_sarif_point_into_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "analysis.ipynb", NOTEBOOK)
    rows = path.read_text().splitlines()
    print_row = next(number for number, line in enumerate(rows, start=1) if "print(x)" in line)
    github = jaxlint("check", "--output-format", "github", "analysis.ipynb", cwd=tmp_path).stdout
    assert f"file=analysis.ipynb,line={print_row}," in github and "::cell 4, line 3: JAX101" in github
    sarif = json.loads(jaxlint("check", "--output-format", "sarif", "analysis.ipynb", cwd=tmp_path).stdout)
    first = sarif["runs"][0]["results"][0]
    assert first["locations"][0]["physicalLocation"]["region"]["startLine"] == print_row
    assert first["message"]["text"].startswith("cell 4, line 3: ")
    assert first["properties"] == {"cell": 4, "cellLine": 3}


def test_notebooks_are_fixed_cell_by_cell(tmp_path: Path) -> None:
    path = write(tmp_path, "analysis.ipynb", NOTEBOOK)
    result = jaxlint("check", "--fix", "analysis.ipynb", cwd=tmp_path)
    assert "1 fixed" in result.stdout
    before, after = json.loads(NOTEBOOK), json.loads(path.read_text())
    assert after["metadata"] == before["metadata"]
    for old, new in zip(before["cells"], after["cells"], strict=True):
        assert {k: v for k, v in old.items() if k != "source"} == {
            k: v for k, v in new.items() if k != "source"
        }
    assert after["cells"][3]["source"][2] == '      jax.debug.print("{}", x)\n'  # the cell's indentation kept
    changed = [
        i for i, (old, new) in enumerate(zip(before["cells"], after["cells"], strict=True)) if old != new
    ]
    assert changed == [3]  # magics, shell escapes and other cells untouched


KEYED_NOTEBOOK = notebook(
    [
        ("code", "import jax\nimport jax.numpy as jnp\n"),
        ("code", "x = jnp.ones(3)\n%timeit jnp.sin(x).block_until_ready()\n"),
        (
            "code",
            "def init(key):\n    w = jax.random.normal(key, (3,))\n    b = jax.random.normal(key, (3,))\n    return w, b\n",
        ),
        ("code", "  @jax.jit\n  def f(x):\n      print(x)\n      return x\n"),
    ]
)


def apply_edits(text: str, edits: list[dict]) -> str:
    """``text`` with ruff-style edits (1-based rows and columns) applied, last first."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(location: dict) -> int:
        return starts[location["row"] - 1] + location["column"] - 1

    for edit in sorted(edits, key=lambda e: offset(e["location"]), reverse=True):
        text = text[: offset(edit["location"])] + edit["content"] + text[offset(edit["end_location"]) :]
    return text


def test_notebook_fixes_in_json_are_in_cell_coordinates(tmp_path: Path) -> None:
    """JSON output gives a notebook finding's fix with its edits in the cell's own rows, as ruff
    does: applied to that cell, they give the cell `--fix` writes. A cell IPython dedents gets no
    fix in JSON (its edits would need the indentation put back): `--fix` still fixes it."""
    path = write(tmp_path, "keys.ipynb", KEYED_NOTEBOOK)
    shown = jaxlint("check", "--output-format", "json", "--unsafe-fixes", "keys.ipynb", cwd=tmp_path)
    findings = {d["code"]: d for d in json.loads(shown.stdout)}
    reuse, printed = findings["JAX301"], findings["JAX101"]
    assert (reuse["cell"], reuse["location"]["row"], reuse["fix"]["applicability"]) == (3, 3, "unsafe")
    assert (printed["cell"], printed["fix"]) == (4, None)
    cells = json.loads(KEYED_NOTEBOOK)["cells"]
    by_json = apply_edits("".join(cells[2]["source"]), reuse["fix"]["edits"])
    jaxlint("check", "--fix", "--unsafe-fixes", "keys.ipynb", cwd=tmp_path)
    fixed = json.loads(path.read_text())["cells"]
    assert by_json == "".join(fixed[2]["source"]) != "".join(cells[2]["source"])
    assert "jax.debug.print" in "".join(fixed[3]["source"])
    # SARIF's regions are rows of the .ipynb file: cell rows in its replacements would corrupt it
    write(tmp_path, "keys.ipynb", KEYED_NOTEBOOK)
    sarif = json.loads(
        jaxlint("check", "--output-format", "sarif", "--unsafe-fixes", "keys.ipynb", cwd=tmp_path).stdout
    )
    assert not any("fixes" in result for result in sarif["runs"][0]["results"])


def test_pre_commit_hooks_receive_notebooks() -> None:
    import yaml

    hooks = yaml.safe_load((Path(__file__).parents[1] / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert all(hook["types_or"] == ["python", "jupyter"] and "types" not in hook for hook in hooks)


# 7. hints never name another project


def test_outputs_name_no_other_project(tmp_path: Path) -> None:
    write(tmp_path, "m.py", PRINTS)
    for output_format in ("text", "json", "sarif", "github"):
        output = jaxlint("check", "--output-format", output_format, "m.py", cwd=tmp_path).stdout
        assert "github.com/jaxlint" not in output and "jaxlint[runtime]" not in output


# 8. progress, --verbose


def test_progress_on_a_terminal_and_verbose_summary(tmp_path: Path) -> None:
    for number in range(40):
        write(tmp_path, f"pkg/m{number}.py", PRINTS)
    verbose = jaxlint("check", "-v", "--no-cache", "-j", "1", "pkg", cwd=tmp_path)
    assert "jaxlint: 40 files checked in" in verbose.stderr and "analysis" in verbose.stderr
    assert "analyses in 1 round" in verbose.stderr
    piped = jaxlint("check", "--no-cache", "pkg", cwd=tmp_path)
    assert "checked 0/" not in piped.stderr and "\r" not in piped.stderr  # not a terminal: no progress
    output = _on_a_terminal(
        ["check", "--no-cache", "-j", "1", "pkg"], tmp_path, {"JAXLINT_PROGRESS_DELAY": "0"}
    )
    assert "jaxlint: checked 40/40 files" in output


def _on_a_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    """What jaxlint writes when stdout and stderr are a terminal."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "jaxlint", *args],
        cwd=cwd,
        stdout=follower,
        stderr=follower,
        env={**os.environ, **env},
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


# 9. the smaller things


def test_misspelt_command_and_config_key_get_suggestions(tmp_path: Path) -> None:
    typo = jaxlint("chek", cwd=tmp_path)
    assert (
        typo.returncode == 2
        and typo.stderr == "jaxlint: error: unknown command `chek` (did you mean `check`?)\n"
    )
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nselcet = ["JAX1"]\n')
    write(tmp_path, "m.py", PRINTS)
    key = jaxlint("check", "m.py", cwd=tmp_path)
    assert key.returncode == 2
    assert key.stderr.strip().endswith("unknown option `selcet` in [tool.jaxlint] (did you mean `select`?)")


def test_statistics_in_json_and_rule_pages_for_meta_codes(tmp_path: Path) -> None:
    write(tmp_path, "m.py", PRINTS)
    stats = json.loads(
        jaxlint("check", "--statistics", "--output-format", "json", "m.py", cwd=tmp_path).stdout
    )
    assert stats == [{"code": "JAX101", "name": "print-in-traced-function", "count": 1, "fixable": 1}]
    bad = jaxlint("check", "--statistics", "--output-format", "sarif", "m.py", cwd=tmp_path)
    assert bad.returncode == 2 and "--statistics works with" in bad.stderr
    page = jaxlint("rule", "JAX000", cwd=tmp_path)
    assert page.returncode == 0 and page.stdout.startswith("# JAX000 syntax-error")
    docs = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert all(
        f"### {code}" in docs for code in ("JAX000 syntax-error", "JAX001 io-error", "JAX002 internal-error")
    )


def test_noqa_codes_that_do_nothing_are_reported_and_file_wide_noqa(tmp_path: Path) -> None:
    write(tmp_path, "m.py", PRINTS.replace("print(x)", "print(x)  # noqa: JAX999"))
    result = jaxlint("check", "-q", "m.py", cwd=tmp_path)
    assert [code for _, code in codes(result.stdout)] == ["JAX101", "JAX010"]
    write(tmp_path, "n.py", "# jaxlint: noqa: JAX101\n" + PRINTS)
    assert jaxlint("check", "-q", "n.py", cwd=tmp_path).returncode == 0


def test_counts_say_files_checked_and_warnings_apart(tmp_path: Path) -> None:
    write(tmp_path, "m.py", PRINTS + "\n\n" + BRANCHES.replace("import jax\n", ""))
    write(tmp_path, "notes.txt", "not python\n")
    result = jaxlint("check", "m.py", "notes.txt", cwd=tmp_path)
    assert "Found 1 error and 1 warning in 1 file checked." in result.stdout


def test_colour_on_request_and_never_when_piped(tmp_path: Path) -> None:
    write(tmp_path, "m.py", PRINTS)
    assert "\033[" not in jaxlint("check", "m.py", cwd=tmp_path).stdout
    coloured = jaxlint("check", "--color", "always", "m.py", cwd=tmp_path).stdout
    assert "\033[1m" in coloured and "\033[33m" in coloured  # bold path, a warning in yellow


def test_sarif_has_stable_partial_fingerprints(tmp_path: Path) -> None:
    path = write(tmp_path, "m.py", PRINTS)
    first = json.loads(jaxlint("check", "--output-format", "sarif", "m.py", cwd=tmp_path).stdout)
    path.write_text("# a comment moves every line down\n" + PRINTS, encoding="utf-8")
    moved = json.loads(jaxlint("check", "--output-format", "sarif", "m.py", cwd=tmp_path).stdout)
    (before,), (after,) = first["runs"][0]["results"], moved["runs"][0]["results"]
    assert before["partialFingerprints"] == after["partialFingerprints"]
    assert before["locations"] != after["locations"]


def test_output_file_exit_codes_and_add_noqa(tmp_path: Path) -> None:
    path = write(tmp_path, "m.py", PRINTS)
    report = tmp_path / "report.json"
    written = jaxlint("check", "--output-format", "json", "-o", str(report), "m.py", cwd=tmp_path)
    assert written.stdout == "" and json.loads(report.read_text())[0]["code"] == "JAX101"
    fixed = jaxlint("check", "--fix", "--exit-non-zero-on-fix", "--show-fixes", "m.py", cwd=tmp_path)
    assert fixed.returncode == 1 and "1 x JAX101" in fixed.stdout
    write(tmp_path, "b.py", BRANCHES)
    added = jaxlint("check", "--add-noqa", "b.py", cwd=tmp_path)
    assert "Added 1 noqa directive" in added.stderr
    assert "    if x > 0:  # noqa: JAX501\n" in (tmp_path / "b.py").read_text()
    assert jaxlint("check", "b.py", cwd=tmp_path).returncode == 0
    assert path.read_text().count("jax.debug.print") == 1
