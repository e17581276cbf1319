"""Hostile input: jaxlint never crashes, never corrupts a file, and says clearly what went wrong."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import jaxlint.project.files
import jaxlint.project.runner
from jaxlint.hosts.cli import main

JITTED_PRINT = "import jax\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", "--no-cache", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def codes(out: str) -> list[str]:
    return [line.split(": ")[1].split()[0] for line in out.splitlines() if ": JAX" in line]


def test_binary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "blob.py").write_bytes(bytes(range(256)) * 8)
    code, out, err = run(capsys, "-q", str(tmp_path / "blob.py"))
    assert code == 1 and err == "" and codes(out) == ["JAX001"]


def test_null_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "nul.py").write_bytes(b"import jax\nx = 1\x00\n")
    code, out, _ = run(capsys, "-q", str(tmp_path / "nul.py"))
    assert code == 1 and "JAX000 SyntaxError:" in out and "null bytes" in out


def test_mixed_newlines_form_feeds_and_tabs_keep_rows_and_are_preserved_by_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "import jax\r\n\x0c\n@jax.jit\rdef f(x):\n\tprint(x)\r\n\treturn x\n"
    path = tmp_path / "mixed.py"
    path.write_bytes(source.encode())
    _, out, _ = run(capsys, "-q", str(path))
    assert f"{path}:5:2: JAX101" in out
    run(capsys, "--fix", str(path))
    assert path.read_bytes() == source.replace("print(x)", 'jax.debug.print("{}", x)').encode()


def test_tabs_indent_lifted_functions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = "import jax\n\n\n@jax.jit\ndef f(x, n):\n\tfor _ in range(n):\n\t\tx = x * 2\n\treturn x\n"
    path = tmp_path / "tabs.py"
    path.write_text(source)
    run(capsys, "--fix", "--unsafe-fixes", str(path))
    fixed = path.read_text()
    assert "\tdef body_fun(_, x):\n\t\tx = x * 2\n\t\treturn x\n" in fixed
    assert "\tx = jax.lax.fori_loop(0, n, body_fun, x)\n" in fixed


def test_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty.py").write_bytes(b"")
    code, out, _ = run(capsys, str(tmp_path / "empty.py"))
    assert code == 0 and "All checks passed" in out


@pytest.mark.slow
def test_twenty_megabyte_generated_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.py"
    with open(path, "w") as handle:
        handle.write("import jax\n\nTABLE = [\n")
        row = "    " + ", ".join(f"{i}.25" for i in range(16)) + ",\n"
        while handle.tell() < 20_000_000:
            handle.write(row)
        handle.write("]\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n")
    code, out, _ = run(capsys, "-q", str(path))
    assert code == 1 and codes(out) == ["JAX101"]


def test_deeply_nested_expressions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parens = tmp_path / "parens.py"
    parens.write_text("import jax\nx = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    chain = tmp_path / "chain.py"
    chain.write_text("import jax\n\n@jax.jit\ndef f(x):\n    return " + " + ".join(["x"] * 50_000) + "\n")
    code, out, err = run(capsys, "-q", str(parens), str(chain))
    assert err == "" and code == 1
    assert codes(out)[0] == "JAX000"


def test_symlink_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(JITTED_PRINT)
    (tmp_path / "pkg" / "loop").symlink_to(tmp_path / "pkg")
    (tmp_path / "pkg" / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    code, out, _ = run(capsys, "-q", str(tmp_path))
    assert code == 1 and codes(out) == ["JAX001", "JAX101"]
    assert "dangling.py:1:1: JAX001 no such file" in out


def test_unreadable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "secret.py"
    path.write_text(JITTED_PRINT)
    real_open = open

    def guarded_open(file, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(jaxlint.project.files, "open", guarded_open, raising=False)
    code, out, err = run(capsys, "-q", str(path))
    assert code == 1 and err == ""
    assert "JAX001 cannot read: Permission denied" in out


def test_file_deleted_during_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    keep, gone = tmp_path / "keep.py", tmp_path / "gone.py"
    keep.write_text(JITTED_PRINT)
    gone.write_text(JITTED_PRINT)
    discover = jaxlint.project.runner.discover

    def discover_then_delete(paths, settings, problems=None):
        found = list(discover(paths, settings, problems))
        gone.unlink()
        return iter(found)

    monkeypatch.setattr("jaxlint.project.runner.discover", discover_then_delete)
    code, out, _ = run(capsys, "-q", str(tmp_path))
    assert code == 1
    assert "gone.py:1:1: JAX001 no such file (was it deleted during the run?)" in out
    assert "keep.py:5:5: JAX101" in out


def test_notebook_is_checked_per_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["# Title"]},
            {"cell_type": "code", "source": ["import jax\n", "%matplotlib inline\n", "!pip list"]},
            {
                "cell_type": "code",
                "source": "@jax.jit\ndef f(x):\n    print(x)  # noqa: JAX5\n    return x\n",
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "analysis.ipynb"
    path.write_text(json.dumps(notebook))
    code, out, _ = run(capsys, "-q", str(path))
    assert code == 1 and out == (
        f"{path}:cell 3:3:5: JAX101 `print` in `f` runs only while JAX traces it, and shows tracers, not values "
        "(`f` is traced by `jax.jit` at line 1); use `jax.debug.print`\n"
        f"{path}:cell 3:3:15: JAX010 unused `# noqa` code `JAX5`: nothing on this line reports it\n"
    )
    code, out, _ = run(capsys, "--output-format", "json", str(path))
    finding, _ = json.loads(out)
    assert finding["cell"] == 3 and finding["location"] == {"row": 3, "column": 5}
    (edit,) = finding["fix"]["edits"]  # in the cell's rows
    assert (edit["location"], edit["content"]) == ({"row": 3, "column": 5}, 'jax.debug.print("{}", x)')
    run(capsys, "--fix", str(path))
    fixed = json.loads(path.read_text())
    assert fixed["cells"][:2] == notebook["cells"][:2]  # magics and markdown as they were
    assert fixed["cells"][2]["source"] == notebook["cells"][2]["source"].replace(
        "print(x)", 'jax.debug.print("{}", x)'
    )


def test_broken_notebook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_text('{"cells": [')
    code, out, _ = run(capsys, "-q", str(path))
    assert code == 1 and "JAX001 not a valid notebook" in out


def test_non_python_file_named_explicitly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.md").write_text("print(x)\n")
    script = tmp_path / "tool"
    script.write_text("#!/usr/bin/env python3\n" + JITTED_PRINT)
    code, out, err = run(capsys, "-q", str(tmp_path / "notes.md"), str(script))
    assert f"jaxlint: warning: {tmp_path / 'notes.md'}: not a Python file (skipped)" in err
    assert codes(out) == ["JAX101"] and code == 1


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("def first[T](items: list[T]) -> T:\n    return items[0]\n", "generic function syntax (PEP 695)"),
        ("class Box[T]:\n    pass\n", "generic class syntax (PEP 695)"),
        ('name = "x"\nmessage = f"{"nested"} {name}"\n', "f-string syntax of PEP 701"),
    ],
)
def test_newer_syntax_is_told_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, what: str
) -> None:
    if sys.version_info >= (3, 12):
        pytest.skip("the running interpreter understands this syntax")
    path = tmp_path / "new.py"
    path.write_text(source)
    _, out, _ = run(capsys, "-q", str(path))
    assert "JAX000" in out and what in out and "needs Python 3.12+" in out


def test_a_crashing_rule_is_contained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from jaxlint.engine.registry import rule_by_code

    rule = rule_by_code("JAX501")
    assert rule is not None

    def broken(self, node, ctx):
        raise KeyError("boom")

    monkeypatch.setattr(rule, "visit_If", broken)
    (tmp_path / "a.py").write_text(
        JITTED_PRINT + "\n@jax.jit\ndef g(x):\n    if x > 0:\n        return x\n    return x\n"
    )
    (tmp_path / "b.py").write_text(JITTED_PRINT)
    code, out, err = run(capsys, "-q", str(tmp_path))
    assert code == 1 and err == ""
    assert "a.py:10:1: JAX002 internal error in rule JAX501: KeyError: 'boom'" in out
    assert "please report it" in out
    assert out.count("JAX101") == 2


def test_a_crashing_fixer_costs_only_its_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from jaxlint.fixing.fixer import fixers

    def broken(request, site, doc):
        raise KeyError("boom")

    monkeypatch.setattr(fixers()["JAX501"], "fix", broken)
    path = tmp_path / "a.py"
    path.write_text(JITTED_PRINT + "\n@jax.jit\ndef g(x):\n    if x > 0:\n        return x\n    return x\n")
    _, out, err = run(capsys, "-q", str(path))
    assert err == "" and codes(out) == ["JAX101", "JAX501"]  # plain text output computes no fix
    _, out, err = run(capsys, "-q", "--output-format", "json", str(path))
    found = {d["code"]: d for d in json.loads(out)}
    assert err == "" and sorted(found) == ["JAX002", "JAX101", "JAX501"]
    assert found["JAX002"]["message"].startswith("internal error in the JAX501 fixer: KeyError: 'boom'")
    assert "the finding is left unfixed" in found["JAX002"]["message"]
    assert found["JAX501"]["fix"] is None and found["JAX101"]["fix"] is not None
    _, out, _ = run(capsys, "-q", "--fix", "--unsafe-fixes", str(path))
    assert "jax.debug.print" in path.read_text()
    assert codes(out) == ["JAX002", "JAX501"]


@pytest.mark.slow
def test_killed_fix_leaves_every_file_original_or_fully_fixed(tmp_path: Path) -> None:
    source = (
        "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    y = jnp.zeros(3)\n    y[0] = x\n    return y\n"
        * 4
    )
    expected = source.replace("print(x)", 'jax.debug.print("{}", x)').replace(
        "y[0] = x", "y = y.at[0].set(x)"
    )

    def fresh_tree() -> Path:
        tree = tmp_path / "tree"
        shutil.rmtree(tree, ignore_errors=True)
        for index in range(400):
            folder = tree / f"pkg{index // 40}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"mod{index}.py").write_text(source)
        return tree

    command = [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--jobs", "2", "--fix", "-q"]
    start = time.perf_counter()
    subprocess.run([*command, str(fresh_tree())], capture_output=True, check=False)
    whole = time.perf_counter() - start
    interrupted = 0
    for fraction in (0.6, 0.75, 0.9, 0.97):
        tree = fresh_tree()
        process = subprocess.Popen(
            [*command, str(tree)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(whole * fraction)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        states = [p.read_text() for p in tree.rglob("*.py")]
        assert set(states) <= {source, expected}, "a file was left half-written"
        interrupted += 0 < states.count(expected) < len(states)
    assert interrupted, "no run was killed half-way through writing: the test tested nothing"
