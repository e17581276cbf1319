"""The linting engine: parse once, build the semantic model, dispatch rules in one pass.

``lint_source`` is the single entry point every front end uses (CLI, flake8, pylint, LSP). The
rules subscribe to node types; the scope walk that builds the model also collects those nodes, so
dispatch is a loop over a list, not another walk of the tree.
"""

from __future__ import annotations

import ast
import os
import re
import traceback
import warnings
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jaxlint.engine.astutil import run_deeply
from jaxlint.engine.context import Context, character_column
from jaxlint.engine.diagnostics import Diagnostic, Location
from jaxlint.engine.noqa import Suppression, apply_noqa, find_suppressions
from jaxlint.engine.registry import all_rules
from jaxlint.engine.rule import Rule
from jaxlint.semantic.cross_module import ProjectView
from jaxlint.semantic.model import SemanticModel

if TYPE_CHECKING:
    from jaxlint.engine.incremental import Incremental

SYNTAX_ERROR = "JAX000"
IO_ERROR = "JAX001"
INTERNAL_ERROR = "JAX002"
META_CODES = {
    SYNTAX_ERROR: "syntax-error",
    IO_ERROR: "io-error",
    INTERNAL_ERROR: "internal-error",
}
# What the codes of files jaxlint could not check mean (``jaxlint rule JAX000``, docs, SARIF).
META_DOCS = {
    SYNTAX_ERROR: (
        "The file does not parse, so it was not checked",
        "Python cannot parse the file (or a notebook's cells, read as IPython reads them), so no "
        "rule ran on it. The message gives Python's reason and where. Fix the syntax, or exclude "
        "the file (`exclude` in `[tool.jaxlint]`).",
    ),
    IO_ERROR: (
        "The file cannot be read or decoded, so it was not checked",
        "The file could not be read (permissions, deleted during the run, not a regular file), is "
        "not in the encoding it declares, or is a notebook whose JSON is not a notebook. The "
        "message says which.",
    ),
    INTERNAL_ERROR: (
        "An internal error in jaxlint; the rest of the file was checked without the failing part",
        "A rule, the semantic model or a fixer failed on this file. The other rules still ran. "
        "Please report it with the file (or the smallest part of it that shows the error).",
    ),
}
BUG_REPORT = "please report it to jaxlint's maintainers, with the file or the part of it that fails"
_NEWLINES = re.compile(r"\r\n|\r|\n")
_MENTIONS_JAX = re.compile(r"\b(?:jax|flax|equinox|optax|chex|jaxtyping)\b")
_NOQA_NAMING_JAX = re.compile(r"noqa[^\n]*jax", re.IGNORECASE)
# `config.SCALE = 3`, `C.TABLE[0] += 1`: a line that may assign a name of another module
_ASSIGNS_AN_ATTRIBUTE = re.compile(
    r"^[ \t]*[A-Za-z_][\w.]*\.\w+[ \t]*(?:\[[^\n]*\])?[ \t]*[-+*/%@&|^<>]*=(?!=)", re.M
)

Callback = Callable[[Any, Context], None]
CallbackTable = dict[type, tuple[tuple[Rule, Callback], ...]]


@dataclass
class RuleSet:
    """The enabled rules and the node-type -> callbacks tables built from them once: one for
    rules that apply anywhere, one for rules that apply only in abstractly traced code."""

    rules: list[Rule]
    dispatch: dict[type, list[tuple[Rule, Callback]]]
    traced_dispatch: dict[type, list[tuple[Rule, Callback]]]
    _tables: tuple[CallbackTable, CallbackTable] | None = field(default=None, repr=False, compare=False)
    # tables without the rules a module's text leaves out (``Rule.mentioned``), by those rules
    _gated: dict[frozenset[Rule], tuple[CallbackTable, CallbackTable]] = field(
        default_factory=dict, repr=False, compare=False
    )

    @classmethod
    def from_codes(cls, codes: Iterable[str]) -> RuleSet:
        wanted = set(codes)
        rules = [rule_class() for rule_class in all_rules() if rule_class.code in wanted]
        anywhere: dict[type, list[tuple[Rule, Callback]]] = {}
        traced: dict[type, list[tuple[Rule, Callback]]] = {}
        for rule in rules:
            for node_type, callback in rule.callbacks().items():
                only_traced = rule.traced_only and node_type not in rule.visits_anywhere
                table = traced if only_traced else anywhere
                table.setdefault(node_type, []).append((rule, callback))
        return cls(rules, anywhere, traced)

    def callback_tables(self, disabled: Collection[Rule] = ()) -> tuple[CallbackTable, CallbackTable]:
        """The callbacks for each node type outside traced code, and inside it (where the rules
        about traced code run as well), without the ``disabled`` rules."""
        if not disabled and self._tables is not None:
            return self._tables

        def kept(callbacks: Iterable[tuple[Rule, Callback]]) -> tuple[tuple[Rule, Callback], ...]:
            return tuple((rule, callback) for rule, callback in callbacks if rule not in disabled)

        kinds = {*self.dispatch, *self.traced_dispatch}
        eager = {kind: kept(self.dispatch.get(kind, ())) for kind in kinds}
        abstract = {
            kind: kept([*self.dispatch.get(kind, ()), *self.traced_dispatch.get(kind, ())]) for kind in kinds
        }
        tables = {k: v for k, v in eager.items() if v}, {k: v for k, v in abstract.items() if v}
        if not disabled:
            self._tables = tables
        return tables

    def tables_for(self, context: Context) -> tuple[frozenset[Rule], tuple[CallbackTable, CallbackTable]]:
        """The rules that cannot apply to this module (``Rule.applies``: none of the words a rule
        needs occurs in its text), and the callback tables without them (built once per set)."""
        skipped = frozenset(rule for rule in self.rules if not rule.applies(context))
        if not skipped:
            return skipped, self.callback_tables()
        tables = self._gated.get(skipped)
        if tables is None:
            tables = self._gated[skipped] = self.callback_tables(skipped)
        return skipped, tables

    @property
    def node_types(self) -> frozenset[type]:
        return frozenset(self.dispatch) | frozenset(self.traced_dispatch)

    def without(self, prefixes: tuple[str, ...]) -> RuleSet:
        """The same rules minus those whose code starts with one of ``prefixes``."""
        return RuleSet.from_codes(r.code for r in self.rules if not r.code.startswith(prefixes))


def split_lines(source: str) -> list[str]:
    """Physical lines as ``ast`` counts them (``\\n``, ``\\r\\n`` and ``\\r`` end a line)."""
    return _NEWLINES.split(source) if "\r" in source else source.split("\n")


def parse(source: str, path: str) -> ast.Module | Diagnostic:
    """Parse ``source``; a syntax problem becomes one JAX000 diagnostic."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, filename=path)
    except SyntaxError as error:
        from jaxlint.engine.syntax import describe_syntax_error

        row = error.lineno or 1
        lines = split_lines(source)
        column = character_column(lines, row, max((error.offset or 1) - 1, 0)) + 1
        message = describe_syntax_error(error, source)
        return meta_diagnostic(SYNTAX_ERROR, message, path, row, column)
    except RecursionError:
        deep = parse_deeply(source, path)
        if deep is not None:
            return deep
        reason = "the file is nested too deeply for Python's parser"
        return meta_diagnostic(SYNTAX_ERROR, f"SyntaxError: {reason}", path, 1, 1)
    except (ValueError, MemoryError) as error:
        reason = "source contains null bytes" if isinstance(error, ValueError) else "out of memory parsing it"
        return meta_diagnostic(SYNTAX_ERROR, f"SyntaxError: {reason}", path, 1, 1)


def parse_deeply(source: str, path: str) -> ast.Module | None:
    """Parse a file whose syntax tree is deeper than the interpreter's recursion limit (a
    2,992-term ``+`` chain that Python itself compiles); None if it still cannot be parsed."""

    def work() -> ast.Module:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, filename=path)

    try:
        return run_deeply(work)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def meta_diagnostic(code: str, message: str, path: str, row: int = 1, column: int = 1) -> Diagnostic:
    location = Location(row, column)
    return Diagnostic(code, META_CODES[code], message, path, location, location, noqa_row=None)


@dataclass
class Analysis:
    """The diagnostics of one source, and the model they came from (None when not built)."""

    diagnostics: list[Diagnostic]
    model: SemanticModel | None = None


def lint_source(
    source: str,
    path: str,
    ruleset: RuleSet,
    traced_decorators: frozenset[str] = frozenset(),
    tree: ast.Module | None = None,
    project: ProjectView | None = None,
) -> list[Diagnostic]:
    """Every diagnostic of the enabled rules on ``source``, noqa applied, in source order."""
    return analyze(source, path, ruleset, traced_decorators, tree, project).diagnostics


def analyze(
    source: str,
    path: str,
    ruleset: RuleSet,
    traced_decorators: frozenset[str] = frozenset(),
    tree: ast.Module | None = None,
    project: ProjectView | None = None,
    incremental: Incremental | None = None,
) -> Analysis:
    """Lint ``source`` and keep the semantic model (fixers need it for names and imports).
    ``project`` says which module this is and what other modules trace in it; ``incremental``,
    the editor's state for the document, lets the lint redo only what changed since its last one."""
    if tree is None:
        parsed = incremental.parser.parse(source, path) if incremental else parse(source, path)
        if isinstance(parsed, Diagnostic):
            return Analysis([parsed])
        tree = parsed
    if not ruleset.rules or not (
        _may_hold_findings(source, traced_decorators) or (project and project.seeds)
    ):
        if project is not None and _ASSIGNS_AN_ATTRIBUTE.search(source):
            # no finding here, but what it assigns in other modules changes their values there
            try:
                return Analysis([], SemanticModel(tree, traced_decorators, frozenset(), project))
            except (RecursionError, MemoryError):
                pass  # too deep to index: the project learns nothing from it
        return Analysis([])
    lines = split_lines(source)
    scopes = incremental.scopes if incremental else None

    def build() -> SemanticModel:
        return SemanticModel(tree, traced_decorators, ruleset.node_types, project, scopes)

    deep = False
    try:
        try:
            model = build()
        except RecursionError:  # a very deep expression: again, with room to recurse
            deep = True
            model = run_deeply(build)
    except RecursionError:
        return Analysis([meta_diagnostic(INTERNAL_ERROR, "the file is nested too deeply to analyse", path)])
    except Exception as error:  # a bug in the model must not end the run
        return Analysis([internal_error(path, "the semantic model", error)])
    if not model.uses_jax:
        return Analysis([], model)
    context = Context(path, lines, model)
    errors = run_deeply(lambda: _dispatch(context, ruleset)) if deep else _dispatch(context, ruleset)
    # comments are only read where they can silence a finding or name a code of ours (JAX010)
    wanted = context.diagnostics or _NOQA_NAMING_JAX.search(source)
    suppressions = find_suppressions(source) if wanted else []
    diagnostics = apply_noqa(context.diagnostics, suppressions)
    diagnostics += _suppression_findings(path, suppressions, ruleset)
    return Analysis(_deduplicate(diagnostics) + errors, model)


def _suppression_findings(path: str, suppressions: list[Suppression], ruleset: RuleSet) -> list[Diagnostic]:
    """What rules about suppression comments (JAX010) say, once the file's findings are known."""
    if not suppressions:
        return []
    known = frozenset(rule.code for rule in all_rules()) | frozenset(META_CODES)
    enabled = frozenset(rule.code for rule in ruleset.rules)
    findings: list[Diagnostic] = []
    for rule in ruleset.rules:
        hook = getattr(rule, "suppression_findings", None)
        if hook is not None:
            findings.extend(hook(path, suppressions, known, enabled))
    return findings


def _may_hold_findings(source: str, traced_decorators: frozenset[str]) -> bool:
    """Every rule needs JAX: a file that never names it cannot hold a finding."""
    if _MENTIONS_JAX.search(source):
        return True
    return any(name.split(".")[0] in source for name in traced_decorators)


def _dispatch(context: Context, ruleset: RuleSet) -> list[Diagnostic]:
    skipped, (eager, abstract) = ruleset.tables_for(context)
    table = eager
    errors: list[Diagnostic] = []
    disabled: set[Rule] = set(skipped)
    current_scope = None
    unreached: frozenset[ast.AST] = frozenset()
    dead = context.model.dead_nodes  # code under `if TYPE_CHECKING:` or `if DEBUG:` never runs
    for node, scope, loops, frame in context.model.index.events:
        if dead and node in dead:
            continue
        if scope is not current_scope:
            context.enter(scope)
            current_scope = scope
            table = abstract if context.abstract else eager
            unreached = context.unreached_when_traced
        callbacks = (eager if unreached and node in unreached else table).get(type(node))
        if callbacks is None:
            continue
        context.loops, context.frame = loops, frame
        for rule, callback in callbacks:
            context.rule = rule
            try:
                callback(node, context)
            except RecursionError:
                continue
            except Exception as error:  # contain the crash to this rule and file
                errors.append(internal_error(context.path, f"rule {rule.code}", error, node))
                disabled.add(rule)
                eager, abstract = ruleset.callback_tables(disabled)
                table = abstract if context.abstract else eager
    return errors


def internal_error(
    path: str,
    where: str,
    error: Exception,
    node: ast.AST | None = None,
    consequence: str = "the rest of the file was checked without it",
) -> Diagnostic:
    """A JAX002 for a crash in ``where`` (re-raised under ``JAXLINT_RAISE_INTERNAL_ERRORS=1``)."""
    frame = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    origin = f" at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else ""
    try:
        said = f": {error}"
    except RecursionError:  # the message names a syntax tree too deep to print
        said = ""
    message = f"internal error in {where}: {type(error).__name__}{said}{origin}; {consequence} ({BUG_REPORT})"
    if os.environ.get("JAXLINT_RAISE_INTERNAL_ERRORS") == "1":
        raise error
    return meta_diagnostic(INTERNAL_ERROR, message, path, getattr(node, "lineno", 1), 1)


def _deduplicate(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, Location]] = set()
    unique: list[Diagnostic] = []
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (diagnostic.code, diagnostic.location)
        if key not in seen:
            seen.add(key)
            unique.append(diagnostic)
    return unique
