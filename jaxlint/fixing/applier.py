"""Applying fixes: to a fixed point, never to a syntax error, never writing a broken file.

Each pass lints the current text, asks the fixers for the findings they can fix, applies the
non-overlapping ones and re-lints. A pass whose result does not parse, or that leaves a fixed
finding in place at the rewritten spot, is rolled back and the offending fix is not offered again.
Fixers run only for files with fixable findings, so libcst is never imported otherwise.
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from jaxlint.engine.astutil import definition_locator, parse_quietly, parses
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
    fixed_in: dict[str, set[str]] = field(default_factory=dict)  # definition -> codes fixed in it
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

    unchanged: list[Diagnostic] | None = None  # the findings of ``source`` itself
    for _ in range(MAX_PASSES):
        analysis = lint(current)
        if current == source:
            unchanged = analysis.diagnostics
        if analysis.model is None:
            break
        diagnostics = analysis.diagnostics
        if keep:
            definition_at = definition_locator(analysis.model.tree)
            diagnostics = [d for d in diagnostics if definition_at(d.location.row) not in keep]
        candidates = _candidates(diagnostics, current, analysis.model, unsafe, refused, crashes)
        if not candidates:
            break
        definition_at = definition_locator(analysis.model.tree)
        analysis.model.release()
        outcome = _apply_pass(current, path, lint, candidates, analysis.diagnostics)
        if outcome.failed is not None:
            refused.add(outcome.failed)
            result.problems.append(outcome.reason)
            continue
        current = outcome.text
        result.applied.update(d.code for d, _ in outcome.applied)
        for diagnostic, _ in outcome.applied:
            result.fixed_in.setdefault(definition_at(diagnostic.location.row), set()).add(diagnostic.code)
    result.fixed = current
    found = unchanged if current == source and unchanged is not None else lint(current).diagnostics
    result.remaining = found + list(crashes.values())
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


def _breaks(source: str, text: str) -> bool:
    """Whether ``text``, the fixed ``source``, no longer compiles; for a source that does not
    compile either (a misplaced ``from __future__``), whether it no longer parses."""
    if parses(text):
        return False
    return parses(source) or parse_quietly(text) is None


def _apply_pass(
    source: str,
    path: str,
    lint: Callable[[str], Analysis],
    candidates: list[tuple[Diagnostic, Fix]],
    found: list[Diagnostic],
) -> _Pass:
    chosen = _non_overlapping(candidates, source)
    text, spans = apply_edits(source, [fix for _, fix in chosen])
    if _breaks(source, text):  # find the fix to blame (only then: parsing per fix is quadratic)
        for diagnostic, fix in chosen:
            if _breaks(source, apply_edits(source, [fix])[0]):
                return _Pass(
                    failed=_key(diagnostic, source),
                    reason=f"{path}:{diagnostic.location.row}: fix for {diagnostic.code} was "
                    "discarded: its result does not parse (please report it)",
                )
        diagnostic = chosen[0][0]
        return _Pass(failed=_key(diagnostic, source), reason=f"{path}: combined fixes do not parse")
    after = lint(text).diagnostics
    before_text = _Analysed(source, found)
    after_text = _Analysed(text, after)
    for (diagnostic, _), edited in zip(chosen, spans, strict=True):
        if _left_in_place(diagnostic, edited, before_text, after_text):
            return _Pass(
                failed=_key(diagnostic, source),
                reason=f"{path}:{diagnostic.location.row}: fix for {diagnostic.code} did not remove "
                "the finding; it was rolled back",
            )
    return _Pass(text=text, applied=chosen)


@dataclass
class _Analysed:
    """A text, its findings, and where its lines start (computed once per pass, not per fix)."""

    text: str
    diagnostics: list[Diagnostic]
    starts: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.starts = line_starts(self.text)
        self._by_code: dict[str, tuple[list[int], list[Diagnostic]]] | None = None

    def located(self, code: str) -> tuple[list[int], list[Diagnostic]]:
        """The findings of rule ``code`` with their offsets, in offset order."""
        if self._by_code is None:
            table: dict[str, list[tuple[int, int, Diagnostic]]] = {}
            for number, diagnostic in enumerate(self.diagnostics):
                offset = _to_offset(self.starts, diagnostic.location)
                table.setdefault(diagnostic.code, []).append((offset, number, diagnostic))
            self._by_code = {
                key: ([o for o, _, _ in rows], [d for _, _, d in rows])
                for key, rows in ((k, sorted(v, key=lambda row: row[:2])) for k, v in table.items())
            }
        return self._by_code.get(code, ([], []))


def _left_in_place(fixed: Diagnostic, spans: list[Span], before: _Analysed, after: _Analysed) -> bool:
    """Whether a fix left its finding in place: the text its edits wrote holds a finding like it
    (same rule, same kind of node) on code the fix wrote, or as many on the fixed code as the
    replaced text did. Other findings there are for the next pass: on code the fix only moved (an
    ``if`` inside a ``while`` that became ``lax.while_loop``), or on a construct the fix uncovered
    (an ``if`` whose conditional-expression test became ``jnp.where``)."""
    replaced = [_normalised(before.text[start:end]) for start, end in (span.before for span in spans)]
    fixed_code = _code_of(before.text, before.starts, fixed)
    was = _findings_like(fixed, before, [span.before for span in spans]).count(fixed_code)
    now = _findings_like(fixed, after, [span.after for span in spans])
    return now.count(fixed_code) >= max(was, 1) or any(
        not any(code in text for text in replaced) for code in now
    )


def _findings_like(fixed: Diagnostic, analysed: _Analysed, spans: list[tuple[int, int]]) -> list[str]:
    """The code spanned by each finding of ``fixed``'s rule and kind of node inside ``spans``."""
    kind = type(fixed.site.node) if fixed.site else None
    offsets, diagnostics = analysed.located(fixed.code)
    inside: set[int] = set()
    for start, end in spans:
        inside.update(range(bisect_left(offsets, start), bisect_left(offsets, max(end, start + 1))))
    return [
        _code_of(analysed.text, analysed.starts, diagnostics[i])
        for i in sorted(inside)
        if diagnostics[i].site is None or type(diagnostics[i].site.node) is kind  # pyright: ignore[reportOptionalMemberAccess]
    ]


def _code_of(text: str, starts: list[int], diagnostic: Diagnostic) -> str:
    """The code a diagnostic spans, its whitespace normalised (a moved block is re-indented)."""
    return _normalised(
        text[_to_offset(starts, diagnostic.location) : _to_offset(starts, diagnostic.end_location)]
    )


def _normalised(code: str) -> str:
    return " ".join(code.split())


def _non_overlapping(candidates: list[tuple[Diagnostic, Fix]], source: str) -> list[tuple[Diagnostic, Fix]]:
    taken = _TakenRanges()
    isolated: set[str] = set()
    chosen = []
    lines = line_starts(source)
    for diagnostic, fix in candidates:
        ranges = [(_to_offset(lines, e.location), _to_offset(lines, e.end_location), e) for e in fix.edits]
        if any(taken.conflicts(r) for r in ranges) or fix.isolation in isolated:
            continue
        for each in ranges:
            taken.add(each)
        if fix.isolation is not None:
            isolated.add(fix.isolation)
        chosen.append((diagnostic, fix))
    return chosen


class _TakenRanges:
    """The edits already chosen, by start offset: a new edit is held against the few that can
    reach it, not against all of them (many fixes in one file stay linear)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ranges: list[tuple[int, int, Edit]] = []
        self.longest = 0

    def add(self, edit: tuple[int, int, Edit]) -> None:
        index = bisect_right(self.starts, edit[0])
        self.starts.insert(index, edit[0])
        self.ranges.insert(index, edit)
        self.longest = max(self.longest, edit[1] - edit[0])

    def conflicts(self, edit: tuple[int, int, Edit]) -> bool:
        low = bisect_left(self.starts, edit[0] - self.longest)
        high = bisect_right(self.starts, edit[1])
        return any(_conflicts(edit, taken) for taken in self.ranges[low:high])


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
