"""`jaxlint check --fix / --unsafe-fixes / --diff`: what gets written, and what never does."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxlint.hosts.cli import main

SOURCE = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp


    @jax.jit
    def step(x, n):
        print("x:", x)  # keep this comment
        y = jnp.zeros(3)
        y[0] = x.sum()
        return y, (jnp.zeros(n) if x.ndim == 1 else y)  # a static `n` only on one path: unsafe
    """
)
FIXED_SAFE = SOURCE.replace('print("x:", x)', 'jax.debug.print("x: {}", x)').replace(
    "y[0] = x.sum()", "y = y.at[0].set(x.sum())"
)


def write(tmp_path: Path, text: str, name: str = "mod.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_fix_applies_safe_fixes_and_reports_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SOURCE)
    code, out, err = run(capsys, "check", "--fix", str(path))
    assert path.read_text(encoding="utf-8") == FIXED_SAFE
    assert code == 1 and err == ""
    assert "JAX403" in out and "(2 fixed, 1 remaining)" in out


def test_unsafe_fixes_go_further(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOURCE)
    code, out, _ = run(capsys, "check", "--fix", "--unsafe-fixes", str(path))
    text = path.read_text(encoding="utf-8")
    assert code == 0 and "(3 fixed, 0 remaining)" in out
    assert '@functools.partial(jax.jit, static_argnames=("n",))' in text
    assert text.splitlines()[2] == "import functools"


def test_second_fix_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOURCE)
    run(capsys, "check", "--fix", "--unsafe-fixes", str(path))
    once = path.read_bytes()
    run(capsys, "check", "--fix", "--unsafe-fixes", str(path))
    assert path.read_bytes() == once


def test_diff_writes_nothing_and_exits_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOURCE)
    code, out, _ = run(capsys, "check", "--diff", str(path))
    assert code == 1
    assert path.read_text(encoding="utf-8") == SOURCE
    assert out.startswith(f"--- {path}\n+++ {path}\n")
    assert (
        '-    print("x:", x)  # keep this comment\n+    jax.debug.print("x: {}", x)  # keep this comment\n'
        in out
    )
    clean = write(tmp_path, "import jax\n", "clean.py")
    code, out, _ = run(capsys, "check", "--diff", str(clean))
    assert code == 0 and out == ""


def test_fix_keeps_crlf_newlines_bom_and_declared_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    crlf = tmp_path / "crlf.py"
    crlf.write_bytes(SOURCE.replace("\n", "\r\n").encode())
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + SOURCE.encode())
    latin = tmp_path / "latin.py"
    latin.write_bytes(
        ("# -*- coding: latin-1 -*-\n" + SOURCE.replace('"x:"', '"\xe9t\xe9:"')).encode("latin-1")
    )
    run(capsys, "check", "--fix", str(crlf), str(bom), str(latin))
    assert crlf.read_bytes() == FIXED_SAFE.replace("\n", "\r\n").encode()
    assert bom.read_bytes() == b"\xef\xbb\xbf" + FIXED_SAFE.encode()
    expected = "# -*- coding: latin-1 -*-\n" + FIXED_SAFE.replace('"x: {}"', '"\xe9t\xe9: {}"')
    assert latin.read_bytes() == expected.encode("latin-1")


def test_fix_keeps_permissions_and_follows_symlinks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SOURCE)
    os.chmod(path, 0o750)
    link = tmp_path / "link.py"
    link.symlink_to(path)
    run(capsys, "check", "--fix", str(link))
    assert link.is_symlink()
    assert path.read_text(encoding="utf-8") == FIXED_SAFE
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".jaxlint-")]


def test_read_only_file_is_reported_not_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOURCE)
    os.chmod(path, 0o444)
    try:
        code, _, err = run(capsys, "check", "--fix", str(path))
    finally:
        os.chmod(path, 0o644)
    assert path.read_text(encoding="utf-8") == SOURCE
    assert code == 1
    assert f"jaxlint: warning: {path}: not fixed: the file is read-only" in err


def test_json_carries_fix_edits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, SOURCE)
    _, out, _ = run(capsys, "check", "--output-format", "json", str(path))
    by_code = {d["code"]: d for d in json.loads(out)}
    fix = by_code["JAX201"]["fix"]
    assert fix == {
        "applicability": "safe",
        "edits": [
            {
                "content": "y = y.at[0].set(x.sum())",
                "end_location": {"column": 19, "row": 9},
                "location": {"column": 5, "row": 9},
            }
        ],
        "message": "Rewrite as a functional update",
    }
    assert by_code["JAX403"]["fix"]["applicability"] == "unsafe"
    assert path.read_text(encoding="utf-8") == SOURCE


def test_plain_text_check_computes_no_fix(tmp_path: Path) -> None:
    """A fix can cost more than the check: text output only says which rules have fixes, and the
    fix machinery (libcst) is never loaded; JSON, which carries the fixes, computes them."""
    path = write(tmp_path, SOURCE)
    probe = (
        "import sys; from jaxlint.hosts.cli import main; code = main(sys.argv[1:]); "
        "print('libcst loaded' if 'libcst' in sys.modules else 'libcst not loaded')"
    )
    text = subprocess.run(
        [sys.executable, "-c", probe, "check", "--no-cache", str(path)], capture_output=True, text=True
    )
    assert "[*]" not in text.stdout and "JAX101 print" in text.stdout.replace("`", "")
    assert (
        "3 come from rules with fixes for some forms: `--diff` shows what `--fix` would change" in text.stdout
    )
    assert text.stdout.endswith("libcst not loaded\n")
    fixes = subprocess.run(
        [sys.executable, "-c", probe, "check", "--no-cache", "--output-format", "json", str(path)],
        capture_output=True,
        text=True,
    )
    assert fixes.stdout.endswith("libcst loaded\n") and '"applicability": "safe"' in fixes.stdout


def test_text_marks_safely_fixable_findings_where_fixes_are_computed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from jaxlint.engine.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
    from jaxlint.hosts.reporters.text import render_text, summary

    at = Location(1, 1)
    edits = (Edit("", at, at),)

    def finding(code: str, applicability: Applicability) -> Diagnostic:
        return Diagnostic(code, "name", "message", "m.py", at, at, fix=Fix(applicability, "fix", edits))

    safe, unsafe = finding("JAX101", Applicability.SAFE), finding("JAX403", Applicability.UNSAFE)
    assert "JAX101 [*] message" in render_text([safe, unsafe], {}) and "JAX403 message" in render_text(
        [unsafe], {}
    )
    text = summary([safe, unsafe], 1)
    assert (
        "[*] 1 fixable with the `--fix` option." in text
        and "1 more fixable with `--fix --unsafe-fixes`." in text
    )


@pytest.mark.slow
def test_fix_shorthand_without_the_check_command(tmp_path: Path) -> None:
    path = write(tmp_path, SOURCE)
    result = subprocess.run(
        [sys.executable, "-m", "jaxlint", "--fix"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 1, result.stderr
    assert path.read_text(encoding="utf-8") == FIXED_SAFE


def test_syntax_error_file_is_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "import jax\ndef f(:\n")
    code, out, _ = run(capsys, "check", "--fix", str(path))
    assert code == 1 and "JAX000" in out
    assert path.read_text(encoding="utf-8") == "import jax\ndef f(:\n"
