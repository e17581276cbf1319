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
    contexts: Iterable[str] = (), codes: Iterable[str] = (), families: Iterable[str] = ()
) -> Predicate:
    """A false alarm in any of ``contexts`` whose findings include one of ``codes``."""
    contexts, codes, families = set(contexts), tuple(codes), set(families)

    def applies(kind: str, o: Outcome) -> bool:
        return (
            kind == "false-alarm"
            and (not contexts or o.program.context in contexts)
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
    # ---- false alarms: JAX runs these cleanly
    Cause(
        "oracle blind spot: a constant-seed key under vmap, pmap or checkpoint",
        "`jax.random.key(0)` inside a vmapped (pmapped) function draws one sample shared by every batch element,\n"
        "which is what JAX303 reports; under `jax.checkpoint` keys re-created from one seed in a loop are tracers.\n"
        "The oracle compares the values of the keys a call consumes (tracers hide them) and JAX's checker follows\n"
        "key objects, not equal values, so neither sees it: the verdict 'clean' is for want of a probe.",
        _alarm(contexts=("vmap", "vmap_in_axes_none", "jit_vmap", "pmap", "checkpoint"), codes=("JAX303",)),
    ),
    Cause(
        "a bare vmap, pmap, checkpoint or lax.map traces on every call",
        "Without a `jit` around it, `jax.vmap` (also `pmap` of a fresh function, `jax.checkpoint`, `lax.map`) traces\n"
        "the function anew on every call: Python side effects (print, logging, file writes, counters, `next()`,\n"
        "Python randomness and clocks) run on every call as they do eagerly, and globals are read afresh. With\n"
        "`in_axes=None` the value is not even a tracer. JAX runs these programs as eager code does; jaxlint reports\n"
        "them as if the transform cached its trace like `jit`.",
        _alarm(contexts=("vmap", "vmap_in_axes_none", "checkpoint", "pmap", "lax_map"), families=("JAX1",)),
    ),
    Cause(
        "a side effect whose value never reaches the output",
        "In a `while_loop` condition (or under a gradient) the hazard's value does not change what the program\n"
        "returns or does, so JAX's run shows nothing: the oracle calls it clean.",
        _alarm(contexts=("while_cond", "jit_grad", "grad", "value_and_grad")),
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
    # ---- misses: tracing contexts the model does not follow
    Cause(
        "jaxlint does not model `f = jax.jit(f)` (the name rebound to its jitted self)",
        "`step = jax.jit(step)` after `def step`: the function is traced, but the model only sees decorators and\n"
        "jit of a name bound to another name, so nothing in `step` is reported.",
        _miss(contexts=("jit_rebind",)),
    ),
    Cause(
        "jaxlint does not model `jax.jit(obj.method)` on an instance",
        "`step = jax.jit(model.apply)` with `model = Model()` at module level: the bound method is traced with\n"
        "`self` bound; the model does not resolve the instance's class, so the method is not known to be traced.",
        _miss(contexts=("jit_method",)),
    ),
    Cause(
        "methods called on an instance inside traced code are not followed",
        "A jitted function calling `model.apply(x)` or `layer(x)` (a callable class) on a module-level instance:\n"
        "the helper is traced with the traced argument, but the model follows only plain functions.",
        _miss(contexts=("method_in_jit", "callable_class")),
    ),
    Cause(
        "a class constructed inside traced code: its `__init__` is not analysed as traced",
        "`Normalizer(x).out` in a jitted function runs `__init__` with a tracer; the model does not follow\n"
        "constructors.",
        _miss(contexts=("constructor_in_jit",)),
    ),
    Cause(
        "the closure a factory returns is not known to be traced",
        "`step = jax.jit(make_step(2.0))`: the jitted function is the nested `step` of `make_step`; the model does\n"
        "not follow the returned closure.",
        _miss(contexts=("factory_closure",)),
    ),
    Cause(
        "a lambda bound to a name and jitted later is not traced",
        "`scaled = lambda x: ...` then `jax.jit(scaled)`: the lambda is traced, the model does not follow the name.",
        _miss(contexts=("jit_lambda_assigned",)),
    ),
    Cause(
        "`jax.jit(<library function>)` is not checked",
        "`jax.jit(float)`, `jax.jit(math.sqrt)`, `jax.jit(jnp.unique)`: the library function runs on tracers; the\n"
        "model has no summary of what library functions do with their arguments.",
        _miss(contexts=("jit_library",)),
    ),
    Cause(
        "`equinox.filter_jit`: array arguments are traced, the model treats them as maybe static",
        "`filter_jit` traces every array leaf and keeps the rest static; jaxlint cannot tell which arguments are\n"
        "arrays, so it stays silent on them.",
        _miss(contexts=("eqx_filter_jit",)),
    ),
    Cause(
        "flax linen: `__call__` reached through `module.apply(...)` inside jit",
        "`block.apply({}, x)` in a jitted function runs `Block.__call__` (an `@nn.compact` method) with tracers; the\n"
        "model knows linen `__call__` methods are traced but not the values `apply` passes to them.",
        _miss(contexts=("linen_apply",)),
    ),
    Cause(
        "a jitted nested def created on every call is not reported",
        "`@jax.jit def step(v): ...` nested in a function that runs on every call makes a new function object, and\n"
        "JAX compiles it again on every call; JAX601 covers `jax.jit(...)` calls on new functions, not the\n"
        "decorated nested def.",
        _miss(hazards=("jit_per_call_nested_def",)),
    ),
    Cause(
        "a side effect that only shows static values still runs only while tracing",
        '`logger.warning("value %s", t)` or `print(n)` with a static argument or a shape: the text is right, but\n'
        "under jit it runs once per compilation, not once per call. jaxlint stays silent when no traced value\n"
        "is involved.",
        _miss(families=("JAX1",), flows=("static", "shape")),
    ),
    # ---- misses: PRNG key flow
    Cause(
        "key reuse across the iterations of a lax loop",
        "A key closed over by (or carried unsplit through) a `lax.fori_loop`/`scan`/`while_loop`/`lax.map` body is\n"
        "consumed once per iteration: every iteration draws the same bits (JAX's key-reuse checker and the equal\n"
        "draws show it). jaxlint's key flow follows one function body and its Python loops, not lax loop\n"
        "iterations; a split inside the body of a key that is not carried (the near misses here) is the same bug.",
        lambda kind, o: (
            kind == "miss"
            and o.family == "JAX3"
            and (
                o.program.context in LAX_BODIES
                or o.program.hazard in ("key_reuse_fori", "key_reuse_scan_carry")
            )
        ),
    ),
    Cause(
        "a key reached through a container leaf, closure, global, attribute or made inside",
        'The key flow tracks keys bound to plain names in the function; a key read as `batch["x"]`, `xs[0]`,\n'
        "`state.value`, a closed-over or global key, `self.value`, or `jax.random.key(42)` made in the function is\n"
        "not followed.",
        _miss(families=("JAX3",), flows=(*LEAVES, "closure", "global", "self_attr", "jnp_const")),
    ),
    # ---- misses: values the model does not know to be traced (or to be arrays)
    Cause(
        "item assignment on a traced value not known to be an array",
        "`x[0] = 0.0` / `x[0] += 1.0` on a jitted function's argument: JAX raises (arrays are immutable), but the\n"
        "argument could be a list or dict pytree as far as jaxlint knows, so it does not report.",
        _miss(hazards=("setitem", "setitem_slice", "augassign", "augassign_mul")),
    ),
    Cause(
        "under a bare grad, NumPy conversion and `float()` still raise",
        "Under `jax.grad` values are JVP tracers: Python `if` and `int()` work on them, but `np.asarray`, NumPy\n"
        "ufuncs and `float()` of the differentiated value raise (TracerArrayConversionError,\n"
        "ConcretizationTypeError). jaxlint treats every value under a bare grad as concrete.",
        _miss(contexts=("grad", "value_and_grad")),
    ),
    Cause(
        "a leaf of a NamedTuple or registered dataclass argument is not known to be traced",
        "`state.value` / `batch.value` of a traced pytree argument is a tracer; the model knows subscripts of\n"
        "traced containers, not attributes of traced pytree nodes.",
        _miss(flows=("namedtuple_leaf", "dataclass_leaf")),
    ),
    Cause(
        "a jnp value computed from constants inside traced code is traced",
        "Under `jit` every `jnp` operation is staged, even on constants (`jnp.linspace(...).mean()`): the result is a\n"
        "tracer. The model takes values built from literals as concrete.",
        _miss(flows=("jnp_const",)),
    ),
    Cause(
        "a module-level JAX array becomes traced as soon as traced code computes with it",
        "A global `jnp` array is concrete, but `STATE > 0` or `STATE[STATE > 0]` inside jit is staged: the result is\n"
        "a tracer. The model treats globals as concrete.",
        _miss(flows=("global",)),
    ),
    Cause(
        "a NumPy value made from a shape becomes traced once `jnp` touches it inside jit",
        "`np.linspace(..., x.shape[0])` is concrete, but `jnp.nonzero(dim > 0)` or `jnp.asarray(dim)` in traced code\n"
        "stages it; the model keeps it concrete.",
        _miss(flows=("shape",)),
    ),
    Cause(
        "a traced argument read by a nested function (closure) is not followed",
        "`def inner(): ... x ...` inside the traced function, called there: `x` is a tracer in `inner`; the model\n"
        "does not always carry the enclosing function's values into the nested one.",
        _miss(flows=("closure",)),
    ),
    Cause(
        "a value read from `self` in traced code",
        "`self.value` set in `__init__` to a JAX array, used in a traced method: operations on it are staged.",
        _miss(flows=("self_attr",)),
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
