"""The facts behind the JAX6xx rules: spelled names, the migration table and its documentation,
static parameters of jit sites."""

from __future__ import annotations

import ast
import re

import pytest
from jaxlint.rules.compile.migrations import MIGRATIONS
from jaxlint.rules.compile.numpy_api import JNP_REJECTS_SEQUENCE, NUMPY_CONVERTS_TRACER
from jaxlint.rules.support.jitted import jitted_callee

from jaxlint.engine.context import Context
from jaxlint.engine.registry import all_rules
from jaxlint.semantic.model import SemanticModel


def model_of(source: str) -> SemanticModel:
    return SemanticModel(ast.parse(source))


def test_spelled_names_are_not_canonicalised() -> None:
    model = model_of("import jax\nfrom jax.experimental.pjit import pjit\njax.tree_map\npjit\n")
    module = model.index.module
    attribute = model.tree.body[2].value  # type: ignore[attr-defined]
    name = model.tree.body[3].value  # type: ignore[attr-defined]
    assert model.qualname(attribute, module) == "jax.tree.map"
    assert model.resolver.spelled(attribute, module) == "jax.tree_map"
    assert model.qualname(name, module) == "jax.jit"
    assert model.resolver.spelled(name, module) == "jax.experimental.pjit.pjit"


def _table_rows() -> list[tuple[set[str], str, str]]:
    """(the APIs a row names, deprecated, removed) for each row of JAX609's table; ``tree_leaves``
    after ``jax.tree_flatten`` in one cell means ``jax.tree_leaves``."""
    rule = next(r for r in all_rules() if r.code == "JAX609")
    rows = []
    for line in rule.docs()["What it does"].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("API", "---"):
            continue
        names: set[str] = set()
        parent = ""
        for name in re.findall(r"`([\w.]+)", cells[0]):
            if "." in name:
                parent = name.rsplit(".", 1)[0]
                names.add(name)
            else:
                names.add(f"{parent}.{name}")
        rows.append((names, cells[2], cells[3]))
    return rows


@pytest.mark.parametrize("old", sorted(MIGRATIONS))
def test_every_migration_is_documented_with_its_versions(old: str) -> None:
    migration = MIGRATIONS[old]
    rows = [row for row in _table_rows() if old in row[0]]
    assert len(rows) == 1, f"{old} must be in exactly one row of the JAX609 documentation table"
    _, deprecated, removed = rows[0]
    assert deprecated == (migration.deprecated or "")
    assert removed == (migration.removed or "")


def test_documented_rows_are_all_known() -> None:
    for names, _, _ in _table_rows():
        assert names <= set(MIGRATIONS), names - set(MIGRATIONS)


def test_tables_name_jax_numpy_namesakes() -> None:
    assert all(name.startswith("numpy.") for name in NUMPY_CONVERTS_TRACER)
    assert "numpy.asarray" not in NUMPY_CONVERTS_TRACER  # JAX503's
    assert "numpy.sum" not in NUMPY_CONVERTS_TRACER  # calls x.sum(): works on tracers
    for accepting in ("array", "asarray", "stack", "concatenate", "vstack", "hstack", "block", "zeros"):
        assert f"jax.numpy.{accepting}" not in JNP_REJECTS_SEQUENCE


def _jitted(source: str) -> tuple[SemanticModel, list[ast.Call]]:
    model = model_of(source)
    calls = [n for n in ast.walk(model.tree) if isinstance(n, ast.Call) and ast.unparse(n).startswith("g(")]
    return model, calls


@pytest.mark.parametrize(
    ("source", "static"),
    [
        ("import jax\n@jax.jit\ndef g(x, n): ...\ng(1, 2)\n", set()),
        (
            "import jax, functools\n@functools.partial(jax.jit, static_argnums=(1,))\ndef g(x, n): ...\ng(1, 2)\n",
            {"n"},
        ),
        ("import jax\ndef f(x, n, m): ...\ng = jax.jit(f, static_argnums=-1)\ng(1, 2, 3)\n", {"m"}),
        ("import jax\ndef f(x, n): ...\ng = jax.jit(f, static_argnames='n')\ng(1, n=2)\n", {"n"}),
    ],
)
def test_static_parameters_of_jitted_calls(source: str, static: set[str]) -> None:
    model, calls = _jitted(source)
    context = Context("t.py", source.splitlines(), model)
    callee = jitted_callee(context, calls[0])
    assert callee is not None and callee.static == static


@pytest.mark.parametrize(
    "source",
    [
        "import jax\ndef g(x): ...\nh = jax.jit(g)\ng(1)\n",  # the plain function, not the jitted one
        "import jax\ndef f(x, n): ...\ng = jax.jit(f, static_argnums=N)\ng(1, 2)\n",  # not a literal
        "import jax\ndef f(x): ...\ng = jax.jit(f)\ng = f\ng(1)\n",  # rebound
    ],
)
def test_calls_not_certainly_jitted(source: str) -> None:
    model, calls = _jitted(source)
    assert jitted_callee(Context("t.py", source.splitlines(), model), calls[-1]) is None
