"""Regressions found by the property tests and by ``bench/sweep.py`` (the standard library and the
pinned corpus, also with every function traced), one minimal case each."""

from __future__ import annotations

import ast
import textwrap

import pytest
from jaxlint.rules.purity.jax101_print_in_traced_function import DebugPrint

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.engine.linter import RuleSet, analyze
from jaxlint.engine.registry import rule_codes
from jaxlint.fixing.applier import FixResult, fix_source
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import Fixer, fixers
from jaxlint.semantic.cross_module import ProjectView, trace_everything

RULES = RuleSet.from_codes(rule_codes())


def fixed(source: str, project: ProjectView | None = None) -> FixResult:
    """Fix with unsafe fixes; the output must parse and be a fixed point."""
    source = textwrap.dedent(source)
    result = fix_source(source, "case.py", RULES, unsafe=True, project=project)
    ast.parse(result.fixed)
    assert fix_source(result.fixed, "case.py", RULES, unsafe=True, project=project).fixed == result.fixed
    return result


def test_while_condition_spanning_lines_keeps_its_parentheses_in_cond_fun() -> None:
    # _pydecimal.py: `while (R <= L and ... or\n R > L and ...):` lost its parentheses in
    # `return <test>`, and the fixer crashed on its own output
    result = fixed(
        """\
        import jax


        @jax.jit
        def f(x):
            while (x * 2 +
                   x < 10):
                x = x * 2
            return x
        """
    )
    assert "        return (x * 2 +\n               x < 10)\n" in result.fixed
    assert result.applied == {"JAX501": 1}


def test_every_function_traced_seeds_methods_and_nested_functions() -> None:
    tree = ast.parse("def f():\n    def g(): pass\nclass A:\n    if True:\n        def m(self): pass\n")
    assert sorted(seed.target for seed in trace_everything(tree).seeds) == ["A.m", "f", "f.g"]


def test_every_function_traced_makes_plain_python_fire() -> None:
    source = "def f(x):\n    print(x)\n    return x\n"
    codes = [
        d.code
        for d in analyze(source, "case.py", RULES, project=trace_everything(ast.parse(source))).diagnostics
    ]
    assert codes == ["JAX101"]


class StillPrints(Fixer[DebugPrint]):
    """A broken fixer: its rewrite is still a ``print``."""

    code = "JAX101"

    def fix(self, request: DebugPrint, site: Site, doc: Document) -> Fix | None:
        node = site.node
        edit = doc.edit(doc.start(node), doc.end(node), f"print({doc.segment(node)})")
        return doc.fix(Applicability.SAFE, "no-op", [edit])


def test_a_fix_that_leaves_its_finding_is_rolled_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fixers(), "JAX101", StillPrints())
    source = "import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"
    result = fix_source(source, "case.py", RULES)
    assert result.fixed == source
    assert result.problems == ["case.py:6: fix for JAX101 did not remove the finding; it was rolled back"]


def test_a_finding_a_fix_only_moved_does_not_roll_it_back() -> None:
    # an `if` inside a `while`: the while_loop fix moves the `if` (still a finding) into body_fun
    result = fixed(
        """\
        import jax


        @jax.jit
        def f(x, y):
            while x < 10:
                if x > 5:
                    y = y * 2
                x = x + 1
            return x, y
        """
    )
    assert result.problems == [] and result.applied == {"JAX501": 2}


def test_a_finding_moved_into_the_fix_s_own_line_does_not_roll_it_back() -> None:
    # the `if` becomes `a = jnp.where(x > 0, <the conditional expression>, a)`: still a finding,
    # moved, not written by the fix
    result = fixed(
        """\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def f(x):
            a = jnp.zeros(3)
            if x > 0:
                a = x if x > 1 else -x
            return a
        """
    )
    assert result.problems == []
    assert "a = jnp.where(x > 0, jnp.where(x > 1, x, -x), a)" in result.fixed


def test_parenthesised_conditions_are_located_and_fixed() -> None:
    # libcst's positions leave out a node's own parentheses: `(x > 0)` was never found, no fix
    result = fixed(
        """\
        import jax


        @jax.jit
        def f(x):
            if (x > 0):
                return x
            return -x


        @jax.jit
        def g(x):
            return (x) if (x > 0) else (-x)
        """
    )
    assert result.fixed.count("return jnp.where(x > 0, x, -x)") == 2


def test_identical_findings_in_one_statement_are_fixed_one_by_one() -> None:
    # fixing the first `x if x > 0 else -x` leaves the second, identical one: not a failed fix
    result = fixed(
        """\
        import jax


        @jax.jit
        def f(x):
            return (x if x > 0 else -x) + (x if x > 0 else -x)
        """
    )
    assert result.problems == [] and result.applied == {"JAX501": 2}


def test_tuples_keep_or_get_their_parentheses_as_arguments() -> None:
    # dataclasses.py, tracemalloc.py: `args = self.default,` and `()` lost or broke their
    # parentheses inside `jnp.where(...)`, and `x[0:2] = 1, 2` became `.set(1, 2)`
    result = fixed(
        """\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def f(x, default):
            if x > 0:
                x = default,
            return x if x.sum() > 0 else ()


        @jax.jit
        def g(x):
            y = jnp.zeros(3)
            y[0:2] = 1, 2
            return y
        """
    )
    # a tuple bound in a branch goes into `lax.cond` as written: `jnp.where` would make it an array
    assert "        x = default,\n" in result.fixed and "jax.lax.cond(x > 0" in result.fixed
    assert "return jnp.where(x.sum() > 0, x, jnp.array(()))" in result.fixed
    assert "y = y.at[0:2].set((1, 2))" in result.fixed


def test_a_construct_a_fix_uncovers_does_not_roll_it_back() -> None:
    # test_peepholer.py: `if (True if x else False):` -- fixing the conditional expression makes
    # the `if` itself branch on an array, a new finding for the next pass
    source = "def f(x):\n    if (True if x else False):\n        return True\n    return False\n"
    result = fixed(source, trace_everything(ast.parse(source)))
    assert result.problems == []
    assert "return jnp.where(jnp.where(x, True, False), True, False)" in result.fixed


def test_slice_stores_and_at_updates_keep_their_slices() -> None:
    # flax checkpoints.py, jax parallel.py: a window at a traced offset on the left of `=` (or
    # inside `.at[...]` after the JAX201 fix) became `dynamic_slice_in_dim(...)`, which is no
    # assignment target, or took `.at` itself as the array
    result = fixed(
        """\
        import jax


        @jax.jit
        def write(i, buf, out):
            out[i : i + 4] = buf
            return out
        """
    )
    assert "out = out.at[i : i + 4].set(buf)" in result.fixed
    assert "dynamic_slice" not in result.fixed


def test_a_traced_bound_slicing_a_list_names_the_error_python_raises() -> None:
    # jax convolution.py: `shape[src:src + 1] = ...` on `list(x.shape)` raises
    # TracerIntegerConversionError (a list asks for `__index__`), not jnp's IndexError
    source = textwrap.dedent(
        """\
        import jax


        @jax.jit
        def split(axis, x):
            shape = list(x.shape)
            return shape[axis : axis + 1]
        """
    )
    (finding,) = [d for d in analyze(source, "case.py", RULES).diagnostics if d.code == "JAX403"]
    assert "`TracerIntegerConversionError`" in finding.message
    assert "IndexError" not in finding.message.replace("TracerIntegerConversionError", "")
    result = fixed(source)
    assert "dynamic_slice" not in result.fixed


def test_a_reuse_in_a_loop_is_split_before_each_use() -> None:
    # property tests (long profile): a consumption in a loop of a key used before the loop is a
    # JAX301 reuse; the key is read again on the next iteration, so the JAX301 fix splits a
    # subkey off before each use (it once left the loop's consumption for JAX302)
    source = """\
        import jax


        def f(key, x):
            a = jax.random.normal(key, (3,))
            for _ in range(3):
                x = x + jax.random.normal(key, (3,))
            return a + x
        """
    before = [d.code for d in analyze(textwrap.dedent(source), "case.py", RULES).diagnostics]
    assert before == ["JAX301"]
    result = fix_source(textwrap.dedent(source), "case.py", RuleSet.from_codes(["JAX301"]), unsafe=True)
    after = [d.code for d in analyze(result.fixed, "case.py", RULES).diagnostics]
    assert after == []
    assert "    for _ in range(3):\n        key, subkey_2 = jax.random.split(key)\n" in result.fixed


def test_an_item_of_an_expression_that_cannot_be_assigned_gets_no_fix() -> None:
    # pretend-traced sweep of the standard library (idlelib/query.py): `(a or b)[i] = v` got the
    # fix `(a or b) = (a or b).at[i].set(v)`, which does not parse (a crash of the fixer)
    source = """\
        import jax
        import jax.numpy as jnp


        @jax.jit
        def show(widget, fallback, message):
            (widget or fallback)["text"] = message
            (widget or fallback)[0] += 1.0
            return widget
        """
    result = fixed(source, trace_everything(ast.parse(textwrap.dedent(source))))
    assert '    (jnp.logical_or(widget, fallback))["text"] = message\n' in result.fixed  # JAX503's, then none
    assert "    (jnp.logical_or(widget, fallback))[0] += 1.0\n" in result.fixed
    assert [d.code for d in result.remaining if d.code == "JAX002"] == []  # no fixer crashed
