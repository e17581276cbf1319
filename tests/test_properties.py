"""Property tests: no program crashes jaxlint, and fixes always parse and settle.

Programs come from hypothesmith (random valid Python, checked as it is and with every function
traced), from templates that build JAX-shaped functions so that the rules and fixers fire, and
from breaking either kind (a character deleted or inserted). The ``ci`` profile is bounded; run
``JAXLINT_HYPOTHESIS_PROFILE=long python -m pytest tests/test_properties.py`` for thousands of
examples per test.
"""

from __future__ import annotations

import ast
import os
from collections import Counter
from collections.abc import Iterator

import hypothesmith
import libcst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from jaxlint.engine.astutil import parses
from jaxlint.engine.linter import INTERNAL_ERROR, SYNTAX_ERROR, RuleSet, analyze
from jaxlint.engine.registry import rule_codes
from jaxlint.fixing.applier import fix_source
from jaxlint.semantic.cross_module import ProjectView, trace_everything

RULES = RuleSet.from_codes(rule_codes())
PATH = "generated.py"
SLOW_GENERATION = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=SLOW_GENERATION,
    print_blob=True,
)
settings.register_profile(
    "long", max_examples=3000, deadline=None, suppress_health_check=SLOW_GENERATION, print_blob=True
)
PROFILE = settings.get_profile(os.environ.get("JAXLINT_HYPOTHESIS_PROFILE", "ci"))
# hypothesmith compiles what it generates: `"a"()` and the like warn
# property tests: many random programs
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::SyntaxWarning")]


@pytest.fixture(autouse=True, scope="module")
def raise_internal_errors() -> Iterator[None]:
    """A crash in a rule or the model fails the example with its traceback (not a JAX002)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JAXLINT_RAISE_INTERNAL_ERRORS", "1")
        yield


def traced_view(source: str) -> ProjectView:
    return trace_everything(ast.parse(source))


def codes(source: str, project: ProjectView | None) -> Counter[str]:
    return Counter(d.code for d in analyze(source, PATH, RULES, project=project).diagnostics)


def assert_checks_and_fixes_cleanly(source: str, project: ProjectView | None = None) -> None:
    """Checking reports no internal error; safe and unsafe fixes all apply (none is discarded or
    rolled back), their output parses, and fixing it again changes nothing."""
    assert INTERNAL_ERROR not in codes(source, project)
    for unsafe in (False, True):
        result = fix_source(source, PATH, RULES, unsafe=unsafe, project=project)
        assert parses(result.fixed), result.fixed
        assert result.problems == [], "a fix was discarded or rolled back"
        again = fix_source(result.fixed, PATH, RULES, unsafe=unsafe, project=project)
        assert again.fixed == result.fixed, "a second fix changed the output"


# ---------------------------------------------------------------------------- random valid Python


@PROFILE
@given(hypothesmith.from_grammar())
def test_random_grammar_programs_check_and_fix_cleanly(source: str) -> None:
    assume(parses(source))
    assert_checks_and_fixes_cleanly(source)


@PROFILE
@given(hypothesmith.from_grammar())
def test_random_grammar_programs_traced_throughout_check_and_fix_cleanly(source: str) -> None:
    source = source + "\nimport jax\n"
    assume(parses(source))
    assert_checks_and_fixes_cleanly(source, traced_view(source))


@PROFILE
@given(hypothesmith.from_node(libcst.Module))
def test_random_syntax_trees_traced_throughout_check_and_fix_cleanly(source: str) -> None:
    source = "import jax\n" + source
    assume(parses(source))
    assert_checks_and_fixes_cleanly(source, traced_view(source))


# ---------------------------------------------------------------------------- JAX-shaped programs

PARAMS = ("x", "y", "n", "key", "mask")
LOCALS = ("a", "b", "total", "i", "x", "carry", "body_fun")
CONSTANTS = ("0", "1", "2.5", "-1", "100", "1e-3")
HEADER = (
    "import functools\n"
    "import numpy as np\n"
    "import jax\n"
    "import jax.numpy as jnp\n"
    "from jax import lax, random\n"
    "\n"
    "STEPS = 500\n"
    "\n"
)
DECORATORS = (
    "@jax.jit\n",
    "@jax.vmap\n",
    '@functools.partial(jax.jit, static_argnames=("n",))\n',
    "@functools.partial(jax.jit, static_argnums=1)\n",
    "",
)
# One-line statements; {p}/{q} are parameters, {v} a local, {c} a constant, {k} a key name.
SIMPLE = (
    "print({p})",
    'print("{v}:", {p}, sep="")',
    "{v} = jnp.zeros(3)",
    "{v} = jnp.zeros({p})",
    "{v}[0] = {p}",
    "{v}[{p} > {c}] = {c}",
    "{v} += {c}",
    "{p}[1:] *= {c}",
    "{p}.at[0].set({c})",
    "{v} = {p}[{p} > {c}]",
    "{v} = {p}[{q}]",
    "{v} = jnp.nonzero({p})[0]",
    "{v} = jnp.unique({p})",
    "{v} = np.exp({p}) + np.sum({q})",
    "{v} = jnp.sum([{p}, {q}])",
    "{v} = random.normal({k}, (3,))",
    "{v} = jax.random.uniform({k}) + jax.random.uniform({k})",
    "{k}, {v} = jax.random.split({k})",
    "{v} = float({p})",
    "{v} = int({p}.sum())",
    "{v} = {p}.item()",
    "assert {p} > {c}",
    "{v} = {p} if {p} > {c} else {q}",
    "{v} = ({p}) if ({p} > {c} and {q}) else (-{q})",
    "{v} = jax.tree_map(lambda t: t + {c}, {p})",
    "{v} = jnp.where({p} > {c}, {p}, {q})",
    "{p} = {p} * {c} + {q}",
    "{v} = [{p} for {p} in range({c})]",
    "{v} = len({p})",
    "{v} = {p}.shape[0]",
    "pass",
    "# a comment mentioning {p}",
)


@st.composite
def jax_programs(draw: st.DrawFn) -> str:
    """A module of one to three functions, most of them jitted, whose bodies mix the patterns
    the rules look for with random names and constants."""
    functions = [draw(_function(f"f{i}")) for i in range(draw(st.integers(1, 3)))]
    tail = draw(st.sampled_from(["", "g = jax.jit(f0)\n", "g = jax.jit(f0, static_argnums=0)\n"]))
    return HEADER + "\n\n".join(functions) + "\n" + tail


@st.composite
def _function(draw: st.DrawFn, name: str) -> str:
    params = draw(st.lists(st.sampled_from(PARAMS), min_size=1, max_size=4, unique=True))
    decorator = draw(st.sampled_from(DECORATORS))
    body = draw(_block(params, depth=0))
    result = draw(st.sampled_from([*params, *LOCALS[:3], "None"]))
    return f"{decorator}def {name}({', '.join(params)}):\n{_indent([*body, f'return {result}'])}"


@st.composite
def _block(draw: st.DrawFn, params: list[str], depth: int) -> list[str]:
    count = draw(st.integers(1, 4))
    lines: list[str] = []
    for _ in range(count):
        kind = draw(st.sampled_from(["simple"] * 4 + ([] if depth >= 2 else ["compound"] * 2)))
        lines.extend(draw(_simple(params)) if kind == "simple" else draw(_compound(params, depth)))
    return lines


@st.composite
def _simple(draw: st.DrawFn, params: list[str]) -> list[str]:
    template = draw(st.sampled_from(SIMPLE))
    return [template.format(**draw(_names(params)))]


@st.composite
def _names(draw: st.DrawFn, params: list[str]) -> dict[str, str]:
    return {
        "p": draw(st.sampled_from(params)),
        "q": draw(st.sampled_from(params)),
        "v": draw(st.sampled_from(LOCALS)),
        "c": draw(st.sampled_from(CONSTANTS)),
        "k": draw(st.sampled_from(["key", *params])),
    }


@st.composite
def _compound(draw: st.DrawFn, params: list[str], depth: int) -> list[str]:
    names = draw(_names(params))
    inner = _indent(draw(_block(params, depth + 1)))
    header = draw(
        st.sampled_from(
            [
                "if {p} > {c}:",
                "if {p}:",
                "if {p}.sum() > {c} and {q}.any():",
                "if ({p} > {c}):",
                "if 0 < {p} < {c} or not {q}:",
                "while {p} < {c}:",
                "while (\n        {p} < {c}\n        or {q} > {c}\n    ):",
                "for i in range({p}):",
                "for _ in range(1000):",
                "for i in range(2, STEPS):",
                "for {v} in {p}:",
                "for _ in range(3):\n    key = jax.random.PRNGKey(0)",
                "with jax.named_scope('s'):",
                "def inner({p}):",
            ]
        )
    ).format(**names)
    lines = [header, inner]
    if header.startswith("if") and draw(st.booleans()):
        lines += ["else:", _indent(draw(_block(params, depth + 1)))]
    if header.startswith("def"):
        lines += [f"    return {names['p']}", f"{names['v']} = inner({names['q']})"]
    if header.startswith(("while", "for")) and draw(st.integers(0, 5)) == 0:
        lines.insert(1, "    break")
    return lines


def _indent(lines: list[str]) -> str:
    return "".join("    " + line.replace("\n", "\n    ") + "\n" for line in lines).replace("\n    \n", "\n\n")


@PROFILE
@given(jax_programs())
def test_jax_shaped_programs_check_and_fix_cleanly(source: str) -> None:
    assume(parses(source))
    assert_checks_and_fixes_cleanly(source)


# A fix may uncover findings rather than introduce them: once JAX602 has made numpy calls on
# tracers jnp calls, their results are JAX arrays, which the array rules then follow (an item
# assignment, JAX201; a loop computing on them, unrolled, JAX608). Once JAX403 has made a
# parameter static, it holds a Python value, which indexing with a tracer cannot convert (JAX503).
# A consumption in a loop of a key used before it is a reuse (JAX301); once JAX301 has split the
# key before its first use, the same consumption is what JAX302 reports.
UNCOVERED_BY = {
    "JAX201": "JAX602",
    "JAX202": "JAX602",
    "JAX608": "JAX602",
    "JAX503": "JAX403",
    "JAX302": "JAX301",
}


@PROFILE
@given(jax_programs())
def test_fixes_introduce_no_new_kind_of_finding(source: str) -> None:
    assume(parses(source))
    before = codes(source, None)
    result = fix_source(source, PATH, RULES, unsafe=True)
    new = set(codes(result.fixed, None)) - set(before)
    assert all(UNCOVERED_BY.get(code) in result.applied for code in new), new


# ---------------------------------------------------------------------------- broken programs


@st.composite
def broken_programs(draw: st.DrawFn) -> str:
    """A JAX-shaped program with one character deleted or inserted somewhere."""
    source = draw(jax_programs())
    position = draw(st.integers(0, len(source) - 1))
    if draw(st.booleans()):
        return source[:position] + source[position + 1 :]
    character = draw(st.sampled_from(["(", ")", ":", " ", "\t", "\n", '"', "\\", "\x00", "é", "@", "="]))
    return source[:position] + character + source[position:]


def assert_syntax_error_or_clean_check(source: str) -> None:
    diagnostics = analyze(source, PATH, RULES).diagnostics
    if parses(source):
        assert SYNTAX_ERROR not in {d.code for d in diagnostics}
        assert_checks_and_fixes_cleanly(source)
    else:
        assert [d.code for d in diagnostics] == [SYNTAX_ERROR]
        assert fix_source(source, PATH, RULES, unsafe=True).fixed == source


@PROFILE
@given(broken_programs())
def test_broken_programs_get_one_syntax_error(source: str) -> None:
    assert_syntax_error_or_clean_check(source)


@PROFILE
@given(st.text(max_size=400))
def test_random_text_gets_a_syntax_error_or_checks_cleanly(text: str) -> None:
    assert_syntax_error_or_clean_check("import jax\n" + text)


def test_a_fix_must_compile_not_only_parse() -> None:
    """What the compiler rejects after parsing is no fixed file either: a keyword given twice
    (two fixes each adding `static_argnames` to one jit), a parameter named twice."""
    assert parses("jax.jit(f, static_argnames=('n',))")
    assert not parses("jax.jit(f, static_argnames=('n',), static_argnames=('m',))")
    assert not parses("def f(x, x):\n    return x\n")


def test_a_file_that_never_compiled_is_still_fixed() -> None:
    """A source the compiler rejects after parsing (a misplaced `from __future__`) keeps its
    fixes: a fix there must only leave it parsing."""
    from jaxlint.engine.linter import RuleSet
    from jaxlint.engine.registry import rule_codes
    from jaxlint.fixing.applier import fix_source

    source = (
        '"""Doc."""\nimport jax\nfrom __future__ import annotations\n\n\n'
        "@jax.jit\ndef f(x):\n    print(x)\n    return x\n"
    )
    assert not parses(source)
    fixed = fix_source(source, "m.py", RuleSet.from_codes(rule_codes()))
    assert "jax.debug.print" in fixed.fixed and not fixed.problems
