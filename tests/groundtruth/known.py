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
from collections.abc import Callable, Iterable
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
    """The fixed sample of the CI test, ``CI_SIZE`` programs: every hazard form in its canonical
    cell (under ``@jax.jit``, the value an argument; each program written whole), hazard and near
    miss, so that every form is exercised where the model is expected to see it; the rest drawn
    with ``CI_SEED``."""
    programs = universe()
    canonical = [
        p
        for p in programs
        if (p.context == "jit_decorator" and p.flow == "arg")
        or p.context.startswith("driver")
        or p.context == "jit_library"
    ]
    chosen = {p.id for p in canonical}
    rest = [p for p in programs if p.id not in chosen]
    return canonical + sample(rest, CI_SIZE - len(canonical), CI_SEED)


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


def _miss(
    contexts: Iterable[str] = (),
    flows: Iterable[str] = (),
    hazards: Iterable[str] = (),
    families: Iterable[str] = (),
) -> Predicate:
    """A miss in any of ``contexts`` (and of ``flows``, ``hazards``, ``families`` when given)."""
    contexts, flows, hazards, families = set(contexts), set(flows), set(hazards), set(families)

    def applies(kind: str, o: Outcome) -> bool:
        p = o.program
        return (
            kind == "miss"
            and (not contexts or p.context in contexts)
            and (not flows or p.flow in flows)
            and (not hazards or p.hazard in hazards)
            and (not families or o.family in families)
        )

    return applies


def _alarm(
    contexts: Iterable[str] = (),
    codes: Iterable[str] = (),
    families: Iterable[str] = (),
    flows: Iterable[str] = (),
) -> Predicate:
    """A false alarm in any of ``contexts`` (``flows``) whose findings include one of ``codes``."""
    contexts, codes, families, flows = set(contexts), tuple(codes), set(families), set(flows)

    def applies(kind: str, o: Outcome) -> bool:
        return (
            kind == "false-alarm"
            and (not contexts or o.program.context in contexts)
            and (not flows or o.program.flow in flows)
            and (not families or o.family in families)
            and (not codes or any(c.startswith(codes) for c in o.codes))
        )

    return applies


LAX_BODIES = (
    "scan_nested",
    "scan_module",
    "scan_lambda",
    "fori_nested",
    "fori_module",
    "fori_lambda",
    "while_body",
    "while_cond",
    "lax_map",
)
LEAVES = ("dict_leaf", "list_leaf", "tuple_leaf", "namedtuple_leaf", "dataclass_leaf")

CAUSES: list[Cause] = [
    # ---- false alarms that are true claims: the oracle has no probe for them
    Cause(
        "oracle blind spot: a constant-seed key under pmap or checkpoint",
        "`jax.random.key(0)` inside a pmapped function draws one sample shared by every device, which is what\n"
        "JAX303 reports; under `jax.checkpoint` keys re-created from one seed in a loop are tracers. The oracle\n"
        "compares the values of the keys a call consumes, and sees them under `vmap` (unmapped, they are\n"
        "concrete), but tracers hide them here; JAX's checker follows key objects, not equal values, so neither\n"
        "sees it: the verdict 'clean' is for want of a probe.",
        _alarm(contexts=("pmap", "checkpoint"), codes=("JAX303",)),
    ),
    Cause(
        "oracle blind spot: a legacy key made outside jitted code is a constant of the compiled program",
        "A module-level key consumed inside a jitted function draws the same numbers on every call (JAX302). The\n"
        "oracle calls the program twice under `jax.debug_key_reuse`, which sees a typed key consumed again, but\n"
        "not a legacy `PRNGKey` (a plain uint32 array), and compares draws only within one call.",
        _alarm(flows=("global",), codes=("JAX302",)),
    ),
    # ---- misses by design
    Cause(
        "deliberate: a print of static values is the trace-time debugging idiom",
        '`print("tracing the step")`, `print(x.shape)`: under jit the text appears once per compilation, not once\n'
        "per call, which is what JAX shows. jaxlint stays silent on purpose (issue 15): printing static values\n"
        "while tracing is how JAX users see shapes and when a function compiles.",
        lambda kind, o: (
            kind == "miss"
            and o.program.hazard in ("print_const", "print", "print_fstring")
            and (o.program.hazard == "print_const" or o.program.flow in ("static", "shape", "global"))
        ),
    ),
    Cause(
        "deliberate: a side effect that only stores or logs static values",
        '`self.last = np.linspace(..., x.shape[0])`, `logger.info("n=%d", n)` with a static `n`: under jit it runs\n'
        "once per compilation, not once per call, but it records what tracing saw, which is usually the point.\n"
        "jaxlint reports side effects that capture tracers or count calls, and stays silent on these.",
        _miss(families=("JAX1",), flows=("static", "shape")),
    ),
    # ---- misses: what the model does not know
    Cause(
        "`jax.jit(<library function>)` is not checked",
        "`jax.jit(float)`, `jax.jit(math.sqrt)`, `jax.jit(jnp.unique)`: the library function runs on tracers; the\n"
        "model knows which parameters of JAX's functions must be static, not what other libraries' functions\n"
        "do with a tracer.",
        _miss(contexts=("jit_library",)),
    ),
    Cause(
        "a key in a lax loop that no consumer ever sees twice, yet repeats across steps",
        "A closed-over key folded with the same Python data in a lax loop body (`fold_in` does not consume it),\n"
        "or a key the body hands on through a form the key flow does not follow: every step draws equal numbers\n"
        "(the oracle sees equal draws), but no key identity is consumed twice where jaxlint can see it. (A\n"
        "carried key folded with Python data and handed back unchanged is reported, JAX302.)",
        lambda kind, o: kind == "miss" and o.family == "JAX3" and o.program.context in LAX_BODIES,
    ),
    Cause(
        "under a bare grad, NumPy conversion and `float()` still raise",
        "Under `jax.grad` values are JVP tracers: Python `if` and `int()` work on them, but `np.asarray`, NumPy\n"
        "ufuncs and `float()` of the differentiated value raise (TracerArrayConversionError,\n"
        "ConcretizationTypeError). jaxlint does not tell JVP tracers from concrete values under a bare grad.",
        _miss(contexts=("grad", "value_and_grad")),
    ),
]


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
