"""Checking and fixing many files: discovery, reading, linting, per-file ignores, writing."""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field

from jaxlint.config import Settings
from jaxlint.diagnostics import Diagnostic
from jaxlint.engine import IO_ERROR, META_CODES, RuleSet, analyze, meta_diagnostic
from jaxlint.files import SourceFile, WriteError, discover, read_source, write_source
from jaxlint.registry import fixable_codes, rule_codes


@dataclass(frozen=True)
class Mode:
    """What to do with the findings: report them, attach fixes, apply fixes, or show a diff."""

    fix: bool = False
    unsafe: bool = False
    diff: bool = False
    with_fixes: bool = False


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    sources: dict[str, SourceFile] = field(default_factory=dict)
    fixed: Counter[str] = field(default_factory=Counter)
    changed_files: int = 0
    diffs: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def build_ruleset(settings: Settings) -> RuleSet:
    return RuleSet.from_codes(settings.enabled(rule_codes()))


def check_paths(paths: list[str], settings: Settings, ruleset: RuleSet, mode: Mode = Mode()) -> RunResult:
    result = RunResult()
    for path in discover(paths, settings):
        result.files += 1
        check_file(path, settings, ruleset, mode, result)
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def check_file(path: str, settings: Settings, ruleset: RuleSet, mode: Mode, result: RunResult) -> None:
    source = read_source(path)
    result.sources[path] = source
    if source.text is None:
        result.diagnostics.append(meta_diagnostic(IO_ERROR, f"{source.error}", path))
        return
    decorators = frozenset(settings.traced_decorators)
    ignored = settings.ignored_in(path)
    fixing_ruleset = ruleset.without(ignored) if ignored else ruleset
    if mode.fix or mode.diff:
        diagnostics = _fix_file(path, source, fixing_ruleset, decorators, mode, result)
    else:
        analysis = analyze(source.text, path, ruleset, decorators)
        diagnostics = analysis.diagnostics
        if mode.with_fixes and analysis.model and any(d.code in fixable_codes() for d in diagnostics):
            from jaxlint.fixing import attach_fixes

            attach_fixes(diagnostics, source.text, analysis.model)
    if ignored:
        diagnostics = [d for d in diagnostics if d.code in META_CODES or not d.code.startswith(ignored)]
    result.diagnostics.extend(diagnostics)


def _fix_file(
    path: str,
    source: SourceFile,
    ruleset: RuleSet,
    decorators: frozenset[str],
    mode: Mode,
    result: RunResult,
) -> list[Diagnostic]:
    from jaxlint.fixing import fix_source

    assert source.text is not None
    outcome = fix_source(source.text, path, ruleset, decorators, unsafe=mode.unsafe)
    result.problems.extend(outcome.problems)
    if not outcome.changed:
        return outcome.remaining
    if mode.diff:
        result.diffs.append(unified_diff(path, outcome.source, outcome.fixed))
        result.changed_files += 1
        return outcome.remaining
    try:
        write_source(path, outcome.fixed, source.encoding)
    except WriteError as error:
        result.problems.append(str(error))
        return analyze(source.text, path, ruleset, decorators).diagnostics
    source.text = outcome.fixed
    result.fixed.update(outcome.applied)
    result.changed_files += 1
    return outcome.remaining


def unified_diff(path: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=path,
        tofile=path,
    )
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
