"""CI output formats: SARIF 2.1.0 (validated against the official schema), GitHub annotations, JSON Lines."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from jaxlint.engine.diagnostics import Diagnostic, Location
from jaxlint.engine.registry import all_rules
from jaxlint.hosts.reporters.github import annotation
from tests.conftest import ROOT
from tests.integrations.hosts import BAD, jaxlint_json, run, write

pytestmark = pytest.mark.slow  # drives a real host as a subprocess

# The official schema, vendored with its licence note (tests/data/sarif-2.1.0.LICENSE.md).
SCHEMA = json.loads((ROOT / "tests/data/sarif-2.1.0.json").read_text(encoding="utf-8"))


def check(cwd: Path, output_format: str, *paths: str | Path) -> tuple[int, str]:
    result = run(sys.executable, "-m", "jaxlint", "check", "--output-format", output_format, *paths, cwd=cwd)
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, result.stdout


def validate_sarif(log: dict[str, Any]) -> None:
    validator_class = jsonschema.validators.validator_for(SCHEMA)
    validator_class.check_schema(SCHEMA)
    validator_class(SCHEMA, format_checker=validator_class.FORMAT_CHECKER).validate(log)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, "src/bad.py", BAD)
    write(tmp_path, "src/fixable.py", "import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n")
    write(tmp_path, "src/broken.py", "def f(:\n")
    write(tmp_path, "src/with space.py", BAD)
    return tmp_path


def test_sarif_is_valid_against_the_official_schema(project: Path) -> None:
    code, out = check(project, "sarif", "src")
    assert code == 1
    log = json.loads(out)
    validate_sarif(log)
    (run_,) = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {r.code for r in all_rules()} | {"JAX000"}
    assert run_["columnKind"] == "unicodeCodePoints"
    results = run_["results"]
    reference = jaxlint_json(project / "src", project)
    assert [r["ruleId"] for r in results] == [d["code"] for d in reference]
    for result, diagnostic in zip(results, reference, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert location["region"]["startLine"] == diagnostic["location"]["row"]
        assert location["region"]["startColumn"] == diagnostic["location"]["column"]
        assert location["region"]["endColumn"] == diagnostic["end_location"]["column"]
        assert result["level"] == {"error": "error", "warning": "warning"}[diagnostic["severity"]]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {"src/bad.py", "src/fixable.py", "src/broken.py", "src/with%20space.py"}


def test_sarif_carries_fixes_as_replacements(project: Path) -> None:
    _, out = check(project, "sarif", "src/fixable.py")
    (result,) = json.loads(out)["runs"][0]["results"]
    (fix,) = result["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "src/fixable.py"
    assert "safe fix" in fix["description"]["text"]
    (reference,) = jaxlint_json(project / "src/fixable.py", project)
    expected = [
        {
            "deletedRegion": {
                "startLine": edit["location"]["row"],
                "startColumn": edit["location"]["column"],
                "endLine": edit["end_location"]["row"],
                "endColumn": edit["end_location"]["column"],
            },
            "insertedContent": {"text": edit["content"]},
        }
        for edit in reference["fix"]["edits"]
    ]
    assert change["replacements"] == expected
    lines = (project / "src/fixable.py").read_text(encoding="utf-8").splitlines()
    for replacement in reversed(change["replacements"]):  # a SARIF consumer applying the fix
        region = replacement["deletedRegion"]
        assert region["startLine"] == region["endLine"] == 6
        line = lines[5]
        cut = slice(region["startColumn"] - 1, region["endColumn"] - 1)
        lines[5] = line[: cut.start] + replacement["insertedContent"]["text"] + line[cut.stop :]
    assert lines[5].strip() == 'jax.debug.print("{}", x)'


def test_sarif_of_clean_code_and_paths_outside_the_working_directory(tmp_path: Path) -> None:
    outside = write(tmp_path, "elsewhere/bad.py", BAD)
    inside = tmp_path / "cwd"
    inside.mkdir()
    _, out = check(inside, "sarif", outside)
    log = json.loads(out)
    validate_sarif(log)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == outside.as_uri()
    clean = write(inside, "clean.py", "import jax\n")
    code, out = check(inside, "sarif", clean)
    assert code == 0 and json.loads(out)["runs"][0]["results"] == []
    validate_sarif(json.loads(out))


def test_the_schema_rejects_a_malformed_log() -> None:
    """The validator is live: a log missing the tool's name fails."""
    with pytest.raises(jsonschema.ValidationError):
        validate_sarif({"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": []}]})


def test_github_annotations(project: Path) -> None:
    code, out = check(project, "github", "src/bad.py", "src/broken.py")
    assert code == 1
    lines = out.splitlines()
    reference = jaxlint_json(project / "src" / "bad.py", project) + jaxlint_json(
        project / "src/broken.py", project
    )
    assert len(lines) == len(reference)
    pattern = re.compile(
        r"::(error|warning) file=src/(bad|broken)\.py,line=(\d+),col=(\d+),endLine=\d+,endColumn=\d+,"
        r"title=jaxlint \((JAX\d{3}) [a-z-]+\)::(JAX\d{3}) .+%0Ajaxlint rule JAX\d{3}"
    )
    for line, diagnostic in zip(lines, reference, strict=True):
        match = pattern.fullmatch(line)
        assert match, line
        level, _, row, column, title_code, code_ = match.groups()
        assert level == ("error" if diagnostic["severity"] == "error" else "warning")
        assert (int(row), int(column)) == (diagnostic["location"]["row"], diagnostic["location"]["column"])
        assert title_code == code_ == diagnostic["code"]


def test_github_escaping() -> None:
    diagnostic = Diagnostic(
        "JAX501",
        "python-branch-on-tracer",
        "100% wrong\r\nreally: yes, no",
        "a,b:c.py",
        Location(3, 5),
        Location(4, 2),
        severity="warning",
    )
    line = annotation(diagnostic)
    assert line.startswith("::warning file=a%2Cb%3Ac.py,line=3,col=5,endLine=4,title=jaxlint (JAX501 ")
    assert line.endswith(
        "::JAX501 100%25 wrong%0D%0Areally: yes, no%0A" + (diagnostic.url or "jaxlint rule JAX501")
    )
    assert "\n" not in line and "endColumn" not in line  # a multi-line span has no end column


def test_json_lines_is_the_json_format_one_per_line(project: Path) -> None:
    code, out = check(project, "json-lines", "src")
    assert code == 1
    assert [json.loads(line) for line in out.splitlines()] == jaxlint_json(project / "src", project)
    _, empty = check(project, "json-lines", "src/fixable.py", "--select", "JAX5")
    assert empty == ""
