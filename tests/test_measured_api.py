"""The measured JAX API facts: the loader, facts everyone knows, and (slow) that the stored data is
what JAX measures now."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

from jaxlint.semantic import measured
from tests.conftest import ROOT

DATA = ROOT / "jaxlint" / "semantic" / "data" / "jax_api.json"


def stored() -> dict[str, Any]:
    return json.loads(DATA.read_text())


def test_the_data_records_the_versions_it_was_measured_with() -> None:
    data = stored()
    assert measured.measured_with() == data["jax_version"]
    assert data["jax_version"][0].isdigit()
    assert data["jaxlib_version"][0].isdigit()
    assert data["numpy_version"][0].isdigit()


def test_a_shape_must_be_concrete() -> None:
    zeros = measured.concrete_parameters("jax.numpy.zeros")
    assert zeros is not None
    assert 0 in zeros.positions and "shape" in zeros.names
    assert zeros.find(position=0) == zeros.find(keyword="shape")
    assert zeros.find(position=1) is None  # dtype
    normal = measured.concrete_parameters("jax.random.normal")
    assert normal is not None and normal.find(position=1) is not None and normal.find(position=0) is None


def test_every_bound_of_arange_must_be_concrete() -> None:
    arange = measured.concrete_parameters("jax.numpy.arange")
    assert arange is not None and arange.all_positional
    assert {"start", "stop", "step"} <= arange.names


def test_repeats_must_be_concrete_unless_the_total_length_is_given() -> None:
    repeat = measured.concrete_parameters("jax.numpy.repeat")
    assert repeat is not None
    repeats = repeat.find(keyword="repeats")
    assert repeats is not None and repeats.position == 1
    assert repeats.unless == ("total_repeat_length",)


def test_a_function_measured_with_nothing_concrete_is_an_empty_answer_not_none() -> None:
    add = measured.concrete_parameters("jax.numpy.add")
    assert add is not None and not add.parameters and add.find(position=0) is None
    assert measured.concrete_parameters("jax.numpy.no_such_function") is None
    assert measured.concrete_parameters("numpy.zeros") is None


def test_keys() -> None:
    assert measured.consumes_key("jax.random.split") is True
    assert measured.consumes_key("jax.random.normal") is True
    assert measured.consumes_key("jax.random.fold_in") is False
    assert measured.consumes_key("jax.random.key_data") is False
    assert measured.consumes_key("jax.random.key") is None  # takes a seed, not a key
    assert measured.consumes_key("jax.numpy.sum") is None


def test_numpy_and_tracers() -> None:
    assert measured.numpy_rejects_tracer("numpy.exp") is True
    assert measured.numpy_rejects_tracer("numpy.sum") is False  # calls the array's method
    assert measured.numpy_rejects_tracer("numpy.no_such_function") is None


def test_what_jit_needs_and_what_it_refuses() -> None:
    nonzero = measured.required_under_jit("jax.numpy.nonzero")
    assert nonzero is not None and nonzero.requires == ("size",)
    assert measured.required_under_jit("jax.numpy.sum") is None
    assert measured.fails_under_jit("jax.numpy.sum") is None


def test_sequences_and_static_queries() -> None:
    assert measured.rejects_sequence("jax.numpy.sum") == frozenset({0, 6})  # `a` and `where`
    assert measured.rejects_sequence_keywords("jax.numpy.sum") == frozenset({"a", "where"})
    assert measured.rejects_sequence_keywords("jax.numpy.mean") >= {"where"}  # keyword-only there
    assert measured.rejects_sequence("jax.lax.add") is None  # measured for jax.numpy only
    assert measured.is_static_query("jax.numpy.shape")
    assert not measured.is_static_query("jax.numpy.sum")


def test_the_loader_never_imports_jax() -> None:
    tree = ast.parse(Path(measured.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not {name for name in imported if name == "jax" or name.startswith(("jax.", "jaxlib"))}


def test_the_wheel_ships_the_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["jaxlint.semantic"]
    assert any(fnmatch("data/jax_api.json", pattern) for pattern in patterns)


# functions whose stored facts are measured again: one of each kind of fact
SAMPLE = (
    "jax.numpy.zeros",
    "jax.numpy.arange",
    "jax.numpy.repeat",
    "jax.numpy.nonzero",
    "jax.numpy.sum",
    "jax.numpy.exp",
    "jax.numpy.shape",
    "jax.lax.scan",
    "jax.lax.dynamic_slice",
    "jax.nn.one_hot",
    "jax.random.normal",
    "jax.random.split",
    "jax.random.fold_in",
    "jax.random.key_data",
    "jax.scipy.special.multigammaln",
    "jax.scipy.linalg.expm",
)


def facts(data: dict[str, Any], qualname: str) -> dict[str, Any]:
    """Every fact the data holds about one function and its NumPy namesake."""
    numpy_name = "numpy." + qualname.removeprefix("jax.numpy.") if qualname.startswith("jax.numpy.") else ""
    return {
        "concrete": data["concrete"].get(qualname),
        "measured": any(qualname in names for names in data["measured_without_concrete"].values()),
        "jit_requires": data["jit_requires"].get(qualname),
        "fails_under_jit": data["fails_under_jit"].get(qualname),
        "rejects_sequence": data["rejects_sequence"].get(qualname),
        "static": qualname in data["static_results"],
        "keys": [kind for kind, names in data["keys"].items() if qualname in names],
        "numpy": [kind for kind, names in data["numpy"].items() if numpy_name in names],
    }


@pytest.mark.slow
def test_the_stored_data_is_what_jax_measures_now(tmp_path: Path) -> None:
    """Runs the measurement (with JAX) on a sample; a difference means the data is stale:
    run ``python tools/measure_jax_api.py`` and review the diff."""
    out = tmp_path / "sample.json"
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "measure_jax_api.py"), "--output", str(out), "--only", *SAMPLE],
        check=True,
        capture_output=True,
        timeout=600,
    )
    fresh, old = json.loads(out.read_text()), stored()
    for version in ("jax_version", "jaxlib_version", "numpy_version"):
        assert fresh[version] == old[version], (
            f"measured with {version} {old[version]}, installed {fresh[version]}"
        )
    for qualname in SAMPLE:
        assert facts(fresh, qualname) == facts(old, qualname), qualname
