"""Regressions found by the property tests and by ``bench/sweep.py`` (the standard library and the
pinned corpus, also with every function traced), one minimal case each."""

from __future__ import annotations

import ast
import textwrap

from jaxlint.engine import RuleSet, analyze
from jaxlint.fixing import FixResult, fix_source
from jaxlint.registry import rule_codes
from jaxlint.semantic.project import ProjectView, trace_everything

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
            while (x < 0 or
                   x > 10):
                x = x * 2
            return x
        """
    )
    assert "        return (x < 0 or\n               x > 10)\n" in result.fixed
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
