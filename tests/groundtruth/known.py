"""The CI sample and the reviewed list of known disagreements between jaxlint and JAX.

``known_disagreements.txt`` lists, grouped by cause (a ``## title`` line, then ``#`` lines with
the reason), every program of the CI sample on which jaxlint disagrees with JAX today, one
``<kind> <program id>`` per line (kind: ``miss``, JAX found a hazard that jaxlint does not
report on its line; ``false-alarm``, JAX found the program clean and jaxlint reports something).

The CI test fails on a disagreement that is not listed (a regression, or a new program), and on
a listed one that no longer disagrees (the model improved: take it off the list, so the list
only shrinks). ``python -m tests.groundtruth.known`` shows both; ``--update`` rewrites the list:
stale entries go, new ones are filed under the cause :func:`propose` finds for them, or under
``## unreviewed``, which the test rejects until someone files them under a cause.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.groundtruth import agreement, verdicts
from tests.groundtruth.agreement import Outcome
from tests.groundtruth.generator import Program, sample, universe

PATH = Path(__file__).resolve().parent / "known_disagreements.txt"
CI_SEED = 14
CI_SIZE = 600
UNREVIEWED = "unreviewed"


def ci_sample() -> list[Program]:
    """The fixed sample of the CI test: ``CI_SIZE`` programs drawn with ``CI_SEED``."""
    return sample(universe(), CI_SIZE, CI_SEED)


@dataclass
class Section:
    title: str
    reason: list[str]
    entries: list[tuple[str, str]]


def parse(text: str) -> tuple[list[str], list[Section]]:
    preamble: list[str] = []
    sections: list[Section] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("## "):
            sections.append(Section(line[3:].strip(), [], []))
        elif not sections:
            preamble.append(line)
        elif line.startswith("#"):
            sections[-1].reason.append(line)
        elif line.strip():
            kind, pid = line.split(None, 1)
            sections[-1].entries.append((kind, pid.strip()))
    return preamble, sections


def load(path: Path = PATH) -> dict[tuple[str, str], str]:
    """(kind, program id) -> the title of its cause."""
    if not path.exists():
        return {}
    _, sections = parse(path.read_text())
    return {entry: s.title for s in sections for entry in s.entries}


def render(preamble: list[str], sections: list[Section]) -> str:
    out = list(preamble)
    while out and not out[-1].strip():
        out.pop()
    for s in sections:
        if not s.entries:
            continue
        out += ["", f"## {s.title}", *s.reason]
        out += [f"{kind} {pid}" for kind, pid in sorted(s.entries)]
    return "\n".join(out) + "\n"


@dataclass
class Check:
    judged: list[Outcome]
    dropped: list[Program]
    actual: dict[tuple[str, str], Outcome]
    listed: dict[tuple[str, str], str]

    @property
    def new(self) -> list[tuple[str, str]]:
        return sorted(set(self.actual) - set(self.listed))

    @property
    def stale(self) -> list[tuple[str, str]]:
        return sorted(set(self.listed) - set(self.actual))

    @property
    def unreviewed(self) -> list[tuple[str, str]]:
        return sorted(k for k, title in self.listed.items() if title == UNREVIEWED)


def check(programs: list[Program] | None = None) -> Check:
    programs = programs if programs is not None else ci_sample()
    findings = agreement.lint(programs)
    judged, dropped = agreement.outcomes(programs, verdicts.load().get("programs", {}), findings)
    return Check(judged, dropped, agreement.disagreements(judged), load())


# ---------------------------------------------------------------------------------------------
# causes: how a new disagreement is filed (the list itself is what is reviewed)

Predicate = Callable[[str, Outcome], bool]


@dataclass(frozen=True)
class Cause:
    title: str
    reason: str
    applies: Predicate


def _ctx(*names: str) -> Predicate:
    return lambda kind, o: kind == "miss" and o.program.context in names


CAUSES: list[Cause] = []


def propose(kind: str, outcome: Outcome) -> str:
    for cause in CAUSES:
        if cause.applies(kind, outcome):
            return cause.title
    return UNREVIEWED


def update(result: Check, path: Path = PATH) -> tuple[int, int]:
    preamble, sections = parse(path.read_text()) if path.exists() else ([], [])
    if not preamble:
        preamble = [
            line if line else "#" for line in ["# " + line for line in (__doc__ or "").strip().splitlines()]
        ]
    by_title = {s.title: s for s in sections}
    stale = set(result.stale)
    for s in sections:
        s.entries = [e for e in s.entries if e not in stale]
    for kind, pid in result.new:
        title = propose(kind, result.actual[(kind, pid)])
        if title not in by_title:
            cause = next((c for c in CAUSES if c.title == title), None)
            reason = (
                [f"# {line}" for line in cause.reason.splitlines()]
                if cause
                else ["# not yet reviewed: file each under a cause"]
            )
            by_title[title] = Section(title, reason, [])
            sections.append(by_title[title])
        by_title[title].entries.append((kind, pid))
    order = {c.title: i for i, c in enumerate(CAUSES)}
    sections.sort(key=lambda s: order.get(s.title, len(order)))
    path.write_text(render(preamble, sections))
    return len(result.new), len(stale)


def describe(result: Check) -> list[str]:
    lines = []
    for kind, pid in result.new:
        o = result.actual[(kind, pid)]
        lines.append(
            f"  new {kind}: {pid} (JAX: {o.jax} {o.family}; jaxlint: {' '.join(o.codes) or 'nothing'})"
        )
    for kind, pid in result.stale:
        lines.append(f"  stale: {kind} {pid} no longer disagrees: take it off {PATH.name}")
    for kind, pid in result.unreviewed:
        lines.append(f"  unreviewed: {kind} {pid}: file it under a cause in {PATH.name}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.groundtruth.known",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--update", action="store_true", help="rewrite the list: drop stale entries, file new ones"
    )
    args = parser.parse_args(argv)
    result = check()
    total = agreement.totals(result.judged)
    print(
        f"CI sample: {len(result.judged)} judged, {len(result.dropped)} dropped; {len(result.actual)} disagreements "
        f"({total.fn} misses, {total.fp} false alarms); {len(result.new)} new, {len(result.stale)} stale"
    )
    for line in describe(result):
        print(line)
    if args.update:
        added, removed = update(result)
        print(f"{PATH.name}: {added} added, {removed} removed")
    return 0 if not (result.new or result.stale or result.unreviewed) else 1


if __name__ == "__main__":
    sys.exit(main())
