"""Applying fixes: to a fixed point, never to a syntax error, never writing a broken file.

Each pass lints the current text, asks the fixers for the findings they can fix, applies the
non-overlapping ones and re-lints. A pass whose result does not parse, or that leaves a fixed
finding in place at the rewritten spot, is rolled back and the offending fix is not offered again.
Fixers run only for files with fixable findings, so libcst is never imported otherwise.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from jaxlint.engine.astutil import definition_at, parses
from jaxlint.engine.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
from jaxlint.engine.linter import Analysis, RuleSet, analyze
from jaxlint.fixing.document import line_starts
from jaxlint.fixing.fixer import attach_fixes
from jaxlint.semantic.cross_module import ProjectView
from jaxlint.semantic.model import SemanticModel

MAX_PASSES = 64


@dataclass
class FixResult:
    """What fixing one source did."""

    source: str
    fixed: str
    applied: Counter[str] = field(default_factory=Counter)
    remaining: list[Diagnostic] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.fixed != self.source


def fix_source(
    source: str,
    path: str,
    ruleset: RuleSet,
    traced_decorators: frozenset[str] = frozenset(),
    unsafe: bool = False,
    project: ProjectView | None = None,
    keep: frozenset[str] = frozenset(),
) -> FixResult:
    """Apply every allowed fix to ``source`` until nothing more can be fixed, leaving the
    definitions named in ``keep`` (see ``astutil.definitions``) as they are."""
    result = FixResult(source, source)
    refused: set[tuple[str, str]] = set()
    crashes: dict[str, Diagnostic] = {}  # fixers that crashed, reported once each
    current = source

    def lint(text: str) -> Analysis:
        return analyze(text, path, ruleset, traced_decorators, project=project)

    for _ in range(MAX_PASSES):
        analysis = lint(current)
        if analysis.model is None:
            break
        diagnostics = analysis.diagnostics
        if keep:
            tree = analysis.model.tree
            diagnostics = [d for d in diagnostics if definition_at(tree, d.location.row) not in keep]
        candidates = _candidates(diagnostics, current, analysis.model, unsafe, refused, crashes)
        if not candidates:
            break
        analysis.model.release()
        outcome = _apply_pass(current, path, lint, candidates, analysis.diagnostics)
        if outcome.failed is not None:
            refused.add(outcome.failed)
            result.problems.append(outcome.reason)
            continue
        current = outcome.text
        result.applied.update(d.code for d, _ in outcome.applied)
    result.fixed = current
    result.remaining = lint(current).diagnostics + list(crashes.values())
    return result


def _candidates(
    diagnostics: list[Diagnostic],
    source: str,
    model: SemanticModel,
    unsafe: bool,
    refused: set[tuple[str, str]],
    crashes: dict[str, Diagnostic],
) -> list[tuple[Diagnostic, Fix]]:
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    for crash in attach_fixes(diagnostics, source, model):
        crashes.setdefault(crash.message, crash)
    found = []
    for diagnostic in diagnostics:
        fix = diagnostic.fix
        if fix is None or fix.applicability not in allowed or not fix.edits:
            continue
        if _key(diagnostic, source) in refused:
            continue
        found.append((diagnostic, fix))
    return found


def _key(diagnostic: Diagnostic, source: str) -> tuple[str, str]:
    """A name for one finding that survives other fixes moving it around."""
    node = diagnostic.site.node if diagnostic.site else None
    try:
        text = ast.unparse(node) if node is not None else diagnostic.message
    except (ValueError, RecursionError):
        text = diagnostic.message
    return diagnostic.code, text


@dataclass
class _Pass:
    text: str = ""
    applied: list[tuple[Diagnostic, Fix]] = field(default_factory=list)
    failed: tuple[str, str] | None = None
    reason: str = ""


def _apply_pass(
    source: str,
    path: str,
    lint: Callable[[str], Analysis],
    candidates: list[tuple[Diagnostic, Fix]],
    found: list[Diagnostic],
) -> _Pass:
    chosen = _non_overlapping(candidates, source)
    text, spans = apply_edits(source, [fix for _, fix in chosen])
    for diagnostic, fix in chosen:
        if not parses(apply_edits(source, [fix])[0]):
            return _Pass(
                failed=_key(diagnostic, source),
                reason=f"{path}:{diagnostic.location.row}: fix for {diagnostic.code} was "
                "discarded: its result does not parse (please report it)",
            )
    if not parses(text):
        diagnostic = chosen[0][0]
        return _Pass(failed=_key(diagnostic, source), reason=f"{path}: combined fixes do not parse")
    after = lint(text).diagnostics
    for (diagnostic, _), edited in zip(chosen, spans, strict=True):
        if _left_in_place(diagnostic, edited, (source, found), (text, after)):
            return _Pass(
                failed=_key(diagnostic, source),
                reason=f"{path}:{diagnostic.location.row}: fix for {diagnostic.code} did not remove "
                "the finding; it was rolled back",
            )
    return _Pass(text=text, applied=chosen)


def _left_in_place(
    fixed: Diagnostic,
    spans: list[Span],
    before: tuple[str, list[Diagnostic]],
    after: tuple[str, list[Diagnostic]],
) -> bool:
    """Whether a fix left its finding in place: the text its edits wrote holds a finding like it
    (same rule, same kind of node) on code the fix wrote, or as many on the fixed code as the
    replaced text did. Other findings there are for the next pass: on code the fix only moved (an
    ``if`` inside a ``while`` that became ``lax.while_loop``), or on a construct the fix uncovered
    (an ``if`` whose conditional-expression test became ``jnp.where``)."""
    replaced = [_normalised(before[0][start:end]) for start, end in (span.before for span in spans)]
    fixed_code = _code_of(before[0], line_starts(before[0]), fixed)
    was = _findings_like(fixed, before, [span.before for span in spans]).count(fixed_code)
    now = _findings_like(fixed, after, [span.after for span in spans])
    return now.count(fixed_code) >= max(was, 1) or any(
        not any(code in text for text in replaced) for code in now
    )


def _findings_like(
    fixed: Diagnostic, analysed: tuple[str, list[Diagnostic]], spans: list[tuple[int, int]]
) -> list[str]:
    """The code spanned by each finding of ``fixed``'s rule and kind of node inside ``spans``."""
    text, diagnostics = analysed
    starts = line_starts(text)
    kind = type(fixed.site.node) if fixed.site else None
    found = []
    for diagnostic in diagnostics:
        if diagnostic.code != fixed.code or (
            diagnostic.site is not None and type(diagnostic.site.node) is not kind
        ):
            continue
        offset = _to_offset(starts, diagnostic.location)
        if any(start <= offset < max(end, start + 1) for start, end in spans):
            found.append(_code_of(text, starts, diagnostic))
    return found


def _code_of(text: str, starts: list[int], diagnostic: Diagnostic) -> str:
    """The code a diagnostic spans, its whitespace normalised (a moved block is re-indented)."""
    return _normalised(
        text[_to_offset(starts, diagnostic.location) : _to_offset(starts, diagnostic.end_location)]
    )


def _normalised(code: str) -> str:
    return " ".join(code.split())


def _non_overlapping(candidates: list[tuple[Diagnostic, Fix]], source: str) -> list[tuple[Diagnostic, Fix]]:
    taken: list[tuple[int, int, Edit]] = []
    isolated: set[str] = set()
    chosen = []
    lines = line_starts(source)
    for diagnostic, fix in candidates:
        ranges = [(_to_offset(lines, e.location), _to_offset(lines, e.end_location), e) for e in fix.edits]
        if any(_conflicts(r, t) for r in ranges for t in taken) or fix.isolation in isolated:
            continue
        taken.extend(ranges)
        if fix.isolation is not None:
            isolated.add(fix.isolation)
        chosen.append((diagnostic, fix))
    return chosen


def _conflicts(a: tuple[int, int, Edit], b: tuple[int, int, Edit]) -> bool:
    """Whether two edits touch the same text (an insertion conflicts only strictly inside)."""
    if a[2] == b[2]:
        return False  # the same edit (an import two fixes need) is applied once
    start_a, end_a, _ = a
    start_b, end_b, _ = b
    if start_a == end_a:
        return start_b < start_a < end_b
    if start_b == end_b:
        return start_a < start_b < end_a
    return start_a < end_b and start_b < end_a


@dataclass(frozen=True)
class Span:
    """The text one edit replaced (offsets in the source) and wrote (offsets in the result)."""

    before: tuple[int, int]
    after: tuple[int, int]


def apply_edits(source: str, fixes: list[Fix]) -> tuple[str, list[list[Span]]]:
    """Apply the fixes' edits (an edit two fixes share, such as an import, once); also return,
    per fix, the span of each of its edits."""
    lines = line_starts(source)
    owners: dict[Edit, list[int]] = {}
    for number, fix in enumerate(fixes):
        for edit in fix.edits:
            owners.setdefault(edit, []).append(number)
    ranges = {
        edit: (_to_offset(lines, edit.location), _to_offset(lines, edit.end_location)) for edit in owners
    }
    pieces: list[str] = []
    spans: list[list[Span]] = [[] for _ in fixes]
    cursor = length = 0
    for edit in sorted(owners, key=lambda e: (*ranges[e], owners[e][0])):
        start, end = ranges[edit]
        piece = source[cursor:start]
        pieces.append(piece)
        length += len(piece)
        for number in owners[edit]:
            spans[number].append(Span((start, end), (length, length + len(edit.content))))
        pieces.append(edit.content)
        length += len(edit.content)
        cursor = end
    pieces.append(source[cursor:])
    return "".join(pieces), spans


def _to_offset(starts: list[int], location: Location) -> int:
    return starts[location.row - 1] + location.column - 1
