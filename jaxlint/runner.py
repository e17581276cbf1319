"""Checking many files: discovery, reading, linting, per-file ignores."""

from __future__ import annotations

from dataclasses import dataclass, field

from jaxlint.config import Settings
from jaxlint.diagnostics import Diagnostic
from jaxlint.engine import IO_ERROR, META_CODES, RuleSet, lint_source, meta_diagnostic
from jaxlint.files import SourceFile, discover, read_source
from jaxlint.registry import rule_codes


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    sources: dict[str, SourceFile] = field(default_factory=dict)


def build_ruleset(settings: Settings) -> RuleSet:
    return RuleSet.from_codes(settings.enabled(rule_codes()))


def check_file(path: str, settings: Settings, ruleset: RuleSet) -> tuple[list[Diagnostic], SourceFile]:
    source = read_source(path)
    if source.text is None:
        return [meta_diagnostic(IO_ERROR, f"{source.error}", path)], source
    diagnostics = lint_source(source.text, path, ruleset, frozenset(settings.traced_decorators))
    ignored = settings.ignored_in(path)
    if ignored:
        diagnostics = [d for d in diagnostics if d.code in META_CODES or not d.code.startswith(ignored)]
    return diagnostics, source


def check_paths(paths: list[str], settings: Settings, ruleset: RuleSet) -> RunResult:
    result = RunResult()
    for path in discover(paths, settings):
        diagnostics, source = check_file(path, settings, ruleset)
        result.files += 1
        result.diagnostics.extend(diagnostics)
        result.sources[path] = source
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result
