"""Checking and fixing a project: discovery, the whole-project fixed point, workers, the cache.

1. Every file is analysed on its own (in parallel, or from the cache). Each analysis also says
   which functions of *other* modules it traces (trace requests).
2. Requests are routed to the modules that define those functions; a module that receives new
   ones is analysed again with them as seeds, until nothing changes (near-linear: only the
   modules that receive requests run again).
3. With ``--fix``/``--diff``, every file is then fixed with its final seeds and written atomically.
Output order is deterministic whatever the number of workers.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import gc
import os
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.linter import (
    INTERNAL_ERROR,
    IO_ERROR,
    META_CODES,
    Analysis,
    RuleSet,
    analyze,
    meta_diagnostic,
)
from jaxlint.engine.registry import fixable_codes, rule_codes
from jaxlint.project.cache import Cache, Entry
from jaxlint.project.config import Settings
from jaxlint.project.files import (
    NOTEBOOK_SUFFIX,
    SourceFile,
    WriteError,
    content_digest,
    decode_source,
    discover,
    is_python_file,
    read_regular,
    read_source,
    write_source,
)
from jaxlint.project.notebooks import Notebook, NotebookError, read_notebook
from jaxlint.project.settings import SettingsCache
from jaxlint.semantic.cross_module import ProjectIndex, ProjectView, TraceRequest, module_name
from jaxlint.semantic.values import UNKNOWN, Value

if TYPE_CHECKING:
    from jaxlint.fixing.applier import FixResult
    from jaxlint.semantic.model import SemanticModel

MAX_ROUNDS = 8
PARALLEL_THRESHOLD = 16  # fewer files than this are checked in-process


@dataclass(frozen=True)
class Mode:
    """What to do with the findings, and how: report them (with fixes attached), apply fixes,
    or show a diff; how many worker processes; where the cache lives (None: no cache)."""

    fix: bool = False
    unsafe: bool = False
    diff: bool = False
    with_fixes: bool = False
    jobs: int = 1
    cache_dir: Path | None = None
    verify: bool = False  # run what each fix changed, eager against compiled, before keeping it
    write: bool = True  # False (standard input): the fixed text is returned, not written


@dataclass
class FileOutcome:
    """The result of one file (plain data: it crosses process boundaries and the cache).
    ``returns``: what the functions other modules trace here return (by function path)."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    requests: list[TraceRequest] = field(default_factory=list)
    returns: dict[str, Value] = field(default_factory=dict)
    exports: dict[str, Value] = field(default_factory=dict)  # module-level values, by name
    reads: list[str] = field(default_factory=list)  # names of other modules it imports, qualified
    writes: list[str] = field(default_factory=list)  # names of other modules it assigns, qualified
    fixed: Counter[str] = field(default_factory=Counter)
    diff: str | None = None
    problems: list[str] = field(default_factory=list)
    analysed: str | None = None  # the digest of the bytes the analysis read
    fixed_source: str | None = None  # with Mode(write=False): the fixed text
    verification: Counter[str] = field(default_factory=Counter)  # --verify: functions per verdict
    skipped: bool = False  # not a Python file: not counted as checked


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    fixed: Counter[str] = field(default_factory=Counter)
    changed_files: int = 0
    diffs: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    analysed: int = 0  # file analyses run (not from the cache), over all rounds
    cached: int = 0  # file analyses served from the cache
    rounds: int = 0  # whole-project rounds (1 + rounds for cross-module trace requests)
    timings: dict[str, float] = field(default_factory=dict)  # phase -> seconds
    fixed_by_file: dict[str, Counter[str]] = field(default_factory=dict)
    verification: Counter[str] = field(default_factory=Counter)  # --verify: functions per verdict

    def verification_summary(self) -> str:
        """``--verify``'s last line: functions verified, taken back and left unverified."""
        counts = self.verification
        return (
            f"verified {counts['verified']} fixed function(s); took back {counts['taken back']} "
            f"whose results changed; {counts['unverified']} could not be run (kept, see warnings)"
        )


def build_ruleset(settings: Settings) -> RuleSet:
    return RuleSet.from_codes(settings.enabled(rule_codes()))


Progress = Callable[[int, int], None]  # (files done, files in all), called as files finish


def check_paths(
    paths: list[str], resolver: SettingsCache, mode: Mode = Mode(), progress: Progress | None = None
) -> RunResult:
    """Check (and fix) every Python file under ``paths`` as one project, each file with the
    configuration that applies to it."""
    unreadable: list[str] = []
    started = time.perf_counter()
    files = list(discover(paths, resolver, unreadable))
    result = RunResult()
    result.timings["discovery"] = time.perf_counter() - started
    checker = Checker(resolver, mode, progress)
    result.problems.extend(unreadable)
    started = time.perf_counter()
    outcomes, fixed_point = analyse_project(files, checker, result)
    result.timings["analysis"] = time.perf_counter() - started
    if mode.fix or mode.diff:
        started = time.perf_counter()
        # a file with no finding of a rule that has a fixer has nothing to fix: its check stands
        codes = fixable_codes()
        fixable = [path for path in files if any(d.code in codes for d in outcomes[path].diagnostics)]
        outcomes.update(checker.fix_all({path: fixed_point.view(path) for path in fixable}, result))
        result.timings["fixing"] = time.perf_counter() - started
    for path in files:
        outcome = outcomes[path]
        result.files += not outcome.skipped
        result.diagnostics.extend(outcome.diagnostics)
        result.problems.extend(outcome.problems)
        result.fixed.update(outcome.fixed)
        result.verification.update(outcome.verification)
        if outcome.fixed:
            result.fixed_by_file[path] = outcome.fixed
        if outcome.diff:
            result.diffs.append(outcome.diff)
        if outcome.fixed or outcome.diff:
            result.changed_files += 1
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def check_standard_input(raw: bytes, path: str, settings: Settings, mode: Mode) -> FileOutcome:
    """Check (or fix, returning the fixed text) source given on standard input as ``path``."""
    name, is_package = module_name(path)
    worker = Worker(replace(mode, write=False))
    return worker.run(path, ProjectView(name, is_package), mode.fix or mode.diff, settings, raw)


def analyse_project(
    files: list[str], checker: Checker, result: RunResult
) -> tuple[dict[str, FileOutcome], FixedPoint]:
    """Analyse every file, then again the files whose view of the project changed after their
    analysis, to the fixed point. In one process, what each file tells the project is taken in
    at once, so a file analysed later in the same round already sees it."""
    fixed_point = FixedPoint(project_index(files))
    files = dependents_first(files, fixed_point.project)
    seen: dict[str, ProjectView] = {}  # the view each file was last analysed with

    def view_of(path: str) -> ProjectView:
        view = seen[path] = fixed_point.view(path)
        return view

    def learn(outcome: FileOutcome) -> None:
        fixed_point.update({outcome.path: outcome})

    outcomes = checker.analyse_all(files, view_of, result, learn)
    checker.progress = None  # later rounds re-check a few files: the count is done
    result.rounds = 1
    for _ in range(MAX_ROUNDS):
        fixed_point.update(outcomes)  # what the worker processes found (in one process: known)
        changed = [path for path in files if fixed_point.view(path) != seen[path]]
        if not changed:
            break
        result.rounds += 1
        outcomes.update(checker.analyse_all(changed, view_of, result, learn))
    return outcomes, fixed_point


_IMPORT_LINE = re.compile(rb"\n(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+([\w, \t]+)|import[ \t]+([\w.]+))")


def dependents_first(files: list[str], project: ProjectIndex) -> list[str]:
    """``files`` with each module before the modules it imports at its top level, where the
    imports allow (a cycle keeps some order). What a module asks to trace in the modules it
    imports is then known when they are analysed, and fewer files are analysed twice: only
    those that learn what a function they call returns. The order changes no result."""
    paths = set(files)
    imports: dict[str, list[str]] = {}
    for path in files:
        content = read_regular(path) if path.endswith(".py") else None
        name, is_package = module_name(path)
        imports[path] = [
            found
            for module in _imported_modules(content or b"", name, is_package)
            if (found := project.modules.get(module)) is not None and found in paths and found != path
        ]
    done: set[str] = set()
    order: list[str] = []  # each module after those it imports (depth first, post-order)
    for root in files:
        if root in done:
            continue
        done.add(root)
        stack = [(root, iter(imports[root]))]
        while stack:
            path, pending = stack[-1]
            step = next(pending, None)
            if step is None:
                stack.pop()
                order.append(path)
            elif step not in done:
                done.add(step)
                stack.append((step, iter(imports[step])))
    order.reverse()
    return order


def _imported_modules(content: bytes, module: str, is_package: bool) -> list[str]:
    """The modules a source imports at its top level (and, for ``from m import a``, ``m.a``:
    ``a`` may be a module), relative imports resolved against ``module``."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: list[str] = []
    for base, names, plain in _IMPORT_LINE.findall(b"\n" + content):
        if plain:
            found.append(plain.decode("ascii", "replace"))
            continue
        text = base.decode("ascii", "replace")
        dots = len(text) - len(text.lstrip("."))
        if dots:
            stem = package[: len(package) - (dots - 1)] if dots - 1 <= len(package) else []
            text = ".".join([*stem, text[dots:]] if text[dots:] else stem)
        if text:
            found.append(text)
            found += [f"{text}.{n.strip()}" for n in names.decode("ascii", "replace").split(",") if n.strip()]
    return found


def project_index(files: list[str]) -> ProjectIndex:
    """Module names of the files, and what their packages re-export."""
    index = ProjectIndex()
    for path in files:
        name, is_package = module_name(path)
        index.modules.setdefault(name, path)
        if is_package:
            index.exports[name] = _package_exports(path, name)
    return index


def _package_exports(path: str, package: str) -> dict[str, str]:
    """``name -> qualified name`` for what ``pkg/__init__.py`` imports from elsewhere."""
    source = read_source(path)
    try:
        tree = ast.parse(source.text or "")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    exports: dict[str, str] = {}
    parts = package.split(".")
    for statement in tree.body:
        if not isinstance(statement, ast.ImportFrom):
            continue
        if statement.level:
            prefix = parts[: len(parts) - (statement.level - 1)]
            if statement.module:
                prefix = [*prefix, statement.module]
        elif statement.module:
            prefix = [statement.module]
        else:
            continue
        for alias in statement.names:
            exports[alias.asname or alias.name] = ".".join([*prefix, alias.name])
    return exports


class FixedPoint:
    """Routes trace requests to the modules that define their functions (as seeds), the values
    those functions return back to the modules that called them, and module-level values to the
    modules that import them; gives each file its view of the project. Seeds only grow, and
    rounds are bounded."""

    def __init__(self, project: ProjectIndex) -> None:
        self.project = project
        self.seeds: dict[str, set[TraceRequest]] = defaultdict(set)
        self.returns: dict[tuple[str, str], Value] = {}  # (path, function) -> returned value
        # caller path -> {(defining path, function): the qualified names the caller used}
        self.calls: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
        self.exports: dict[tuple[str, str], Value] = {}  # (path, module-level name) -> its value
        # reader path -> {(defining path, name): the qualified names the reader imported}
        self.reads: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
        self.written: set[tuple[str, str]] = set()  # (path, name) some other module assigns

    def view(self, path: str) -> ProjectView:
        name, is_package = module_name(path)
        seeds = tuple(sorted(self.seeds.get(path, ()), key=repr))
        called = self.calls.get(path, {})
        returns = tuple(
            sorted(
                (qualname, self.returns[t])
                for t, qualnames in called.items()
                if t in self.returns
                for qualname in qualnames
            )
        )
        read = self.reads.get(path, {})
        values = tuple(
            sorted(
                (qualname, self.exports[t])
                for t, qualnames in read.items()
                if t in self.exports and t not in self.written
                for qualname in qualnames
            )
        )
        return ProjectView(name, is_package, seeds, returns, values)

    def update(self, outcomes: dict[str, FileOutcome]) -> None:
        """Take in new outcomes (the views they change are compared by ``analyse_project``)."""
        for outcome in outcomes.values():
            for request in outcome.requests:
                found = self._defined(request.target)
                if found is None or found[0] == outcome.path:
                    continue
                path, function = found
                self.calls[outcome.path][found].add(request.target)
                self.seeds[path].add(replace(request, target=function))
            for qualname in outcome.reads:
                found = self._defined(qualname)
                if found is not None and found[0] != outcome.path:
                    self.reads[outcome.path][found].add(qualname)
            for qualname in outcome.writes:
                found = self._defined(qualname)
                if found is not None:
                    self.written.add(found)
            for name, value in outcome.exports.items():
                self.exports[(outcome.path, name)] = value
            for function, value in outcome.returns.items():
                # a return not known yet reads as UNKNOWN: learning that it is UNKNOWN changes nothing
                if value != UNKNOWN or (outcome.path, function) in self.returns:
                    self.returns[(outcome.path, function)] = value

    def _defined(self, qualname: str) -> tuple[str, str] | None:
        """``(path, name in its module)`` of what ``qualname`` names in a checked module."""
        found = self.project.locate(qualname)
        return None if found is None else (self.project.modules[found[0]], found[1])


class Checker:
    """Runs file jobs in-process or on worker processes, through the cache."""

    def __init__(self, resolver: SettingsCache, mode: Mode, progress: Progress | None = None) -> None:
        self.resolver = resolver
        self.mode = mode
        self.cache = Cache(mode.cache_dir, repr(mode.with_fixes))
        self.progress = progress
        self._done, self._total = 0, 0

    def _finished(self) -> None:
        self._done += 1
        if self.progress is not None:
            self.progress(self._done, self._total)

    def analyse_all(
        self,
        paths: list[str],
        view_of: Callable[[str], ProjectView],
        result: RunResult,
        learn: Callable[[FileOutcome], None] | None = None,
    ) -> dict[str, FileOutcome]:
        """Analyse ``paths`` (or take them from the cache), each with the view ``view_of`` gives
        just before; in one process, ``learn`` gets each outcome as soon as it is known."""
        outcomes: dict[str, FileOutcome] = {}
        self._done, self._total = 0, len(paths)
        parallel = self.mode.jobs > 1 and len(paths) >= PARALLEL_THRESHOLD
        worker = None if parallel else Worker(self.mode)
        misses: dict[str, tuple[ProjectView, str | None, str | None]] = {}
        for path in paths:
            view = view_of(path)
            key, digest = self._key(path, view)
            entry = self.cache.get(key) if key is not None else None
            if entry is not None:  # reported under the path as this run spells it
                diagnostics = [replace(d, filename=path) for d in entry.diagnostics]
                outcomes[path] = FileOutcome(
                    path, diagnostics, entry.requests, entry.returns, entry.exports, entry.reads, entry.writes
                )
                result.cached += 1
                self._finished()
            elif worker is None:
                misses[path] = (view, key, digest)
                continue
            else:
                outcome = worker.run(path, view, False, self.resolver.settings_for(path))
                outcomes[path] = self._store(outcome, key, digest, result)
                self._finished()
            if learn is not None:
                learn(outcomes[path])
        if misses:
            jobs = [
                (path, view, False, self.resolver.settings_for(path)) for path, (view, _, _) in misses.items()
            ]
            for path, outcome in self._run_parallel(jobs).items():
                _, key, digest = misses[path]
                outcomes[path] = self._store(outcome, key, digest, result)
        return outcomes

    def _store(
        self, outcome: FileOutcome, key: str | None, digest: str | None, result: RunResult
    ) -> FileOutcome:
        """Cache an analysis, under the bytes it was analysed from: a file changed between the
        key and the analysis must not be stored with the other version's findings."""
        result.analysed += 1
        if key is not None and not outcome.problems and outcome.analysed == digest:
            entry = Entry(
                outcome.diagnostics,
                outcome.requests,
                outcome.returns,
                outcome.exports,
                outcome.reads,
                outcome.writes,
            )
            self.cache.put(key, entry)
        return outcome

    def fix_all(self, views: dict[str, ProjectView], result: RunResult) -> dict[str, FileOutcome]:
        ran = self._run(views, fixing=True)
        result.analysed += len(ran)
        return ran

    def _key(self, path: str, view: ProjectView) -> tuple[str | None, str | None]:
        """The cache key of the file as it is now, and the digest of its bytes."""
        if self.cache.directory is None:
            return None, None
        content = read_regular(path)
        if content is None:
            return None, None
        settings = self.resolver.settings_for(path)
        extra = f"{view.fingerprint()}\0{settings.fingerprint()}\0{settings.ignored_in(path)}"
        return self.cache.key(path, content, extra), content_digest(content)

    def _run(self, views: dict[str, ProjectView], fixing: bool) -> dict[str, FileOutcome]:
        jobs = [(path, view, fixing, self.resolver.settings_for(path)) for path, view in views.items()]
        if self.mode.jobs > 1 and len(jobs) >= PARALLEL_THRESHOLD:
            return self._run_parallel(jobs)
        worker = Worker(self.mode)
        outcomes: dict[str, FileOutcome] = {}
        for path, view, fix, settings in jobs:
            outcomes[path] = worker.run(path, view, fix, settings)
            self._finished()
        return outcomes

    def _run_parallel(self, jobs: list[Job]) -> dict[str, FileOutcome]:
        import multiprocessing

        context = multiprocessing.get_context(_start_method())
        outcomes: dict[str, FileOutcome] = {}
        chunk = max(1, len(jobs) // (self.mode.jobs * 8))
        try:
            with ProcessPoolExecutor(
                min(self.mode.jobs, len(jobs)),  # more workers than files would only cost
                mp_context=context,
                initializer=_init_worker,
                initargs=(self.mode, os.getpid()),
            ) as pool:
                for outcome in pool.map(_run_job, jobs, chunksize=chunk):
                    outcomes[outcome.path] = outcome
                    self._finished()
        except BrokenProcessPool:
            pass  # a worker died (memory, a signal): the files it left are reported below
        for path, *_ in jobs:
            if path not in outcomes:
                message = f"a worker process died while checking this file ({path})"
                outcomes[path] = FileOutcome(path, [meta_diagnostic(INTERNAL_ERROR, message, path)])
        return outcomes


class Worker:
    """Checks or fixes one file at a time; one per process."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.rulesets = SettingsCache()
        self.settings = Settings()
        self.decorators: frozenset[str] = frozenset()

    def run(
        self, path: str, view: ProjectView, fixing: bool, settings: Settings, raw: bytes | None = None
    ) -> FileOutcome:
        """Check (or fix) ``path``; with ``raw``, those bytes (standard input) instead of the file."""
        self.settings = settings
        self.decorators = frozenset(settings.traced_decorators)
        try:
            with gc_paused():
                return self._run(path, view, fixing, raw)
        except RecursionError:
            message = "the file is nested too deeply to analyse"
            return FileOutcome(path, [meta_diagnostic(INTERNAL_ERROR, message, path)])
        except Exception as error:  # contain the crash to this file
            message = f"internal error: {type(error).__name__}: {error}; the file was skipped"
            if os.environ.get("JAXLINT_RAISE_INTERNAL_ERRORS") == "1":
                raise
            return FileOutcome(path, [meta_diagnostic(INTERNAL_ERROR, message, path)])

    def _run(self, path: str, view: ProjectView, fixing: bool, raw: bytes | None) -> FileOutcome:
        if raw is None and not is_python_file(path):
            return FileOutcome(path, problems=[f"{path}: not a Python file (skipped)"], skipped=True)
        if path.endswith(NOTEBOOK_SUFFIX):
            return self._notebook(path, view, fixing, raw)
        source = read_source(path) if raw is None else decode_source(path, raw)
        if source.text is None:
            return FileOutcome(path, [meta_diagnostic(IO_ERROR, f"{source.error}", path)])
        ignored = self.settings.ignored_in(path)
        ruleset = self.rulesets.ruleset_for(self.settings, path)
        if fixing:
            outcome = self._fix(path, source, ruleset, view)
        else:
            analysis = analyze(source.text, path, ruleset, self.decorators, project=view)
            outcome = FileOutcome(path, self._shown(analysis, source.text))
            model = analysis.model
            if model is not None:
                _tell_the_project(outcome, model)
                model.release()
            outcome.analysed = content_digest(source.raw) if source.raw is not None else None
        if ignored:
            outcome.diagnostics = [
                d for d in outcome.diagnostics if d.code in META_CODES or not d.code.startswith(ignored)
            ]
        outcome.diagnostics = [d.detached() for d in outcome.diagnostics]
        return outcome

    def _shown(self, analysis: Analysis, text: str) -> list[Diagnostic]:
        """The analysis's diagnostics, with their fixes where the output shows them (JSON,
        SARIF, an editor): computing a fix can cost more than the check."""
        diagnostics = analysis.diagnostics
        if self.mode.with_fixes and analysis.model and any(d.code in fixable_codes() for d in diagnostics):
            from jaxlint.fixing.fixer import attach_fixes

            diagnostics = diagnostics + attach_fixes(diagnostics, text, analysis.model)
        return diagnostics

    def _notebook(self, path: str, view: ProjectView, fixing: bool, raw: bytes | None) -> FileOutcome:
        """A notebook's code cells, checked as one module; findings reported per cell; fixed
        cell by cell (outputs, metadata and magics kept)."""
        source = read_source(path) if raw is None else SourceFile(path, None, raw=raw)
        try:
            if source.raw is None:
                raise OSError(source.error or f"{path}: not a regular file that can be read")
            notebook = read_notebook(source.raw)
        except OSError as error:
            message = f"cannot read: {error.strerror or error}" if error.strerror else str(error)
            return FileOutcome(path, [meta_diagnostic(IO_ERROR, message, path)])
        except NotebookError as error:
            return FileOutcome(path, [meta_diagnostic(IO_ERROR, str(error), path)])
        ruleset = self.rulesets.ruleset_for(self.settings, path)
        if fixing:
            return self._fix_notebook(path, source, notebook, ruleset, view)
        analysis = analyze(notebook.source, path, ruleset, self.decorators, project=view)
        shown = self._shown(analysis, notebook.source)
        outcome = FileOutcome(path, [notebook.to_cells(d.detached()) for d in shown])
        if analysis.model is not None:
            _tell_the_project(outcome, analysis.model)
            analysis.model.release()
        outcome.analysed = content_digest(source.raw)
        return outcome

    def _fix_notebook(
        self, path: str, source: SourceFile, notebook: Notebook, ruleset: RuleSet, view: ProjectView
    ) -> FileOutcome:
        from jaxlint.fixing.applier import fix_source

        fixed = fix_source(notebook.source, path, ruleset, self.decorators, self.mode.unsafe, view)
        remaining = [notebook.to_cells(d.detached()) for d in fixed.remaining]
        outcome = FileOutcome(path, remaining, problems=list(fixed.problems))
        if not fixed.changed:
            return outcome
        rebuilt = notebook.cells_from(fixed.fixed)
        if rebuilt is None:
            outcome.problems.append(f"{path}: not fixed: the fixed cells could not be written back in place")
            outcome.diagnostics = self._unfixed_notebook(path, notebook, ruleset, view)
            return outcome
        after = read_notebook(rebuilt.encode("utf-8"))
        outcome.diagnostics = [after.to_cells(d.detached()) for d in fixed.remaining]
        fixed_notebook = replace(fixed, source=notebook.raw, fixed=rebuilt)
        return self._deliver(
            outcome,
            source,
            fixed_notebook,
            "utf-8",
            lambda: self._unfixed_notebook(path, notebook, ruleset, view),
        )

    def _unfixed_notebook(
        self, path: str, notebook: Notebook, ruleset: RuleSet, view: ProjectView
    ) -> list[Diagnostic]:
        analysis = analyze(notebook.source, path, ruleset, self.decorators, project=view)
        return [notebook.to_cells(d.detached()) for d in analysis.diagnostics]

    def _fix(self, path: str, source: SourceFile, ruleset: RuleSet, view: ProjectView) -> FileOutcome:
        from jaxlint.fixing.applier import fix_source

        text = source.text
        assert text is not None

        def refix(keep: frozenset[str]) -> FixResult:
            return fix_source(text, path, ruleset, self.decorators, self.mode.unsafe, view, keep)

        fixed = refix(frozenset())
        problems = list(fixed.problems)
        tally: Counter[str] = Counter()
        if self.mode.verify and fixed.changed:
            from jaxlint.fixing.verify_fixes import verified_fix

            fixed, refused = verified_fix(path, fixed, refix, tally=tally)
            problems.extend(refused)
        outcome = FileOutcome(path, fixed.remaining, problems=problems, verification=tally)
        if not fixed.changed:
            return outcome
        return self._deliver(
            outcome, source, fixed, source.encoding, lambda: self._unfixed(text, path, ruleset, view)
        )

    def _deliver(
        self,
        outcome: FileOutcome,
        read: SourceFile,
        fixed: FixResult,
        encoding: str,
        unfixed: Callable[[], list[Diagnostic]],
    ) -> FileOutcome:
        """Show (``--diff``), return (standard input) or write ``fixed.fixed`` over the file that
        was ``read``; when the write is refused, the findings are ``unfixed()``'s."""
        path = outcome.path
        if self.mode.diff:
            outcome.diff = unified_diff(path, fixed.source, fixed.fixed)
            return outcome
        if not self.mode.write:
            outcome.fixed_source, outcome.fixed = fixed.fixed, fixed.applied
            return outcome
        try:
            write_source(path, fixed.fixed, encoding, read=read)
        except WriteError as error:
            outcome.problems.append(str(error))
            outcome.diagnostics = unfixed()
            return outcome
        outcome.fixed = fixed.applied
        return outcome

    def _unfixed(self, text: str, path: str, ruleset: RuleSet, view: ProjectView) -> list[Diagnostic]:
        """The findings of a file whose fixes were not kept: those of its original text."""
        return analyze(text, path, ruleset, self.decorators, project=view).diagnostics


_WORKER: Worker | None = None
THREADED_NATIVE_MODULES = ("jax", "jaxlib", "torch", "tensorflow")  # they start threads on import


def _start_method() -> str:
    """``fork`` (workers start instantly, sharing what is loaded) where it is safe: on Linux, in
    a process that runs no other thread; ``spawn`` otherwise (a host that embeds jaxlint next to
    JAX, whose native threads make ``fork`` deadlock-prone)."""
    threaded = threading.active_count() > 1 or any(name in sys.modules for name in THREADED_NATIVE_MODULES)
    return "fork" if sys.platform.startswith("linux") and not threaded else "spawn"


def _init_worker(mode: Mode, parent: int) -> None:
    global _WORKER
    _die_with_parent(parent)
    _WORKER = Worker(mode)


def _die_with_parent(parent: int) -> None:
    """A worker ends when the jaxlint process ``parent`` that started it dies, even by SIGKILL
    (which runs no cleanup): Linux sends it SIGTERM (``PR_SET_PDEATHSIG``); elsewhere a watchdog
    thread notices that the parent changed. ``parent`` is the pid the parent gave: one read here
    could already be init's, if the parent died while the worker started."""
    if os.getppid() != parent:
        os._exit(1)
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
            if os.getppid() != parent:  # it died before the call took effect
                os._exit(1)
            return
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="jaxlint-parent-watch").start()


Job = tuple[str, ProjectView, bool, Settings]  # path, what the project says of it, fixing?, settings


def _run_job(job: Job) -> FileOutcome:
    assert _WORKER is not None
    return _WORKER.run(*job)


def _tell_the_project(outcome: FileOutcome, model: SemanticModel) -> None:
    """What a module's analysis tells the other modules: the functions it traces in them, what
    its functions they trace return, its module-level values, and the names of theirs it reads."""
    outcome.requests = list(model.outgoing)
    outcome.returns = model.seeded_returns()
    outcome.exports = model.exported_globals()
    outcome.reads = sorted(model.global_reads)
    outcome.writes = sorted(model.global_writes)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cycle collector while one file is checked: the syntax tree is millions of
    objects that full collections would scan again and again (super-linear on big files); the
    few cycles the analysis makes are collected once it resumes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def unified_diff(path: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=path,
        tofile=path,
    )
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)
