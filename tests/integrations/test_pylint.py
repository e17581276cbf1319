"""The pylint plugin, run through the real `pylint` as a subprocess."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from jaxlint.engine.registry import all_rules
from jaxlint.hosts.pylint import messages, pylint_msgid
from tests.conftest import ROOT
from tests.integrations.hosts import BAD, jaxlint_json, run, write

pytestmark = pytest.mark.slow  # drives a real host as a subprocess

TEMPLATE = "{path}|{line}|{column}|{end_line}|{end_column}|{msg_id}|{symbol}|{msg}"


def pylint(cwd: Path, *args: str | Path) -> tuple[int, list[str], str]:
    command = [sys.executable, "-m", "pylint", "--load-plugins=jaxlint.pylint_plugin", "--persistent=n"]
    command += ["--score=n", f"--msg-template={TEMPLATE}", "--disable=all", "--enable=jaxlint"]
    result = run(*command, *args, cwd=cwd)
    lines = [line for line in result.stdout.splitlines() if not line.startswith("*****")]
    return result.returncode, lines, result.stderr


def fields(lines: list[str]) -> list[list[str]]:
    return [line.split("|", 7) for line in lines]


def test_reports_what_jaxlint_check_reports(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.py", BAD)
    expected = [
        [
            "bad.py",
            str(d["location"]["row"]),
            str(d["location"]["column"] - 1),
            str(d["end_location"]["row"]),
            str(d["end_location"]["column"] - 1),
            {"JAX101": "W9101", "JAX501": "E9501", "JAX403": "E9403"}[d["code"]],
            d["name"],
            f"{d['code']} {d['message']}",
        ]
        for d in jaxlint_json(path, tmp_path)
    ]
    code, lines, stderr = pylint(tmp_path, "bad.py")
    assert code != 0 and "Traceback" not in stderr, stderr
    assert sorted(fields(lines)) == sorted(expected)
    assert len(expected) == 3


def test_disable_by_symbol_id_and_block(tmp_path: Path) -> None:
    source = BAD.replace("print(tag, x)", "print(tag, x)  # pylint: disable=print-in-traced-function")
    source = source.replace("if x.sum() > 0:", "if x.sum() > 0:  # pylint: disable=E9501")
    write(tmp_path, "bad.py", source)
    _, lines, _ = pylint(tmp_path, "bad.py")
    assert [f[6] for f in fields(lines)] == ["traced-shape-argument"]
    block = BAD.replace("def step(x, n):\n", "def step(x, n):\n    # pylint: disable=traced-shape-argument\n")
    write(tmp_path, "bad.py", block)
    _, lines, _ = pylint(tmp_path, "bad.py")
    assert sorted(f[6] for f in fields(lines)) == ["print-in-traced-function", "python-branch-on-tracer"]
    write(tmp_path, "bad.py", BAD)
    _, lines, _ = pylint(tmp_path, "--disable=python-branch-on-tracer,W9101", "bad.py")
    assert [f[6] for f in fields(lines)] == ["traced-shape-argument"]


def test_disable_the_whole_plugin(tmp_path: Path) -> None:
    write(tmp_path, "bad.py", BAD)
    plugin = "--load-plugins=jaxlint.pylint_plugin"
    enabled = run(sys.executable, "-m", "pylint", plugin, "--persistent=n", "bad.py", cwd=tmp_path)
    disabled = run(
        sys.executable, "-m", "pylint", plugin, "--persistent=n", "--disable=jaxlint", "bad.py", cwd=tmp_path
    )
    assert "(python-branch-on-tracer)" in enabled.stdout and "C0114" in enabled.stdout
    assert "9501" not in disabled.stdout and "9101" not in disabled.stdout and "C0114" in disabled.stdout


def test_tool_jaxlint_configuration_and_pylint_option(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nignore = ["JAX403"]\n')
    write(tmp_path, "bad.py", BAD)
    custom = "import jax\nimport mylib\n\n\n@mylib.compile\ndef g(y):\n    if y > 0:\n        return y\n    return -y\n"
    write(tmp_path, "custom.py", custom)
    _, lines, _ = pylint(tmp_path, "bad.py", "custom.py")
    assert sorted(f[0] + " " + f[5] for f in fields(lines)) == ["bad.py E9501", "bad.py W9101"]
    _, lines, _ = pylint(tmp_path, "--jaxlint-traced-decorators=mylib.compile", "bad.py", "custom.py")
    assert sorted(f[0] + " " + f[5] for f in fields(lines)) == [
        "bad.py E9501",
        "bad.py W9101",
        "custom.py E9501",
    ]


def test_parallel_jobs(tmp_path: Path) -> None:
    for name in ("a.py", "b.py", "c.py"):
        write(tmp_path, name, BAD)
    _, lines, stderr = pylint(tmp_path, "-j", "2", "a.py", "b.py", "c.py")
    assert len(lines) == 9, stderr


def test_broken_configuration_is_a_message_not_a_crash(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", "[tool.jaxlint]\nbogus = 1\n")
    write(tmp_path, "bad.py", BAD)
    _, lines, stderr = pylint(tmp_path, "bad.py")
    assert "Traceback" not in stderr
    ((path, line, *_, msgid, symbol, message),) = fields(lines)
    assert (path, line, msgid, symbol) == ("bad.py", "1", "E9001", "jaxlint-io-error")
    assert "pyproject.toml:2: unknown option `bogus`" in message


def test_message_ids_are_stable_and_documented() -> None:
    found = messages()
    assert {code for code in found} == {r.code for r in all_rules()} | {"JAX000", "JAX001", "JAX002"}
    assert found["JAX501"].msgid == "E9501" and found["JAX501"].symbol == "python-branch-on-tracer"
    assert found["JAX101"].msgid == "W9101" and found["JAX000"].symbol == "jaxlint-syntax-error"
    for code, message in found.items():
        assert re.fullmatch(r"[EW]9\d\d\d", message.msgid)
        assert message.msgid[2:] == code[3:]  # the digits read as the JAX code
    assert len({m.msgid[1:] for m in found.values()}) == len(found)
    assert pylint_msgid("JAX302", "warning") == "W9302"


def test_readme_mapping_table_agrees_with_the_plugin() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(JAX\d{3})` \| `([EW]9\d{3})` \| `([a-z-]+)` \|$", readme, re.MULTILINE)
    assert len(rows) >= 5
    found = messages()
    for code, msgid, symbol in rows:
        assert (found[code].msgid, found[code].symbol) == (msgid, symbol)
