"""Whole-project analysis: helpers in other modules are traced through imports, re-exports and
transforms applied to imported functions; and the per-file cache and workers stay correct."""

from __future__ import annotations

import importlib
import json
import os
import shutil
from pathlib import Path

import pytest

from jaxlint.hosts.cli import main

EXAMPLE = Path(__file__).parent / "data" / "project"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    code = main(["check", "--output-format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def found(diagnostics: list[dict], root: Path) -> set[tuple[str, int, str]]:
    return {
        (Path(d["filename"]).relative_to(root.resolve()).as_posix(), d["location"]["row"], d["code"])
        for d in diagnostics
    }


EXPECTED = {
    ("shop/kernels.py", 9, "JAX501"),  # `if factor > 1` in scale_by, called from jitted train.step
    ("shop/kernels.py", 15, "JAX403"),  # jnp.zeros(n) in pad, called with a traced n
    ("shop/kernels.py", 20, "JAX101"),  # print in loss, which train.py jits through jax.grad
    ("shop/layers/norm.py", 6, "JAX503"),  # float() in rms, reached through a re-export
    ("shop/units.py", 5, "JAX501"),  # a module that never imports JAX, traced from train.py
    ("shop/train.py", 24, "JAX502"),  # range() over a traced argument, a local finding
    ("shop/kernels.py", 34, "JAX106"),  # next() in shifted: jitted train.step runs it once per trace
    # (not kernels.py:38: jittered is under a bare vmap, which runs next() on every call)
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root)
    return root


def test_helper_hazards_are_found_only_with_the_whole_project(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, diagnostics = run(capsys, "--no-cache", str(project))
    assert found(diagnostics, project) == EXPECTED
    _, alone = run(capsys, "--no-cache", str(project / "shop" / "kernels.py"))
    assert alone == []


def test_messages_say_which_module_traces_the_helper(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, diagnostics = run(capsys, "--no-cache", str(project))
    message = next(d["message"] for d in diagnostics if d["code"] == "JAX501")
    assert "`scale_by` is called from traced `step` in `shop.train`" in message


@pytest.mark.slow
def test_parallel_workers_give_the_same_output(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for index in range(20):  # enough files to use the worker pool
        (project / "shop" / f"filler_{index}.py").write_text("import jax\n\nx = jax.numpy.zeros(3)\n")
    _, serial = run(capsys, "--no-cache", "--jobs", "1", str(project))
    _, parallel = run(capsys, "--no-cache", "--jobs", "2", str(project))
    assert serial == parallel
    assert found(parallel, project) == EXPECTED


def test_warm_cache_gives_the_same_output_without_analysing(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    _, cold = run(capsys, "--cache-dir", str(cache), str(project))
    entries = list(cache.rglob("*.json"))
    assert entries and all(json.loads(e.read_text()) for e in entries)
    _, warm = run(capsys, "--cache-dir", str(cache), str(project))
    assert warm == cold
    from jaxlint.project.runner import Mode, check_paths
    from jaxlint.project.settings import SettingsCache

    result = check_paths([str(project)], SettingsCache(), Mode(with_fixes=True, cache_dir=cache))
    assert result.analysed == 0


def test_a_changed_file_is_analysed_again(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    run(capsys, "--cache-dir", str(cache), str(project))
    kernels = project / "shop" / "kernels.py"
    kernels.write_text(kernels.read_text().replace("if factor > 1:", "if factor is None:"))
    _, diagnostics = run(capsys, "--cache-dir", str(cache), str(project))
    assert found(diagnostics, project) == EXPECTED - {("shop/kernels.py", 9, "JAX501")}


def test_corrupt_cache_entries_are_ignored_and_rewritten(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    _, cold = run(capsys, "--cache-dir", str(cache), str(project))
    for entry in cache.rglob("*.json"):
        entry.write_text('{"diagnostics": [{"code": ')  # truncated
    _, again = run(capsys, "--cache-dir", str(cache), str(project))
    assert again == cold
    assert all(json.loads(e.read_text()) for e in cache.rglob("*.json"))


def test_cache_entries_are_plain_json_never_pickle(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    run(capsys, "--cache-dir", str(cache), str(project))
    for entry in cache.rglob("*.json"):
        data = json.loads(entry.read_text(encoding="utf-8"))
        assert set(data) == {"diagnostics", "requests", "returns", "exports", "reads", "writes"}
    assert not [p for p in cache.rglob("*") if p.is_file() and p.suffix not in (".json", "")]


def test_editing_jaxlint_s_own_sources_invalidates_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A development install whose rule was edited must not be served results of the old rule."""
    from jaxlint.project.cache import Cache, own_sources_fingerprint

    before = Cache(None, "settings").key("a.py", b"x = 1\n", "")
    rule = next(Path(importlib.import_module("jaxlint.rules").__path__[0]).rglob("jax1*.py"))
    stat = rule.stat()
    try:
        os.utime(rule, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        monkeypatch.setattr(
            "jaxlint.project.cache.own_sources_fingerprint", own_sources_fingerprint.__wrapped__
        )
        after = Cache(None, "settings").key("a.py", b"x = 1\n", "")
    finally:
        os.utime(rule, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert after != before


def test_fix_uses_the_whole_project(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--fix", "--no-cache", str(project)])
    capsys.readouterr()
    text = (project / "shop" / "kernels.py").read_text()
    assert '    """Squared error."""\n    jax.debug.print("loss {}", w)\n' in text
    assert "unused" in text and "if x > 0:" in text  # untraced code is left alone


RECORDS_STATE = """from typing import NamedTuple

import jax.numpy as jnp


class State(NamedTuple):
    x: jnp.ndarray
    n: int


def make(x):
    return State(x * 2.0, 3)


def advance(state):
    return state._replace(x=state.x + 1.0)
"""
RECORDS_TRAIN = """import jax

from pkg.state import advance, make


@jax.jit
def step(x):
    state = advance(make(x))
    if state.n > 2:  # a static field: fine
        x = x + 1
    if state.x > 0:
        x = x - 1
    return x
"""


def test_records_passed_between_modules_settle_and_keep_their_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record one module returns to another, and gets back as an argument, is the same value
    at every round: the project fixed point settles (it used to run to its round limit, every
    analysis of the file making new syntax-tree nodes the value referred to), and its fields
    stay known, through the cache too."""
    root = tmp_path / "records"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "state.py").write_text(RECORDS_STATE)
    (root / "pkg" / "train.py").write_text(RECORDS_TRAIN)
    from jaxlint.project.runner import MAX_ROUNDS, Mode, check_paths
    from jaxlint.project.settings import SettingsCache

    result = check_paths([str(root)], SettingsCache(), Mode(jobs=1))
    assert result.rounds < MAX_ROUNDS
    assert {(Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics} == {
        ("train.py", 11, "JAX501")
    }
    cache = tmp_path / "cache"
    _, cold = run(capsys, "--cache-dir", str(cache), str(root))
    _, warm = run(capsys, "--cache-dir", str(cache), str(root))
    assert warm == cold and [(d["location"]["row"], d["code"]) for d in cold] == [(11, "JAX501")]


GLOBALS_CONSTANTS = """import jax.numpy as jnp
import numpy as np

TABLE = jnp.arange(10.0)
WEIGHTS = {"w": jnp.ones(3)}
LIMIT = 3
NP_TABLE = np.arange(10.0)
PATCHED = jnp.float32(2.0)  # another module assigns it
REBOUND = jnp.float32(2.0)  # the reader binds the name again
"""
GLOBALS_PATCH = """import pkg.constants as C

C.PATCHED = 3
"""
GLOBALS_MODEL = """import jax
import jax.numpy as jnp

import pkg.constants as C
from pkg import TABLE as ALSO
from pkg.constants import LIMIT, NP_TABLE, PATCHED, REBOUND, TABLE, WEIGHTS

REBOUND = float(REBOUND)


@jax.jit
def step(x):
    i = jnp.argmax(x)
    if TABLE[i] > 0:  # a JAX array indexed by a tracer: a tracer
        x = x + 1
    if C.TABLE[i] > 1:  # the same, through the module
        x = x + 1
    if WEIGHTS["w"].sum() > 0:  # a dict may change in place: not followed
        x = x - 1
    if LIMIT > 2:  # a Python int
        x = x * 2
    if TABLE.shape[0] > 5:  # a shape
        x = x / 2
    if int(PATCHED * 2) > 1:  # a Python int where the other module runs first
        x = x + 2
    if int(REBOUND * 2) > 1:  # a Python float here
        x = x - 2
    if ALSO[i] > 2:  # re-exported by the package: the same array
        x = x * 3
    return x
"""


def test_module_level_arrays_another_module_imports_are_arrays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JAX array bound once at module level is a JAX array where another module imports it:
    indexed by a tracer, or computed with in staged code, it gives a tracer (measured:
    TracerBoolConversionError); a Python number or a shape stays static, and so does a name
    another module assigns (even one that never names JAX) or the reader binds again."""
    root = tmp_path / "globals"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from .constants import TABLE\n")
    (root / "pkg" / "constants.py").write_text(GLOBALS_CONSTANTS)
    (root / "pkg" / "model.py").write_text(GLOBALS_MODEL)
    (root / "pkg" / "patch.py").write_text(GLOBALS_PATCH)
    for args in (["--no-cache", "--jobs", "1"], ["--cache-dir", str(tmp_path / "cache")]):
        _, diagnostics = run(capsys, *args, str(root))
        assert found(diagnostics, root) == {
            ("pkg/model.py", 14, "JAX501"),
            ("pkg/model.py", 16, "JAX501"),
            ("pkg/model.py", 28, "JAX501"),
        }


STAR_MODEL = """import jax
import jax.numpy as jnp

from pkg.constants import *


@jax.jit
def step(x):
    i = jnp.argmax(x)
    if TABLE[i] > 0:  # bound by the star import: the JAX array of pkg.constants
        x = x + 1
    if LIMIT > 2:  # a Python int
        x = x * 2
    return x
"""
TWO_STARS_MODEL = STAR_MODEL.replace(
    "from pkg.constants import *\n", "from pkg.constants import *\nfrom pkg.other import *\n"
)


@pytest.mark.parametrize("model", [STAR_MODEL, TWO_STARS_MODEL], ids=["one star", "two stars"])
def test_a_star_import_binds_what_the_module_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str
) -> None:
    """A name bound nowhere in a module whose one ``from m import *`` binds it is ``m.name``:
    a JAX array there is one here (measured: TracerBoolConversionError). With two star imports,
    which one binds it is not known: silent."""
    root = tmp_path / "stars"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "constants.py").write_text(GLOBALS_CONSTANTS)
    (root / "pkg" / "other.py").write_text("LIMIT = 1\n")
    (root / "pkg" / "model.py").write_text(model)
    _, diagnostics = run(capsys, "--no-cache", str(root))
    expected = {("pkg/model.py", 10, "JAX501")} if model == STAR_MODEL else set()
    assert found(diagnostics, root) == expected


def test_modules_are_analysed_before_the_modules_they_import(tmp_path: Path) -> None:
    """What a module asks to trace in the modules it imports is known when they are analysed:
    a jitted caller that sorts after its helper's module no longer costs the helper's module a
    second analysis, and the order changes no finding."""
    root = tmp_path / "order"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "sub" / "__init__.py").write_text("")
    (root / "pkg" / "a_helpers.py").write_text(
        "def scale(x, factor):\n    if factor > 1:\n        return x\n    return -x\n"
    )
    (root / "pkg" / "sub" / "b_mid.py").write_text("from .. import a_helpers\n")
    (root / "pkg" / "z_train.py").write_text(
        "import jax\n\nfrom .a_helpers import scale\nfrom .sub import b_mid\n\n\n"
        "@jax.jit\ndef step(x, factor):\n    return scale(x, factor)\n"
    )
    from jaxlint.project.runner import Mode, check_paths, dependents_first, project_index
    from jaxlint.project.settings import SettingsCache

    files = sorted(str(p) for p in root.rglob("*.py"))
    order = [Path(p).name for p in dependents_first(files, project_index(files))]
    assert order.index("z_train.py") < order.index("b_mid.py") < order.index("a_helpers.py")
    result = check_paths([str(root)], SettingsCache(), Mode(jobs=1))
    # only z_train.py twice, to learn what `scale` returns (before, a_helpers.py was analysed
    # again too, once z_train.py asked to trace `scale`)
    assert result.analysed == len(files) + 1
    assert [(Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics] == [
        ("a_helpers.py", 2, "JAX501")
    ]
