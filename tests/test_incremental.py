"""The editor's incremental parser gives exactly the tree a whole-file parse gives, after any edit."""

from __future__ import annotations

import ast
import random
import re
import sysconfig
import textwrap
import warnings
from pathlib import Path

import pytest

from jaxlint.engine import incremental
from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.incremental import Incremental, IncrementalParser
from jaxlint.engine.linter import analyze
from jaxlint.project.config import Settings
from jaxlint.project.settings import SettingsCache
from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.scopes import Scope, _ScopeBuilder

MODULE = textwrap.dedent(
    '''\
    """A module."""
    import jax
    import jax.numpy as jnp

    SCALE = 2.0  # a global
    a = 1; b = 2


    @jax.jit
    def step(x):
        if x.sum() > 0:
            return x * SCALE
        return x


    class Model:
        def __call__(self, x):
            return jnp.tanh(x)


    def loss(params, batch):
        total = 0.0
        for item in batch:
            total += step(item)
        return total
    # trailing comment
    '''
)
STDLIB = Path(sysconfig.get_paths()["stdlib"])
RULE_CASES = sorted((Path(__file__).parent / "rules" / "cases").glob("JAX*.py"))
REAL_MODULES = ["textwrap.py", "dataclasses.py"]


def dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=True)


def whole(source: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def check_edit(parser: IncrementalParser, source: str) -> ast.Module | None:
    """Parse ``source`` incrementally and compare with the whole-file parse."""
    got = parser.parse(source, "module.py")
    expected = whole(source)
    if expected is None:
        assert isinstance(got, Diagnostic) and got.code == "JAX000"
        return None
    assert isinstance(got, ast.Module)
    assert dump(got) == dump(expected)
    return got


def edited(before: str, after: str) -> ast.Module:
    """``after`` parsed by a parser that last saw ``before``."""
    assert before != after
    parser = IncrementalParser()
    parser.parse(before, "module.py")
    tree = check_edit(parser, after)
    assert tree is not None
    return tree


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many edits were re-parsed in part and how many needed the whole file."""
    counts = {"partial": 0, "whole": 0}
    reparse = incremental._reparse_edited

    def counting(*args: object) -> ast.Module | None:
        tree = reparse(*args)  # type: ignore[arg-type]
        counts["partial" if tree is not None else "whole"] += 1
        return tree

    monkeypatch.setattr(incremental, "_reparse_edited", counting)
    return counts


def test_typing_in_a_function_reuses_every_other_statement(counted: dict[str, int]) -> None:
    parser = IncrementalParser()
    first = parser.parse(MODULE, "module.py")
    assert isinstance(first, ast.Module)
    tree = check_edit(parser, MODULE.replace("return jnp.tanh(x)", "return jnp.tanh(x) + 1"))
    assert tree is not None
    model = next(i for i, s in enumerate(tree.body) if isinstance(s, ast.ClassDef))
    assert tree.body[model] is not first.body[model]  # re-parsed
    assert all(new is old for new, old in zip(tree.body[:model], first.body[:model], strict=True))
    assert tree.body[model + 1] is first.body[model + 1]  # after it, unchanged lines: reused
    assert counted == {"partial": 1, "whole": 0}


def test_an_edit_that_adds_lines_moves_what_follows(counted: dict[str, int]) -> None:
    parser = IncrementalParser()
    first = parser.parse(MODULE, "module.py")
    assert isinstance(first, ast.Module)
    loss = first.body[-1]
    assert isinstance(loss, ast.FunctionDef) and loss.lineno == 21
    tree = check_edit(parser, MODULE.replace("    return x\n", "    y = x\n\n    return y\n"))
    assert tree is not None and tree.body[-1] is loss  # reused, two lines further down
    assert (loss.lineno, loss.body[0].lineno, loss.end_lineno) == (23, 24, 27)
    tree = check_edit(parser, MODULE)  # and back up
    assert tree is not None and tree.body[-1] is loss and loss.lineno == 21
    assert counted == {"partial": 2, "whole": 0}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a statement that becomes a continuation of the one before it
        ("def loss(params, batch):", "else:\n  pass\ndef loss(params, batch):"),
        ("\n\nclass Model:", "\nelse:\n    pass\nclass Model:"),
        # a region that no longer parses alone, though the file does
        ("    return total\n", "    return (total\n"),
        ("    return total\n", "    return total\n    print(\n"),
        # statements sharing a line, decorators, the first region
        ("a = 1; b = 2", "a = 1; b = 3"),
        ("@jax.jit\n", "@jax.jit\n@other\n"),
        ('"""A module."""', '"""A changed module."""'),
        ("import jax\n", "from __future__ import annotations\nimport jax\n"),
        ("# trailing comment\n", "# trailing comment\nz = 3"),
        ("# trailing comment\n", ""),
        ("SCALE = 2.0", "SCALE = 2.0 +\\\n  1"),
    ],
)
def test_edits_at_region_boundaries_match_the_whole_parse(old: str, new: str) -> None:
    assert old in MODULE
    parser = IncrementalParser()
    parser.parse(MODULE, "module.py")
    check_edit(parser, MODULE.replace(old, new, 1))


def test_a_syntax_error_keeps_the_last_good_version_as_the_base() -> None:
    parser = IncrementalParser()
    parser.parse(MODULE, "module.py")
    broken = MODULE.replace("return jnp.tanh(x)", "return jnp.tanh(x")
    result = parser.parse(broken, "module.py")
    assert isinstance(result, Diagnostic) and result.code == "JAX000"
    check_edit(parser, MODULE.replace("return jnp.tanh(x)", "return jnp.tanh(x) * 2"))


def test_windows_and_old_mac_line_endings() -> None:
    for newline in ("\r\n", "\r"):
        source = MODULE.replace("\n", newline)
        edited(source, source.replace("return x * SCALE", f"return x / SCALE{newline}    pass"))


EDITS = ["x", "(", ")", "\n", "    ", "else:\n", "def g():\n    pass\n", "'''", "#", "\\\n", ":", "\r\n"]
LINE_ENDS = ["  # c", " ", "\n", "\n\nz = 1", "\ndef h():\n    return 2", "\nelif q:\n    pass"]
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def random_edit(rng: random.Random, source: str) -> str:
    """Insert, delete, duplicate or transpose text, at random places."""
    at = rng.randrange(len(source))
    kind = rng.random()
    if kind < 0.3:  # at the end of a line: mostly still valid
        end = source.find("\n", at)
        end = len(source) if end < 0 else end
        return source[:end] + rng.choice(LINE_ENDS) + source[end:]
    if kind < 0.4:
        match = IDENTIFIER.search(source, at)
        return source if match is None else source[: match.start()] + "q" + source[match.start() :]
    if kind < 0.55:
        return source[:at] + rng.choice(EDITS) + source[at:]
    if kind < 0.75:
        return source[:at] + source[at + rng.randrange(1, 40) :]
    lines = source.splitlines(keepends=True)
    lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
    return "".join(lines)


@pytest.mark.parametrize("name", ["MODULE", *REAL_MODULES])
def test_random_edits_match_the_whole_parse(name: str, counted: dict[str, int]) -> None:
    source = MODULE if name == "MODULE" else (STDLIB / name).read_text(encoding="utf-8")
    rng = random.Random(name)
    parser = IncrementalParser()
    parser.parse(source, "module.py")
    for _ in range(150):
        candidate = random_edit(rng, source)
        if check_edit(parser, candidate) is not None:
            source = candidate  # keep valid edits, as a typist eventually does
    assert counted["partial"] >= 30  # the shortcut was really taken, not only the fallback


JAX_LINE_ENDS = [
    "\nnoise = jax.random.normal(key)",
    "\n    x = jax.random.normal(key)",
    "\n    print(x)",
    "\n    if x > 0:\n        pass",
    "\nglobal SCALE",
    "\nimport numpy as np",
    "\nfrom jax import random as jr",
    "\nkey2 = key",
    "\n\n@jax.jit\ndef added(x):\n    return x",
]


def jax_edit(rng: random.Random, source: str) -> str:
    """Mostly code a JAX user would type (so findings come and go), else a random edit."""
    if rng.random() < 0.4:
        at = source.find("\n", rng.randrange(len(source)))
        at = len(source) if at < 0 else at
        return source[:at] + rng.choice(JAX_LINE_ENDS) + source[at:]
    return random_edit(rng, source)


def scope_facts(scope: Scope) -> tuple[object, ...]:
    defs = {
        name: [(type(n).__name__, getattr(n, "lineno", 0)) for n in nodes]
        for name, nodes in scope.defs.items()
    }
    assigned = {name: dump(value) for name, value in scope.assigned.items()}
    bindings = (scope.bound, scope.imports, scope.import_count, defs, scope.globals, scope.nonlocals)
    return (
        scope.kind,
        *bindings,
        scope.params,
        assigned,
        scope.called,
        [dump(a) for a in scope.random_passes],
    )


def index_facts(model: SemanticModel) -> tuple[object, ...]:
    """The scope walk's findings, by position (the two trees compared have different nodes)."""
    index = model.index

    def where(node: ast.AST) -> tuple[str, int, int]:
        return (type(node).__name__, getattr(node, "lineno", 0), getattr(node, "col_offset", 0))

    events = [
        (where(node), where(scope.node), [where(loop) for loop in loops], frame and where(frame[0]))
        for node, scope, loops, frame in index.events
    ]
    functions = [
        (where(scope.node), where(scope.parent.node) if scope.parent else None, scope_facts(scope))
        for scope in index.functions
    ]
    kept = [index.calls, index.decorated, index.classes]
    pairs = [[(where(node), where(scope.node)) for node, scope in found] for found in kept]
    mutations = [(where(node), where(scope.node), name) for node, scope, name in index.mutations]
    scopes = sorted(
        (where(node), scope_facts(scope)) for node, scope in index.scopes.items() if node is not model.tree
    )
    return (events, functions, pairs, mutations, scopes, scope_facts(index.module))


@pytest.mark.parametrize("path", RULE_CASES, ids=lambda path: path.stem)
def test_the_editor_lint_after_edits_equals_a_fresh_lint(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-parsing what changed and replaying the scope walk of the rest gives what linting the
    text from scratch gives: the same findings, and the same scopes, bindings and events."""
    replayed = []
    replay = _ScopeBuilder.replay
    monkeypatch.setattr(_ScopeBuilder, "replay", lambda self, f: (replayed.append(f), replay(self, f)))
    ruleset = SettingsCache().ruleset_for(Settings(), str(path))
    source = path.read_text(encoding="utf-8")
    rng = random.Random(path.stem)
    state = Incremental()
    analyze(source, str(path), ruleset, incremental=state)
    for _ in range(30):
        candidate = jax_edit(rng, source)
        edited = analyze(candidate, str(path), ruleset, incremental=state)
        fresh = analyze(candidate, str(path), ruleset)
        assert [d.detached() for d in edited.diagnostics] == [d.detached() for d in fresh.diagnostics]
        if fresh.model is not None:
            assert edited.model is not None
            assert index_facts(edited.model) == index_facts(fresh.model)
        if not any(d.code == "JAX000" for d in fresh.diagnostics):
            source = candidate
    assert len(replayed) >= 30


def test_module_scope_facts_go_away_with_the_statement_that_made_them() -> None:
    """The module scope is rebuilt on every walk: a binding, import or call removed by an edit is
    gone from it, while the other statements are replayed."""
    ruleset = SettingsCache().ruleset_for(Settings(), "module.py")
    additions = [
        "import numpy as np\n",
        "noise = jax.random.normal(jax.random.key(0))\n",
        "def helper():\n    global SCALE\n    SCALE = 3.0\n",
        "jnp = None\n",
    ]
    state = Incremental()
    analyze(MODULE, "module.py", ruleset, incremental=state)
    anchor = "    return total\n"
    for addition in additions:
        for text in (MODULE.replace(anchor, anchor + addition), MODULE):
            edited = analyze(text, "module.py", ruleset, incremental=state)
            fresh = analyze(text, "module.py", ruleset)
            assert edited.model is not None and fresh.model is not None
            assert index_facts(edited.model) == index_facts(fresh.model)
