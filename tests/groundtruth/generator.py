"""Generate small JAX programs, each with one hazard (or its near miss), deterministically.

A program is a hazard *form* (a few lines that misuse a value: ``if v > 0``, ``v[0] = 0.0``,
``print(v)``, a key consumed twice, ...) placed in a *tracing context* (``@jax.jit``,
``jax.jit(obj.method)``, a ``lax.scan`` body, a helper two calls deep, a module of a package,
...) with the value reaching it through a *value flow* (an argument, a dict leaf, a global, an
attribute of ``self``, a loop carry, a ``jnp`` value computed from constants, a shape, a static
argument, ...). For every hazard program there is its *near miss*: the same program written the
jit-compatible way (``jnp.where``, ``lax.cond``, ``size=``, split keys, ``jax.debug.print``, a
hoisted jit, ...).

Each program is a module (or, for the ``imported`` context, a package of two modules) with a
known entry point, ``main(*inputs(seed))``, and a first line that describes it::

    # groundtruth: {"id": ..., "family": "JAX5", "rules": ["JAX501"], "lines": [9], ...}

``lines`` are the lines of the hazard (or of the construct that replaces it in the near miss).
The generator never imports JAX: what a program *does* is decided by the oracle, which runs it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

UNIVERSE_SEED = 0
MARK = "  #@H"  # marks a hazard line while a program is assembled; removed afterwards
HEADER = "# groundtruth: "
B = 3  # batch size of vmapped / mapped inputs
DEVICES = 2  # leading axis of pmap / shard_map inputs


@dataclass(frozen=True)
class Program:
    id: str
    family: str
    rules: tuple[str, ...]
    hazard: str
    context: str
    flow: str
    near_miss: bool
    files: tuple[tuple[str, str], ...]  # (relative path, source)
    path: str  # the file that holds the hazard and the header
    entry: str  # the module to import, dotted
    lines: tuple[int, ...]
    requires: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return dict(self.files)[self.path]

    @property
    def digest(self) -> str:
        text = "\n".join(f"{name}\n{source}" for name, source in self.files)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def header(self) -> dict[str, object]:
        return {
            "id": self.id,
            "family": self.family,
            "rules": list(self.rules),
            "lines": list(self.lines),
            "hazard": self.hazard,
            "context": self.context,
            "flow": self.flow,
            "near_miss": self.near_miss,
            "entry": self.entry,
            "requires": list(self.requires),
        }


# ---------------------------------------------------------------------------------------------
# value flows: how the value a hazard uses reaches the function


@dataclass(frozen=True)
class Flow:
    """Where the hazard's value ``V`` comes from. ``X`` is the function's own data (the carrier
    its result is computed from); both are expressions over the function's parameters."""

    name: str
    kinds: frozenset[str]
    params: Callable[[str], list[str]]
    V: Callable[[str], str]
    X: Callable[[str], str]
    prologue: Callable[[str], list[str]] = lambda kind: []
    setup: Callable[[str, bool], list[str]] = lambda kind, raw: []
    args: Callable[[str, bool, str], list[str]] = lambda kind, raw, shape: []
    static: tuple[str, ...] = ()
    needs_self: bool = False
    self_init: Callable[[str, bool], list[str]] = lambda kind, raw: []
    batchable: bool = True


def base(kind: str, raw: bool, shape: str, offset: int = 0) -> str:
    """An input value of ``kind``; ``shape`` is "" (one example), "B" (batched) or "D" (per device)."""
    lead = {"": None, "B": B, "D": DEVICES}[shape]
    s = f"seed + {offset}" if offset else "seed"
    if kind == "scalar":
        return f"jnp.float32(0.5 + {s})" if lead is None else f"jnp.linspace(0.5, 1.5, {lead}) + {s}"
    if kind == "int":
        return f"jnp.int32(3 + {s})" if lead is None else f"jnp.arange({lead}, dtype=jnp.int32) + 2 + {s}"
    if kind == "array":
        if lead is None:
            return f"jnp.linspace(-1.0, 1.0, 4) + {s}"
        return f"jnp.linspace(-1.0, 1.0, {lead * 4}).reshape({lead}, 4) + {s}"
    make = "jax.random.PRNGKey" if raw else "jax.random.key"
    return f"{make}({s})" if lead is None else f"jax.random.split({make}({s}), {lead})"


def _const(kind: str, raw: bool) -> str:
    """A module-level or attribute value of ``kind``."""
    return {
        "scalar": "jnp.float32(1.5)",
        "int": "jnp.int32(3)",
        "array": "jnp.linspace(-1.0, 1.0, 4)",
        "key": "jax.random.PRNGKey(7)" if raw else "jax.random.key(7)",
    }[kind]


def _inner_const(kind: str, raw: bool) -> str:
    """A value computed with jnp (or jax.random) from constants inside the function."""
    return {
        "scalar": "jnp.linspace(0.5, 1.5, 5).mean()",
        "int": "jnp.arange(4).sum() // 2",
        "array": "jnp.linspace(-1.0, 1.0, 4) * 2.0",
        "key": "jax.random.PRNGKey(42)" if raw else "jax.random.key(42)",
    }[kind]


ALL = frozenset({"scalar", "int", "array", "key"})
NUMERIC = frozenset({"scalar", "int", "array"})

FLOWS: dict[str, Flow] = {
    f.name: f
    for f in [
        Flow(
            "arg",
            ALL,
            params=lambda k: ["key" if k == "key" else ("n" if k == "int" else "x")],
            V=lambda k: "key" if k == "key" else ("n" if k == "int" else "x"),
            X=lambda k: "key" if k == "key" else ("n" if k == "int" else "x"),
            args=lambda k, raw, sh: [base(k, raw, sh)],
        ),
        Flow(
            "arith",
            NUMERIC,
            params=lambda k: ["n" if k == "int" else "x"],
            V=lambda k: "m" if k == "int" else "v",
            X=lambda k: "n" if k == "int" else "x",
            prologue=lambda k: ["m = n * 2 - 1"] if k == "int" else ["v = x * 2.0 - 0.5"],
            args=lambda k, raw, sh: [base(k, raw, sh)],
        ),
        Flow(
            "dict_leaf",
            ALL,
            params=lambda k: ["batch"],
            V=lambda k: 'batch["x"]',
            X=lambda k: 'batch["x"]',
            args=lambda k, raw, sh: [f'{{"x": {base(k, raw, sh)}, "y": {base(k, raw, sh, 10)}}}'],
        ),
        Flow(
            "list_leaf",
            ALL,
            params=lambda k: ["xs"],
            V=lambda k: "xs[0]",
            X=lambda k: "xs[0]",
            args=lambda k, raw, sh: [f"[{base(k, raw, sh)}, {base(k, raw, sh, 10)}]"],
        ),
        Flow(
            "tuple_leaf",
            ALL,
            params=lambda k: ["pair"],
            V=lambda k: "pair[1]",
            X=lambda k: "pair[1]",
            args=lambda k, raw, sh: [f"({base(k, raw, sh, 10)}, {base(k, raw, sh)})"],
        ),
        Flow(
            "namedtuple_leaf",
            ALL,
            params=lambda k: ["state"],
            V=lambda k: "state.value",
            X=lambda k: "state.value",
            setup=lambda k, raw: [
                "class State(NamedTuple):",
                "    value: jax.Array",
                "    other: jax.Array",
            ],
            args=lambda k, raw, sh: [f"State({base(k, raw, sh)}, {base(k, raw, sh, 10)})"],
        ),
        Flow(
            "dataclass_leaf",
            ALL,
            params=lambda k: ["batch"],
            V=lambda k: "batch.value",
            X=lambda k: "batch.value",
            setup=lambda k, raw: [
                "@jax.tree_util.register_dataclass",
                "@dataclasses.dataclass",
                "class Batch:",
                "    value: jax.Array",
                "    other: jax.Array",
            ],
            args=lambda k, raw, sh: [f"Batch({base(k, raw, sh)}, {base(k, raw, sh, 10)})"],
        ),
        Flow(
            "closure",
            ALL,
            params=lambda k: ["key" if k == "key" else ("n" if k == "int" else "x")],
            V=lambda k: "key" if k == "key" else ("n" if k == "int" else "x"),
            X=lambda k: "key" if k == "key" else ("n" if k == "int" else "x"),
            args=lambda k, raw, sh: [base(k, raw, sh)],
        ),
        Flow(
            "global",
            ALL,
            params=lambda k: ["key" if k == "key" else ("n" if k == "int" else "x")],
            V=lambda k: "STATE",
            X=lambda k: "key" if k == "key" else ("n" if k == "int" else "x"),
            setup=lambda k, raw: [f"STATE = {_const(k, raw)}"],
            args=lambda k, raw, sh: [base(k, raw, sh)],
        ),
        Flow(
            "self_attr",
            ALL,
            params=lambda k: ["key" if k == "key" else ("n" if k == "int" else "x")],
            V=lambda k: "self.value",
            X=lambda k: "key" if k == "key" else ("n" if k == "int" else "x"),
            args=lambda k, raw, sh: [base(k, raw, sh)],
            needs_self=True,
            self_init=lambda k, raw: [f"self.value = {_const(k, raw)}"],
        ),
        Flow(
            "jnp_const",
            ALL,
            params=lambda k: ["key" if k == "key" else ("n" if k == "int" else "x")],
            V=lambda k: "key0" if k == "key" else "c",
            X=lambda k: "key" if k == "key" else ("n" if k == "int" else "x"),
            prologue=lambda k: [f"{'key0' if k == 'key' else 'c'} = {_inner_const(k, False)}"],
            args=lambda k, raw, sh: [base(k, raw, sh)],
        ),
        Flow(
            "shape",
            frozenset({"scalar", "int", "array"}),
            params=lambda k: ["x"],
            V=lambda k: "dim",
            X=lambda k: {"scalar": "x.sum()", "int": "jnp.int32(x.shape[0])", "array": "x"}[k],
            prologue=lambda k: [
                {
                    "scalar": "dim = x.shape[0] / 2.0",
                    "int": "dim = x.shape[0] - 1",
                    "array": "dim = np.linspace(-1.0, 1.0, x.shape[0])",
                }[k]
            ],
            args=lambda k, raw, sh: [base("array", raw, sh)],
        ),
        Flow(
            "static",
            frozenset({"scalar", "int"}),
            params=lambda k: ["x", "t"],
            V=lambda k: "t",
            X=lambda k: "x",
            args=lambda k, raw, sh: [base(k, raw, sh), "0.5 + seed" if k == "scalar" else "3 + seed"],
            static=("t",),
            batchable=False,
        ),
    ]
}


# ---------------------------------------------------------------------------------------------
# hazard forms


@dataclass(frozen=True)
class Hazard:
    """One hazard form. ``body(V, X)`` gives the statements (the hazard lines end with MARK) that
    leave the function's result in ``y``; ``near`` the near miss; ``expr``/``near_expr`` the
    same as one expression (for lambdas), when there is one."""

    name: str
    family: str
    rules: tuple[str, ...]
    kind: str  # scalar | int | array | key
    body: Callable[[str, str], list[str]]
    near: Callable[[str, str], list[str]] | None
    expr: Callable[[str, str], str] | None = None
    near_expr: Callable[[str, str], str] | None = None
    out: str = "X"  # X (like the carrier) | draws (float32[4]) | int (int32 scalar)
    imports: tuple[str, ...] = ()
    setup: tuple[str, ...] = ()
    raw_key: bool = False
    flows: frozenset[str] | None = None  # None: every flow of its kind
    contexts: frozenset[str] | None = None  # None: every context that fits
    no_contexts: frozenset[str] = frozenset()
    global_stmt: bool = False  # uses a `global` statement: not in lambdas


def _h(line: str) -> str:
    return line + MARK


def _if(V: str, X: str) -> list[str]:
    return [_h(f"if {V} > 0:"), f"    y = {X} * 2.0", "else:", f"    y = {X} - 1.0"]


def _where(V: str, X: str) -> list[str]:
    return [_h(f"y = jnp.where({V} > 0, {X} * 2.0, {X} - 1.0)")]


SCALAR_ONLY_JAX = frozenset(
    {
        "arg",
        "arith",
        "dict_leaf",
        "list_leaf",
        "tuple_leaf",
        "namedtuple_leaf",
        "dataclass_leaf",
        "closure",
        "global",
        "self_attr",
        "jnp_const",
    }
)

HAZARDS: list[Hazard] = [
    # ---- JAX5xx: Python control flow and conversions on tracers
    Hazard(
        "if",
        "JAX5",
        ("JAX501",),
        "scalar",
        _if,
        _where,
        expr=lambda V, X: f"{X} * 2.0 if {V} > 0 else {X} - 1.0",
        near_expr=lambda V, X: f"jnp.where({V} > 0, {X} * 2.0, {X} - 1.0)",
    ),
    Hazard(
        "if_cond",
        "JAX5",
        ("JAX501",),
        "scalar",
        _if,
        lambda V, X: [_h(f"y = lax.cond({V} > 0, lambda a: a * 2.0, lambda a: a - 1.0, {X})")],
    ),
    Hazard(
        "while",
        "JAX5",
        ("JAX501",),
        "scalar",
        lambda V, X: [f"y = {X}", "k = 0", _h(f"while {V} > k:"), "    y = y * 2.0", "    k += 1"],
        lambda V, X: [
            _h(f"y, _ = lax.while_loop(lambda s: {V} > s[1], lambda s: (s[0] * 2.0, s[1] + 1), ({X}, 0))")
        ],
    ),
    Hazard(
        "ternary",
        "JAX5",
        ("JAX501",),
        "scalar",
        lambda V, X: [_h(f"y = {X} * 2.0 if {V} > 0 else {X} - 1.0")],
        _where,
        expr=lambda V, X: f"{X} * 2.0 if {V} > 0 else {X} - 1.0",
        near_expr=lambda V, X: f"jnp.where({V} > 0, {X} * 2.0, {X} - 1.0)",
    ),
    Hazard(
        "bool",
        "JAX5",
        ("JAX503",),
        "scalar",
        lambda V, X: [_h(f"positive = bool({V} > 0)"), f"y = {X} * (2.0 if positive else 1.0)"],
        lambda V, X: [_h(f"positive = {V} > 0"), f"y = {X} * jnp.where(positive, 2.0, 1.0)"],
        expr=lambda V, X: f"{X} * (2.0 if bool({V} > 0) else 1.0)",
        near_expr=lambda V, X: f"{X} * jnp.where({V} > 0, 2.0, 1.0)",
    ),
    Hazard(
        "int",
        "JAX5",
        ("JAX503",),
        "scalar",
        lambda V, X: [_h(f"steps = int({V} * 3)"), f"y = {X} * steps"],
        lambda V, X: [_h(f"steps = jnp.floor({V} * 3)"), f"y = {X} * steps"],
        expr=lambda V, X: f"{X} * int({V} * 3)",
        near_expr=lambda V, X: f"{X} * jnp.floor({V} * 3)",
    ),
    Hazard(
        "float",
        "JAX5",
        ("JAX503",),
        "scalar",
        lambda V, X: [_h(f"scale = float({V})"), f"y = {X} * scale"],
        lambda V, X: [_h(f"scale = jnp.asarray({V}, jnp.float32)"), f"y = {X} * scale"],
        expr=lambda V, X: f"{X} * float({V})",
        near_expr=lambda V, X: f"{X} * jnp.asarray({V}, jnp.float32)",
    ),
    Hazard(
        "item",
        "JAX5",
        ("JAX503",),
        "scalar",
        lambda V, X: [_h(f"scale = {V}.item()"), f"y = {X} * scale"],
        lambda V, X: [_h(f"scale = {V}.astype(jnp.float32)"), f"y = {X} * scale"],
        expr=lambda V, X: f"{X} * {V}.item()",
        near_expr=lambda V, X: f"{X} * {V}.astype(jnp.float32)",
        flows=SCALAR_ONLY_JAX,
    ),
    Hazard(
        "and",
        "JAX5",
        ("JAX501", "JAX503"),
        "scalar",
        lambda V, X: [_h(f"if {V} > 0 and {V} < 10:"), f"    y = {X} * 2.0", "else:", f"    y = {X}"],
        lambda V, X: [_h(f"y = jnp.where(({V} > 0) & ({V} < 10), {X} * 2.0, {X})")],
        expr=lambda V, X: f"{X} * 2.0 if {V} > 0 and {V} < 10 else {X}",
        near_expr=lambda V, X: f"jnp.where(({V} > 0) & ({V} < 10), {X} * 2.0, {X})",
    ),
    Hazard(
        "or",
        "JAX5",
        ("JAX501", "JAX503"),
        "scalar",
        lambda V, X: [_h(f"if {V} < 0 or {V} > 10:"), f"    y = {X} * 0.0", "else:", f"    y = {X}"],
        lambda V, X: [_h(f"y = jnp.where(({V} < 0) | ({V} > 10), {X} * 0.0, {X})")],
    ),
    Hazard(
        "not",
        "JAX5",
        ("JAX501", "JAX503"),
        "scalar",
        lambda V, X: [_h(f"if not {V} > 0:"), f"    y = {X} * 0.0", "else:", f"    y = {X}"],
        lambda V, X: [_h(f"y = jnp.where(~({V} > 0), {X} * 0.0, {X})")],
    ),
    Hazard(
        "max",
        "JAX5",
        ("JAX501", "JAX503"),
        "scalar",
        lambda V, X: [_h(f"m = max({V}, 0.0)"), f"y = {X} * m"],
        lambda V, X: [_h(f"m = jnp.maximum({V}, 0.0)"), f"y = {X} * m"],
        expr=lambda V, X: f"{X} * max({V}, 0.0)",
        near_expr=lambda V, X: f"{X} * jnp.maximum({V}, 0.0)",
    ),
    Hazard(
        "min",
        "JAX5",
        ("JAX501", "JAX503"),
        "scalar",
        lambda V, X: [_h(f"m = min({V}, 1.0)"), f"y = {X} * m"],
        lambda V, X: [_h(f"m = jnp.minimum({V}, 1.0)"), f"y = {X} * m"],
    ),
    Hazard(
        "abs",
        "JAX5",
        ("JAX501", "JAX503"),
        "scalar",
        lambda V, X: [_h(f"m = abs({V})"), f"y = {X} * m"],
        lambda V, X: [_h(f"m = jnp.abs({V})"), f"y = {X} * m"],
    ),
    Hazard(
        "range",
        "JAX5",
        ("JAX502",),
        "int",
        lambda V, X: [f"y = {X}", _h(f"for _ in range({V}):"), "    y = y + 1"],
        lambda V, X: [_h(f"y = lax.fori_loop(0, {V}, lambda i, acc: acc + 1, {X})")],
    ),
    Hazard(
        "assert",
        "JAX5",
        ("JAX504",),
        "scalar",
        lambda V, X: [_h(f'assert {V} > 0, "must be positive"'), f"y = {X} * 2.0"],
        lambda V, X: [_h(f'assert jnp.ndim({V}) == 0, "must be a scalar"'), f"y = {X} * 2.0"],
    ),
    Hazard(
        "np_asarray",
        "JAX5",
        ("JAX503", "JAX602"),
        "array",
        lambda V, X: [_h(f"arr = np.asarray({V})"), f"y = {X} * arr.mean()"],
        lambda V, X: [_h(f"arr = jnp.asarray({V})"), f"y = {X} * arr.mean()"],
    ),
    # ---- JAX2xx: in-place mutation
    Hazard(
        "setitem",
        "JAX2",
        ("JAX201",),
        "array",
        lambda V, X: [_h(f"{V}[0] = 0.0"), f"y = {X} * 2.0 + {V}"],
        lambda V, X: [_h(f"z = {V}.at[0].set(0.0)"), f"y = {X} * 2.0 + z"],
    ),
    Hazard(
        "setitem_slice",
        "JAX2",
        ("JAX201",),
        "array",
        lambda V, X: [_h(f"{V}[1:3] = 0.0"), f"y = {X} + {V}"],
        lambda V, X: [_h(f"z = {V}.at[1:3].set(0.0)"), f"y = {X} + z"],
    ),
    Hazard(
        "augassign",
        "JAX2",
        ("JAX202",),
        "array",
        lambda V, X: [_h(f"{V}[0] += 1.0"), f"y = {X} + {V}"],
        lambda V, X: [_h(f"z = {V}.at[0].add(1.0)"), f"y = {X} + z"],
    ),
    Hazard(
        "augassign_mul",
        "JAX2",
        ("JAX202",),
        "array",
        lambda V, X: [_h(f"{V}[1] *= 2.0"), f"y = {X} + {V}"],
        lambda V, X: [_h(f"z = {V}.at[1].multiply(2.0)"), f"y = {X} + z"],
    ),
    Hazard(
        "discarded_at",
        "JAX2",
        ("JAX203",),
        "array",
        lambda V, X: [_h(f"{V}.at[0].set(0.0)"), f"y = {X} * 2.0 + {V}"],
        lambda V, X: [_h(f"z = {V}.at[0].set(0.0)"), f"y = {X} * 2.0 + z"],
    ),
    Hazard(
        "discarded_at_add",
        "JAX2",
        ("JAX203",),
        "array",
        lambda V, X: [_h(f"{V}.at[1:].add(1.0)"), f"y = {X} + {V}"],
        lambda V, X: [_h(f"z = {V}.at[1:].add(1.0)"), f"y = {X} + z"],
    ),
    # ---- JAX3xx: PRNG keys
    Hazard(
        "key_reuse",
        "JAX3",
        ("JAX301",),
        "key",
        lambda V, X: [
            _h(f"a = jax.random.normal({V}, (4,))"),
            _h(f"b = jax.random.uniform({V}, (4,))"),
            "y = a + b",
        ],
        lambda V, X: [
            f"k1, k2 = jax.random.split({V})",
            _h("a = jax.random.normal(k1, (4,))"),
            _h("b = jax.random.uniform(k2, (4,))"),
            "y = a + b",
        ],
        out="draws",
    ),
    Hazard(
        "key_reuse_raw",
        "JAX3",
        ("JAX301",),
        "key",
        lambda V, X: [
            _h(f"a = jax.random.normal({V}, (4,))"),
            _h(f"b = jax.random.normal({V}, (4,))"),
            "y = a * b",
        ],
        lambda V, X: [
            f"k1, k2 = jax.random.split({V})",
            _h("a = jax.random.normal(k1, (4,))"),
            _h("b = jax.random.normal(k2, (4,))"),
            "y = a * b",
        ],
        out="draws",
        raw_key=True,
    ),
    Hazard(
        "key_reuse_branch",
        "JAX3",
        ("JAX301",),
        "key",
        lambda V, X: [
            _h(f"y = jax.random.normal({V}, (4,))"),
            "if USE_NOISE:",
            _h(f"    y = y + jax.random.uniform({V}, (4,))"),
        ],
        lambda V, X: [
            f"k1, k2 = jax.random.split({V})",
            _h("y = jax.random.normal(k1, (4,))"),
            "if USE_NOISE:",
            _h("    y = y + jax.random.uniform(k2, (4,))"),
        ],
        out="draws",
        setup=("USE_NOISE = True",),
    ),
    Hazard(
        "key_reuse_pyloop",
        "JAX3",
        ("JAX302",),
        "key",
        lambda V, X: [
            "y = jnp.zeros(4)",
            "for i in range(3):",
            _h(f"    y = y + jax.random.normal({V}, (4,))"),
        ],
        lambda V, X: [
            "y = jnp.zeros(4)",
            "for i in range(3):",
            _h(f"    y = y + jax.random.normal(jax.random.fold_in({V}, i), (4,))"),
        ],
        out="draws",
    ),
    Hazard(
        "key_reuse_pyloop_raw",
        "JAX3",
        ("JAX302",),
        "key",
        lambda V, X: [
            "y = jnp.zeros(4)",
            "for i in range(3):",
            _h(f"    y = y + jax.random.normal({V}, (4,))"),
        ],
        lambda V, X: [
            "y = jnp.zeros(4)",
            "for i in range(3):",
            _h(f"    y = y + jax.random.normal(jax.random.fold_in({V}, i), (4,))"),
        ],
        out="draws",
        raw_key=True,
    ),
    Hazard(
        "key_reuse_fori",
        "JAX3",
        ("JAX302",),
        "key",
        lambda V, X: [
            _h(f"y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal({V}, (4,)), jnp.zeros(4))")
        ],
        lambda V, X: [
            _h(
                f"y = lax.fori_loop(0, 3, lambda i, acc: acc + jax.random.normal(jax.random.fold_in({V}, i), (4,)), jnp.zeros(4))"
            )
        ],
        out="draws",
    ),
    Hazard(
        "key_reuse_scan_carry",
        "JAX3",
        ("JAX302",),
        "key",
        lambda V, X: [
            "def draw(k, _):",
            _h("    return k, jax.random.normal(k, (4,))"),
            f"_, ys = lax.scan(draw, {V}, None, length=3)",
            "y = ys.sum(axis=0)",
        ],
        lambda V, X: [
            "def draw(k, _):",
            "    k, sub = jax.random.split(k)",
            _h("    return k, jax.random.normal(sub, (4,))"),
            f"_, ys = lax.scan(draw, {V}, None, length=3)",
            "y = ys.sum(axis=0)",
        ],
        out="draws",
    ),
    Hazard(
        "constant_seed_loop",
        "JAX3",
        ("JAX303",),
        "key",
        lambda V, X: [
            "y = jnp.zeros(4)",
            "for i in range(3):",
            _h("    k = jax.random.key(0)"),
            "    y = y + jax.random.normal(k, (4,))",
        ],
        lambda V, X: [
            "y = jnp.zeros(4)",
            "for i in range(3):",
            _h("    k = jax.random.fold_in(jax.random.key(0), i)"),
            "    y = y + jax.random.normal(k, (4,))",
        ],
        out="draws",
        flows=frozenset({"arg"}),
    ),
    # ---- JAX4xx: data-dependent shapes
    Hazard(
        "mask_index",
        "JAX4",
        ("JAX401",),
        "array",
        lambda V, X: [_h(f"total = {V}[{V} > 0].sum()"), f"y = {X} * total"],
        lambda V, X: [_h(f"total = jnp.where({V} > 0, {V}, 0.0).sum()"), f"y = {X} * total"],
        expr=lambda V, X: f"{X} * {V}[{V} > 0].sum()",
        near_expr=lambda V, X: f"{X} * jnp.where({V} > 0, {V}, 0.0).sum()",
    ),
    Hazard(
        "mask_set",
        "JAX4",
        ("JAX401",),
        "array",
        lambda V, X: [_h(f"z = {V}.at[{V} < 0].set(0.0)"), f"y = {X} + z"],
        lambda V, X: [_h(f"z = jnp.where({V} < 0, 0.0, {V})"), f"y = {X} + z"],
    ),
    Hazard(
        "nonzero",
        "JAX4",
        ("JAX402",),
        "array",
        lambda V, X: [_h(f"idx = jnp.nonzero({V} > 0)[0]"), f"y = {X} + idx.sum()"],
        lambda V, X: [_h(f"idx = jnp.nonzero({V} > 0, size=4, fill_value=0)[0]"), f"y = {X} + idx.sum()"],
        expr=lambda V, X: f"{X} + jnp.nonzero({V} > 0)[0].sum()",
        near_expr=lambda V, X: f"{X} + jnp.nonzero({V} > 0, size=4, fill_value=0)[0].sum()",
    ),
    Hazard(
        "argwhere",
        "JAX4",
        ("JAX402",),
        "array",
        lambda V, X: [_h(f"idx = jnp.argwhere({V} > 0)"), f"y = {X} + idx.sum()"],
        lambda V, X: [_h(f"idx = jnp.argwhere({V} > 0, size=4, fill_value=0)"), f"y = {X} + idx.sum()"],
    ),
    Hazard(
        "unique",
        "JAX4",
        ("JAX402",),
        "array",
        lambda V, X: [_h(f"vals = jnp.unique(jnp.round({V}))"), f"y = {X} + vals.sum()"],
        lambda V, X: [
            _h(f"vals = jnp.unique(jnp.round({V}), size=4, fill_value=0.0)"),
            f"y = {X} + vals.sum()",
        ],
    ),
    Hazard(
        "where_one_arg",
        "JAX4",
        ("JAX402",),
        "array",
        lambda V, X: [_h(f"(idx,) = jnp.where({V} > 0)"), f"y = {X} + idx.sum()"],
        lambda V, X: [_h(f"(idx,) = jnp.where({V} > 0, size=4, fill_value=0)"), f"y = {X} + idx.sum()"],
    ),
    *[
        Hazard(
            f"shape_{name}",
            "JAX4",
            ("JAX403",),
            "int",
            (
                lambda h: (
                    lambda V, X: [_h(f"buf = {h.format(n=V)}"), f"y = {X} + jnp.sum(buf).astype(jnp.int32)"]
                )
            )(hz),
            (
                lambda nm: (
                    lambda V, X: [_h(f"buf = {nm.format(n=V)}"), f"y = {X} + jnp.sum(buf).astype(jnp.int32)"]
                )
            )(nz),
            out="int",
        )
        for name, hz, nz in [
            ("zeros", "jnp.zeros({n})", "jnp.where(jnp.arange(8) < {n}, 1.0, 0.0)"),
            (
                "ones_tuple",
                "jnp.ones(({n}, 2))",
                "jnp.where(jnp.arange(8)[:, None] < {n}, jnp.ones((8, 2)), 0.0)",
            ),
            ("arange", "jnp.arange({n})", "jnp.where(jnp.arange(8) < {n}, jnp.arange(8), 0)"),
            ("full", "jnp.full({n}, 2.0)", "jnp.where(jnp.arange(8) < {n}, 2.0, 0.0)"),
            ("eye", "jnp.eye({n})", "jnp.eye(8) * (jnp.arange(8) < {n})"),
            ("linspace", "jnp.linspace(0.0, 1.0, {n})", "jnp.linspace(0.0, 1.0, 8) * (jnp.arange(8) < {n})"),
            (
                "reshape",
                "jnp.arange(12.0).reshape({n}, -1)",
                "jnp.arange(12.0).reshape(3, -1) * (jnp.arange(3)[:, None] < {n})",
            ),
            ("tile", "jnp.tile(jnp.ones(2), {n})", "jnp.tile(jnp.ones(2), 4) * (jnp.arange(8) < 2 * {n})"),
            ("repeat", "jnp.repeat(jnp.ones(2), {n})", "jnp.repeat(jnp.ones(2), {n}, total_repeat_length=8)"),
            ("slice", "jnp.arange(8.0)[:{n}]", "jnp.where(jnp.arange(8) < {n}, jnp.arange(8.0), 0.0)"),
            (
                "dynamic_slice",
                "lax.dynamic_slice(jnp.arange(8.0), (0,), ({n},))",
                "lax.dynamic_slice(jnp.arange(8.0), ({n},), (2,))",
            ),
            ("broadcast_to", "jnp.broadcast_to(1.0, ({n},))", "jnp.where(jnp.arange(8) < {n}, 1.0, 0.0)"),
            (
                "random_shape",
                "jax.random.normal(jax.random.key(0), ({n},))",
                "jax.random.normal(jax.random.key(0), (8,)) * (jnp.arange(8) < {n})",
            ),
        ]
    ],
    # ---- JAX1xx: side effects and state in traced code
    Hazard(
        "print",
        "JAX1",
        ("JAX101",),
        "array",
        lambda V, X: [_h(f'print("value:", {V})'), f"y = {X} * 2.0"],
        lambda V, X: [_h(f'jax.debug.print("value: {{}}", {V})'), f"y = {X} * 2.0"],
    ),
    Hazard(
        "print_fstring",
        "JAX1",
        ("JAX101",),
        "scalar",
        lambda V, X: [_h(f"print(f'step value {{{V}}}')"), f"y = {X} + 1.0"],
        lambda V, X: [_h(f'jax.debug.print("step value {{}}", {V})'), f"y = {X} + 1.0"],
    ),
    Hazard(
        "print_const",
        "JAX1",
        ("JAX101",),
        "array",
        lambda V, X: [_h('print("tracing the step")'), f"y = {X} * 2.0"],
        lambda V, X: [_h('jax.debug.print("running the step")'), f"y = {X} * 2.0"],
    ),
    Hazard(
        "logging",
        "JAX1",
        ("JAX102",),
        "scalar",
        lambda V, X: [_h(f'logger.warning("value %s", {V})'), f"y = {X} + 1.0"],
        lambda V, X: [
            _h(f'jax.debug.callback(lambda v: logger.warning("value %s", v), {V})'),
            f"y = {X} + 1.0",
        ],
        imports=("import logging",),
        setup=("logger = logging.getLogger(__name__)",),
    ),
    Hazard(
        "file_write",
        "JAX1",
        ("JAX102",),
        "scalar",
        lambda V, X: [
            _h('with open(LOG_FILE, "a") as fh:'),
            _h(f"    fh.write(f'{{{V}}}\\n')"),
            f"y = {X} + 1.0",
        ],
        lambda V, X: [_h(f"jax.debug.callback(write_metric, {V})"), f"y = {X} + 1.0"],
        setup=(
            'LOG_FILE = "metrics.log"',
            "",
            "",
            "def write_metric(value):",
            '    with open(LOG_FILE, "a") as fh:',
            '        fh.write(f"{value}\\n")',
        ),
    ),
    Hazard(
        "global_counter",
        "JAX1",
        ("JAX104",),
        "array",
        lambda V, X: [_h("global calls"), _h("calls += 1"), f"y = {X} * 2.0"],
        lambda V, X: [_h("jax.debug.callback(count_call)"), f"y = {X} * 2.0"],
        setup=("calls = 0", "", "", "def count_call():", "    global calls", "    calls += 1"),
        global_stmt=True,
    ),
    Hazard(
        "global_append",
        "JAX1",
        ("JAX104",),
        "array",
        lambda V, X: [_h(f"history.append({V})"), f"y = {X} * 2.0"],
        lambda V, X: [_h(f"jax.debug.callback(history.append, {V})"), f"y = {X} * 2.0"],
        setup=("history = []",),
    ),
    Hazard(
        "self_write",
        "JAX1",
        ("JAX104",),
        "array",
        lambda V, X: [_h(f"self.last = {V}"), f"y = {X} * 2.0"],
        lambda V, X: [_h(f"jax.debug.callback(self.record, {V})"), f"y = {X} * 2.0"],
        contexts=frozenset({"jit_method", "jit_self_method", "method_in_jit", "callable_class"}),
    ),
    Hazard(
        "py_random",
        "JAX1",
        ("JAX105",),
        "array",
        lambda V, X: [_h("noise = random.random()"), f"y = {X} + noise"],
        lambda V, X: [_h("noise = jax.random.uniform(jax.random.key(0))"), f"y = {X} + noise"],
        imports=("import random",),
        flows=frozenset({"arg", "dict_leaf", "self_attr"}),
    ),
    Hazard(
        "np_random",
        "JAX1",
        ("JAX105",),
        "array",
        lambda V, X: [_h("noise = np.random.normal(size=4)"), f"y = {X} + noise"],
        lambda V, X: [_h("noise = jax.random.normal(jax.random.key(1), (4,))"), f"y = {X} + noise"],
        flows=frozenset({"arg", "tuple_leaf", "closure"}),
    ),
    Hazard(
        "clock",
        "JAX1",
        ("JAX105",),
        "array",
        lambda V, X: [_h("elapsed = time.perf_counter() - T0"), f"y = {X} + elapsed"],
        None,
        imports=("import time",),
        setup=("T0 = time.perf_counter()",),
        flows=frozenset({"arg", "list_leaf"}),
    ),
    Hazard(
        "next",
        "JAX1",
        ("JAX106",),
        "array",
        lambda V, X: [_h("offset = next(batches)"), f"y = {X} + offset"],
        None,
        setup=("batches = iter(range(1000))",),
        flows=frozenset({"arg", "namedtuple_leaf"}),
    ),
    Hazard(
        "stale_global",
        "JAX1",
        ("JAX103",),
        "array",
        lambda V, X: [
            _h(f"y = ({X} + 1.0) * scale"),
        ],
        lambda V, X: [_h(f"y = ({X} + 1.0) * SCALE")],
        setup=(
            "scale = 2.0",
            "SCALE = 2.0",
            "",
            "",
            "def set_scale(value):",
            "    global scale",
            "    scale = value",
        ),
        expr=lambda V, X: f"({X} + 1.0) * scale",
        near_expr=lambda V, X: f"({X} + 1.0) * SCALE",
        flows=frozenset({"arg", "dict_leaf", "closure", "self_attr"}),
    ),
    # ---- JAX6xx: NumPy on tracers, lists to jnp, float64, deprecated APIs, unrolled loops
    *[
        Hazard(
            f"np_{name}",
            "JAX6",
            ("JAX602",),
            "array",
            (lambda h: lambda V, X: [_h(f"z = {h.format(v=V)}"), f"y = {X} + z"])(hz),
            (lambda nz: lambda V, X: [_h(f"z = {nz.format(v=V)}"), f"y = {X} + z"])(
                hz.replace("np.", "jnp.")
            ),
            expr=(lambda h: lambda V, X: f"{X} + {h.format(v=V)}")(hz),
            near_expr=(lambda nz: lambda V, X: f"{X} + {nz.format(v=V)}")(hz.replace("np.", "jnp.")),
        )
        for name, hz in [
            ("exp", "np.exp({v})"),
            ("sin", "np.sin({v})"),
            ("dot", "np.dot({v}, {v})"),
            ("norm", "np.linalg.norm({v})"),
            ("sum", "np.sum({v})"),
            ("mean", "np.mean({v})"),
            ("clip", "np.clip({v}, -0.5, 0.5)"),
            ("where", "np.where({v} > 0, {v}, 0.0)"),
            ("maximum", "np.maximum({v}, 0.0)"),
            ("cumsum", "np.cumsum({v})"),
        ]
    ],
    Hazard(
        "list_sum",
        "JAX6",
        ("JAX603",),
        "scalar",
        lambda V, X: [_h(f"total = jnp.sum([{V}, {V} * 2.0])"), f"y = {X} + total"],
        lambda V, X: [_h(f"total = jnp.sum(jnp.stack([{V}, {V} * 2.0]))"), f"y = {X} + total"],
        expr=lambda V, X: f"{X} + jnp.sum([{V}, {V} * 2.0])",
        near_expr=lambda V, X: f"{X} + jnp.sum(jnp.stack([{V}, {V} * 2.0]))",
    ),
    Hazard(
        "list_mean",
        "JAX6",
        ("JAX603",),
        "scalar",
        lambda V, X: [_h(f"avg = jnp.mean([{V}, 1.0])"), f"y = {X} * avg"],
        lambda V, X: [_h(f"avg = jnp.mean(jnp.array([{V}, 1.0]))"), f"y = {X} * avg"],
    ),
    Hazard(
        "list_cumsum",
        "JAX6",
        ("JAX603",),
        "scalar",
        lambda V, X: [_h(f"acc = jnp.cumsum([{V}, {V}])"), f"y = {X} + acc[-1]"],
        lambda V, X: [_h(f"acc = jnp.cumsum(jnp.array([{V}, {V}]))"), f"y = {X} + acc[-1]"],
    ),
    Hazard(
        "float64",
        "JAX6",
        ("JAX605",),
        "array",
        lambda V, X: [_h(f"z = jnp.asarray({V}, dtype=jnp.float64)"), f"y = {X} + z"],
        lambda V, X: [_h(f"z = jnp.asarray({V}, dtype=jnp.float32)"), f"y = {X} + z"],
    ),
    Hazard(
        "float64_zeros",
        "JAX6",
        ("JAX605",),
        "array",
        lambda V, X: [_h("z = jnp.zeros(4, dtype=jnp.float64)"), f"y = {X} + z"],
        lambda V, X: [_h("z = jnp.zeros(4, dtype=jnp.float32)"), f"y = {X} + z"],
        flows=frozenset({"arg", "dict_leaf"}),
    ),
    Hazard(
        "deprecated_tree_map",
        "JAX6",
        ("JAX609",),
        "array",
        lambda V, X: [_h(f"z = jax.tree_map(lambda a: a * 2.0, {V})"), f"y = {X} + z"],
        lambda V, X: [_h(f"z = jax.tree.map(lambda a: a * 2.0, {V})"), f"y = {X} + z"],
        flows=frozenset({"arg", "dict_leaf", "global"}),
    ),
    Hazard(
        "deprecated_round",
        "JAX6",
        ("JAX609",),
        "array",
        lambda V, X: [_h(f"z = jnp.round_({V})"), f"y = {X} + z"],
        lambda V, X: [_h(f"z = jnp.round({V})"), f"y = {X} + z"],
        flows=frozenset({"arg", "list_leaf"}),
    ),
    Hazard(
        "unrolled",
        "JAX6",
        ("JAX608",),
        "array",
        lambda V, X: [f"y = {X}", _h("for _ in range(600):"), "    y = y * 0.99 + 0.01"],
        lambda V, X: [_h(f"y = lax.fori_loop(0, 600, lambda i, acc: acc * 0.99 + 0.01, {X})")],
        flows=frozenset({"arg"}),
        contexts=frozenset(
            {
                "jit_decorator",
                "jit_assign",
                "jit_method",
                "vmap",
                "jit_vmap",
                "scan_nested",
                "helper2",
                "factory_closure",
                "imported",
                "callable_class",
                "grad",
            }
        ),
    ),
    Hazard(
        "unrolled_nested",
        "JAX6",
        ("JAX608",),
        "array",
        lambda V, X: [
            f"y = {X}",
            _h("for i in range(30):"),
            _h("    for j in range(25):"),
            "        y = y * 0.99 + 0.01",
        ],
        lambda V, X: [
            f"y = {X}",
            "for i in range(3):",
            _h("    for j in range(5):"),
            "        y = y * 0.99 + 0.01",
        ],
        flows=frozenset({"arg"}),
        contexts=frozenset({"jit_decorator", "jit_rebind", "jit_self_method", "fori_nested", "helper1"}),
    ),
]


# ---- appended last: the universe draws its random choices in the order of HAZARDS, so new
# forms go at the end and the programs of the forms above stay the same
HAZARDS += [
    # containers built in traced code: their truthiness and length are static (near misses), an
    # element's value is not
    Hazard(
        "container_truth",
        "JAX5",
        ("JAX501",),
        "array",
        lambda V, X: [
            f"pieces = [{V}, {V} * 2.0]",
            _h("if pieces[0].sum() > 0:"),
            f"    y = {X} * 2.0",
            "else:",
            f"    y = {X}",
        ],
        lambda V, X: [
            f"pieces = [{V}, {V} * 2.0]",
            _h("if pieces:"),
            f"    y = {X} * 2.0",
            "else:",
            f"    y = {X}",
        ],
    ),
    Hazard(
        "tree_leaves_truth",
        "JAX5",
        ("JAX501",),
        "array",
        lambda V, X: [
            f"leaves = jax.tree.leaves({{'value': {V}}})",
            _h("if leaves[0].sum() > 0:"),
            f"    y = {X} * 2.0",
            "else:",
            f"    y = {X}",
        ],
        lambda V, X: [
            f"leaves = jax.tree.leaves({{'value': {V}}})",
            _h("if leaves:"),
            f"    y = {X} * 2.0",
            "else:",
            f"    y = {X}",
        ],
    ),
    # a set finds a key by its hash, and a tracer has none
    Hazard(
        "set_member",
        "JAX5",
        ("JAX503",),
        "int",
        lambda V, X: [_h(f"w = 5 if {V} in {{3, 7}} else 1"), f"y = {X} * w"],
        lambda V, X: [_h(f"w = jnp.where(jnp.isin({V}, jnp.array([3, 7])), 5, 1)"), f"y = {X} * w"],
        expr=lambda V, X: f"{X} * (5 if {V} in {{3, 7}} else 1)",
        near_expr=lambda V, X: f"{X} * jnp.where(jnp.isin({V}, jnp.array([3, 7])), 5, 1)",
    ),
    # a Python list repeated a traced number of times
    Hazard(
        "list_repeat",
        "JAX5",
        ("JAX503",),
        "int",
        lambda V, X: [_h(f"pad = [1] * {V}"), f"y = {X} * len(pad)"],
        lambda V, X: [_h(f"pad = jnp.where(jnp.arange(8) < {V}, 1, 0)"), f"y = {X} * pad.sum()"],
        expr=lambda V, X: f"{X} * len([1] * {V})",
        near_expr=lambda V, X: f"{X} * jnp.where(jnp.arange(8) < {V}, 1, 0).sum()",
    ),
    # `del x[i]`: a JAX array has no `__delitem__`
    Hazard(
        "del_item",
        "JAX2",
        ("JAX201",),
        "array",
        lambda V, X: [f"z = {V} * 1.0", _h("del z[0]"), f"y = {X} + z.sum()"],
        lambda V, X: [f"z = {V} * 1.0", _h("z = jnp.delete(z, 0)"), f"y = {X} + z.sum()"],
    ),
    # Python functions of one value that serialise it need a concrete one (measured table
    # `python_on_traced_values`): `pickle.dumps` asks a tracer for its value
    Hazard(
        "pickle_dumps",
        "JAX5",
        ("JAX503",),
        "scalar",
        lambda V, X: [_h(f"blob = pickle.dumps({V})"), f"y = {X} * (len(blob) > 0)"],
        lambda V, X: [_h("blob = pickle.dumps(1.5)"), f"y = {X} * (len(blob) > 0)"],
        imports=("import pickle",),
    ),
    # an enum looks a value up by comparing it with each member's
    Hazard(
        "enum_lookup",
        "JAX5",
        ("JAX503",),
        "int",
        lambda V, X: [_h(f"mode = Mode({V})"), f"y = {X} * (2 if mode is Mode.FAST else 1)"],
        lambda V, X: [_h(f"factor = MODE_FACTORS[{V}]"), f"y = {X} * factor"],
        imports=("import enum",),
        setup=(
            "class Mode(enum.IntEnum):",
            *(
                f"    {name} = {value}"
                for value, name in enumerate(["SLOW", "FAST", *(f"M{i}" for i in range(2, 64))])
            ),
            "MODE_FACTORS = jnp.array([1] + [2] + [1] * 62)",
        ),
    ),
    # copies of one key are one key: drawing from two of them draws alike
    Hazard(
        "key_copies",
        "JAX3",
        ("JAX301",),
        "key",
        lambda V, X: [
            f"keys = [{V}] * 2",
            "a = jax.random.normal(keys[0], (4,))",
            _h("b = jax.random.normal(keys[1], (4,))"),
            "y = a + b",
        ],
        lambda V, X: [
            f"keys = list(jax.random.split({V}, 2))",
            "a = jax.random.normal(keys[0], (4,))",
            _h("b = jax.random.normal(keys[1], (4,))"),
            "y = a + b",
        ],
        out="draws",
    ),
]

# ---------------------------------------------------------------------------------------------
# tracing contexts


@dataclass
class Parts:
    """What a context contributes to a module."""

    imports: set[str] = field(default_factory=set)
    setup: list[str] = field(default_factory=list)
    defs: list[str] = field(default_factory=list)
    main: list[str] = field(default_factory=list)  # body of main(); params are main_params
    main_params: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    helper_module: list[str] | None = None  # for `imported`: the module that holds the hazard
    requires: tuple[str, ...] = ()


@dataclass
class Fn:
    """The hazard function before a context places it."""

    params: list[str]
    static: tuple[str, ...]
    lines: list[str]  # prologue + hazard; the result is in `y`
    X: str
    out: str
    expr: str | None  # the whole result as one expression over params, when the form has one
    kind: str
    raw: bool
    flow: Flow
    setup: list[str]
    imports: set[str]
    global_stmt: bool

    def args(self, shape: str) -> list[str]:
        return self.flow.args(self.kind, self.raw, shape)

    def zero(self) -> str:
        return {"X": f"jnp.zeros_like({self.X})", "draws": "jnp.zeros(4)", "int": "jnp.int32(0)"}[self.out]

    def self_init(self) -> list[str]:
        return self.flow.self_init(self.kind, self.raw)


def indent(lines: Iterable[str], n: int = 1) -> list[str]:
    pad = "    " * n
    return [pad + line if line.strip() else line for line in lines]


def define(
    name: str, params: list[str], body: list[str], decorators: Iterable[str] = (), ret: str = "y"
) -> list[str]:
    out = list(decorators)
    out.append(f"def {name}({', '.join(params)}):")
    out.extend(indent(body))
    if ret:
        out.append(f"    return {ret}")
    return out


def _fn_body(fn: Fn) -> list[str]:
    """The function body; the closure flow puts the hazard in a nested function."""
    if fn.flow.name == "closure":
        inner = ["def inner():", *indent(fn.lines), "    return y", "", "y = inner()"]
        if fn.global_stmt:
            return fn.lines
        return inner
    return fn.lines


def _class(
    fn: Fn, method: str, params: list[str], body: list[str], ret: str = "y", extra: Iterable[str] = ()
) -> list[str]:
    return [
        "class Model:",
        "    def __init__(self):",
        *indent(fn.self_init() or ["self.scale = 2.0"], 2),
        "        self.last = None",
        *indent(extra, 1),
        "",
        "    def record(self, value):",
        "        self.last = value",
        "",
        *indent(define(method, ["self", *params], body, ret=ret)),
    ]


def _statics(fn: Fn) -> str:
    return ", ".join(f'"{s}"' for s in fn.static)


def _jit_kw(fn: Fn) -> str:
    if not fn.static:
        return ""
    return f", static_argnames=({_statics(fn)},)"


def _p(fn: Fn) -> str:
    return ", ".join(fn.params)


Context = Callable[[Fn], Parts | None]


def ctx_jit_decorator(fn: Fn) -> Parts:
    deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
    return Parts(
        defs=define("step", fn.params, _fn_body(fn), [deco]),
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_assign(fn: Fn) -> Parts:
    return Parts(
        defs=[
            *define("loss_step", fn.params, _fn_body(fn)),
            "",
            "",
            f"step = jax.jit(loss_step{_jit_kw(fn)})",
        ],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_rebind(fn: Fn) -> Parts:
    return Parts(
        defs=[*define("step", fn.params, _fn_body(fn)), "", "", f"step = jax.jit(step{_jit_kw(fn)})"],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_partial(fn: Fn) -> Parts:
    statics = ("training", *fn.static)
    params = [*fn.params, "training"]
    deco = f"@partial(jax.jit, static_argnames=({', '.join(repr(s) for s in statics)},))"
    body = [*_fn_body(fn), "if training:", "    y = y * 1"]
    return Parts(
        defs=define("step", params, body, [deco]),
        main=[f"return step({_p(fn)}, training=True)"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_lambda(fn: Fn) -> Parts | None:
    if fn.expr is None or fn.static:
        return None
    return Parts(
        defs=[f"step = jax.jit(lambda {_p(fn)}: {fn.expr})"],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_lambda_assigned(fn: Fn) -> Parts | None:
    if fn.expr is None or fn.static:
        return None
    return Parts(
        defs=[f"scaled = lambda {_p(fn)}: {fn.expr}", "step = jax.jit(scaled)"],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_method(fn: Fn) -> Parts:
    return Parts(
        defs=[
            *_class(fn, "apply", fn.params, _fn_body(fn)),
            "",
            "",
            "model = Model()",
            f"step = jax.jit(model.apply{_jit_kw(fn)})",
        ],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_self_method(fn: Fn) -> Parts:
    cls = _class(
        fn, "apply", fn.params, _fn_body(fn), extra=[f"    self.step = jax.jit(self.apply{_jit_kw(fn)})"]
    )
    return Parts(
        defs=[*cls, "", "", "model = Model()"],
        main=[f"return model.step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_method_in_jit(fn: Fn) -> Parts:
    deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
    return Parts(
        defs=[
            *_class(fn, "apply", fn.params, _fn_body(fn)),
            "",
            "",
            "model = Model()",
            "",
            "",
            *define("step", fn.params, [], [deco], ret=f"model.apply({_p(fn)})"),
        ],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_callable_class(fn: Fn) -> Parts:
    deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
    return Parts(
        defs=[
            *_class(fn, "__call__", fn.params, _fn_body(fn)),
            "",
            "",
            "layer = Model()",
            "",
            "",
            *define("step", fn.params, [], [deco], ret=f"layer({_p(fn)})"),
        ],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_constructor_in_jit(fn: Fn) -> Parts | None:
    if fn.flow.name == "self_attr" and fn.kind == "key":
        return None
    init = [*(fn.self_init()), *_fn_body(fn), "self.out = y"]
    cls = ["class Normalizer:", *indent(define("__init__", ["self", *fn.params], init, ret=""))]
    deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
    return Parts(
        defs=[*cls, "", "", *define("step", fn.params, [], [deco], ret=f"Normalizer({_p(fn)}).out")],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def _helpers(depth: int) -> Context:
    def ctx(fn: Fn) -> Parts:
        defs = define("helper_0", fn.params, _fn_body(fn))
        for level in range(1, depth):
            defs += ["", "", *define(f"helper_{level}", fn.params, [], ret=f"helper_{level - 1}({_p(fn)})")]
        deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
        defs += ["", "", *define("step", fn.params, [], [deco], ret=f"helper_{depth - 1}({_p(fn)})")]
        return Parts(defs=defs, main=[f"return step({_p(fn)})"], main_params=fn.params, args=fn.args(""))

    return ctx


def ctx_factory_closure(fn: Fn) -> Parts:
    inner = define("step", fn.params, _fn_body(fn), ret="y * factor")
    defs = define("make_step", ["factor"], inner, ret="step")
    return Parts(
        defs=[*defs, "", "", f"step = jax.jit(make_step(2.0){_jit_kw(fn)})"],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_imported(fn: Fn) -> Parts:
    deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
    return Parts(
        helper_module=define("compute", fn.params, _fn_body(fn)),
        defs=define("step", fn.params, [], [deco], ret=f"compute({_p(fn)})"),
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_vmap(fn: Fn) -> Parts | None:
    if fn.static:
        return None
    return Parts(
        defs=define("per_example", fn.params, _fn_body(fn)),
        main=[f"return jax.vmap(per_example)({_p(fn)})"],
        main_params=fn.params,
        args=fn.args("B"),
    )


def ctx_vmap_none(fn: Fn) -> Parts | None:
    """The value is not mapped (``in_axes=None``): vmap passes it through as it is."""
    axes = ", ".join(["None"] * len(fn.params) + ["0"])
    return Parts(
        defs=define("per_example", [*fn.params, "offset"], _fn_body(fn), ret="y, offset"),
        main=[f"return jax.vmap(per_example, in_axes=({axes}))({_p(fn)}, offsets)"],
        main_params=[*fn.params, "offsets"],
        args=[*fn.args(""), "jnp.arange(3.0) + seed"],
    )


def ctx_jit_vmap(fn: Fn) -> Parts | None:
    if fn.static:
        return None
    return Parts(
        defs=[
            *define("per_example", fn.params, _fn_body(fn)),
            "",
            "",
            "batched = jax.jit(jax.vmap(per_example))",
        ],
        main=[f"return batched({_p(fn)})"],
        main_params=fn.params,
        args=fn.args("B"),
    )


def _differentiable(fn: Fn) -> bool:
    return fn.kind in ("scalar", "array") and fn.out == "X" and not fn.static and fn.flow.name != "shape"


def _loss_under(fn: Fn, transform: str) -> Parts | None:
    """``{transform}(loss)(...)`` called on the spot, ``loss`` summing the hazard's result."""
    if not _differentiable(fn):
        return None
    return Parts(
        defs=define("loss", fn.params, _fn_body(fn), ret="jnp.sum(y)"),
        main=[f"return {transform}(loss)({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def _jitted_loss_under(fn: Fn, transformed: str) -> Parts | None:
    """``grad_step = jax.jit(<transformed loss>)`` at module level, called by ``main``."""
    if not _differentiable(fn):
        return None
    return Parts(
        defs=[
            *define("loss", fn.params, _fn_body(fn), ret="jnp.sum(y)"),
            "",
            "",
            f"grad_step = jax.jit({transformed})",
        ],
        main=[f"return grad_step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_grad(fn: Fn) -> Parts | None:
    return _loss_under(fn, "jax.grad")


def ctx_value_and_grad(fn: Fn) -> Parts | None:
    return _loss_under(fn, "jax.value_and_grad")


def ctx_jit_grad(fn: Fn) -> Parts | None:
    return _jitted_loss_under(fn, "jax.grad(loss)")


def _single(fn: Fn) -> bool:
    return len(fn.params) == 1 and not fn.static


def ctx_scan_nested(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    body = define("body", [p, "_"], _fn_body(fn), ret=f"{p}, y")
    run = define("run", [p], [*body, f"_, ys = lax.scan(body, {p}, None, length=3)"], ["@jax.jit"], ret="ys")
    return Parts(defs=run, main=[f"return run({p})"], main_params=[p], args=fn.args(""))


def ctx_scan_module(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    defs = [
        *define("body", [p, "_"], _fn_body(fn), ret=f"{p}, y"),
        "",
        "",
        *define("run", [p], [f"_, ys = lax.scan(body, {p}, None, length=3)"], ret="ys"),
    ]
    return Parts(defs=defs, main=[f"return run({p})"], main_params=[p], args=fn.args(""))


def ctx_scan_lambda(fn: Fn) -> Parts | None:
    if not _single(fn) or fn.expr is None:
        return None
    p = fn.params[0]
    line = f"return lax.scan(lambda {p}, _: ({p}, {fn.expr}), {p}, None, length=3)[1]"
    return Parts(
        defs=define("run", [p], [line], ["@jax.jit"], ret=""),
        main=[f"return run({p})"],
        main_params=[p],
        args=fn.args(""),
    )


def ctx_fori_nested(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    body = define(
        "body", ["it", "state"], [f"{p}, total = state", *_fn_body(fn)], ret=f"{p}, total + jnp.sum(y)"
    )
    run = define(
        "run",
        [p],
        [*body, f"_, total = lax.fori_loop(0, 3, body, ({p}, jnp.float32(0.0)))"],
        ["@jax.jit"],
        ret="total",
    )
    return Parts(defs=run, main=[f"return run({p})"], main_params=[p], args=fn.args(""))


def ctx_fori_module(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    defs = [
        *define(
            "body", ["it", "state"], [f"{p}, total = state", *_fn_body(fn)], ret=f"{p}, total + jnp.sum(y)"
        ),
        "",
        "",
        *define("run", [p], [f"_, total = lax.fori_loop(0, 3, body, ({p}, jnp.float32(0.0)))"], ret="total"),
    ]
    return Parts(defs=defs, main=[f"return run({p})"], main_params=[p], args=fn.args(""))


def ctx_fori_lambda(fn: Fn) -> Parts | None:
    if not _single(fn) or fn.expr is None:
        return None
    p = fn.params[0]
    line = f"return lax.fori_loop(0, 3, lambda it, total: total + jnp.sum({fn.expr}), jnp.float32(0.0))"
    return Parts(
        defs=define("run", [p], [line], ["@jax.jit"], ret=""),
        main=[f"return run({p})"],
        main_params=[p],
        args=fn.args(""),
    )


def ctx_while_body(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    body = define(
        "body",
        ["state"],
        [f"count, {p}, total = state", *_fn_body(fn)],
        ret=f"count + 1, {p}, total + jnp.sum(y)",
    )
    run = define(
        "run",
        [p],
        [*body, f"_, _, total = lax.while_loop(lambda s: s[0] < 3, body, (0, {p}, jnp.float32(0.0)))"],
        ["@jax.jit"],
        ret="total",
    )
    return Parts(defs=run, main=[f"return run({p})"], main_params=[p], args=fn.args(""))


def ctx_while_cond(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    cond = define(
        "keep_going",
        ["state"],
        [f"count, {p}, total = state", *_fn_body(fn)],
        ret="(count < 3) & jnp.all(jnp.isfinite(y))",
    )
    defs = [
        *cond,
        "",
        "",
        *define(
            "run",
            [p],
            [
                f"_, _, total = lax.while_loop(keep_going, lambda s: (s[0] + 1, s[1], s[2] + 1.0), (0, {p}, jnp.float32(0.0)))"
            ],
            ["@jax.jit"],
            ret="total",
        ),
    ]
    return Parts(defs=defs, main=[f"return run({p})"], main_params=[p], args=fn.args(""))


def ctx_cond_branch(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    defs = [*define("scaled", [p], _fn_body(fn)), "", "", *define("skipped", [p], [], ret=fn.zero())]
    return Parts(
        defs=defs,
        main=[f"return lax.cond(training, scaled, skipped, {p})"],
        main_params=[p, "training"],
        args=[*fn.args(""), "jnp.bool_(True)"],
    )


def ctx_switch_branch(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    defs = [*define("skipped", [p], [], ret=fn.zero()), "", "", *define("scaled", [p], _fn_body(fn))]
    return Parts(
        defs=defs,
        main=[f"return lax.switch(branch, [skipped, scaled], {p})"],
        main_params=[p, "branch"],
        args=[*fn.args(""), "jnp.int32(1)"],
    )


def ctx_lax_map(fn: Fn) -> Parts | None:
    if not _single(fn):
        return None
    p = fn.params[0]
    return Parts(
        defs=define("per_row", [p], _fn_body(fn)),
        main=[f"return lax.map(per_row, {p})"],
        main_params=[p],
        args=fn.args("B"),
    )


def ctx_checkpoint(fn: Fn) -> Parts | None:
    if fn.static:
        return None
    return Parts(
        defs=define("block", fn.params, _fn_body(fn), ["@jax.checkpoint"]),
        main=[f"return block({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_custom_jvp(fn: Fn) -> Parts | None:
    if not _differentiable(fn) or not _single(fn):
        return None
    p = fn.params[0]
    defs = [
        *define("smooth", [p], _fn_body(fn), ["@jax.custom_jvp"]),
        "",
        "",
        "@smooth.defjvp",
        *define(
            "smooth_jvp",
            ["primals", "tangents"],
            ["(value,) = primals", "(dot,) = tangents"],
            ret="smooth(value), jax.tree.map(jnp.zeros_like, smooth(value))",
        ),
    ]
    return Parts(defs=defs, main=[f"return jax.jit(smooth)({p})"], main_params=[p], args=fn.args(""))


def ctx_custom_vjp(fn: Fn) -> Parts | None:
    if not _differentiable(fn) or not _single(fn):
        return None
    p = fn.params[0]
    defs = [
        *define("clipped", [p], _fn_body(fn), ["@jax.custom_vjp"]),
        "",
        "",
        *define("clipped_fwd", [p], [], ret=f"clipped({p}), None"),
        "",
        "",
        *define("clipped_bwd", ["res", "g"], [], ret="(g,)"),
        "",
        "",
        "clipped.defvjp(clipped_fwd, clipped_bwd)",
    ]
    return Parts(defs=defs, main=[f"return jax.jit(clipped)({p})"], main_params=[p], args=fn.args(""))


def ctx_pmap(fn: Fn) -> Parts | None:
    if fn.static:
        return None
    return Parts(
        defs=define("per_device", fn.params, _fn_body(fn)),
        main=[f"return jax.pmap(per_device)({_p(fn)})"],
        main_params=fn.params,
        args=fn.args("D"),
    )


def ctx_shard_map(fn: Fn) -> Parts | None:
    if fn.static or fn.kind not in ("scalar", "array") or fn.out != "X":
        return None
    defs = [
        'mesh = jax.make_mesh((2,), ("i",))',
        "",
        "",
        *define(
            "per_shard",
            fn.params,
            _fn_body(fn),
            ['@partial(jax.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P("i"))'],
        ),
    ]
    placed = [f'{p} = jax.device_put({p}, jax.NamedSharding(mesh, P("i")))' for p in fn.params]
    return Parts(
        imports={"from jax.sharding import PartitionSpec as P"},
        defs=defs,
        main=[*placed, f"return jax.jit(per_shard)({_p(fn)})"],
        main_params=fn.params,
        args=fn.args("D"),
    )


def ctx_eqx_filter_jit(fn: Fn) -> Parts | None:
    if fn.static:
        return None
    return Parts(
        imports={"import equinox as eqx"},
        defs=define("step", fn.params, _fn_body(fn), ["@eqx.filter_jit"]),
        main=[*_made_by_driver(fn, ""), f"return step({_p(fn)})"],
        main_params=["seed"],
        args=["seed"],
        requires=("equinox",),
    )


def _made_by_driver(fn: Fn, shape: str) -> list[str]:
    """The driver making the function's inputs itself. Equinox's transformations trace only the
    arrays they are given and hold Python values static, so whether a parameter is a tracer is
    decided by what the caller passes: the program must show it, as a training script does."""
    return [f"{p} = {arg}" for p, arg in zip(fn.params, fn.args(shape), strict=True)]


def ctx_nnx_jit(fn: Fn) -> Parts | None:
    if fn.static:
        return None
    return Parts(
        imports={"from flax import nnx"},
        defs=define("step", fn.params, _fn_body(fn), ["@nnx.jit"]),
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
        requires=("flax",),
    )


def ctx_linen_apply(fn: Fn) -> Parts | None:
    if fn.static or not _single(fn) or fn.flow.needs_self:
        return None
    p = fn.params[0]
    cls = [
        "class Block(nn.Module):",
        "    @nn.compact",
        *indent(define("__call__", ["self", p], _fn_body(fn))),
    ]
    return Parts(
        imports={"import flax.linen as nn"},
        defs=[
            *cls,
            "",
            "",
            "block = Block()",
            "",
            "",
            *define("step", ["variables", p], [], ["@jax.jit"], ret=f"block.apply(variables, {p})"),
        ],
        main=[f"return step({{}}, {p})"],
        main_params=[p],
        args=fn.args(""),
        requires=("flax",),
    )


# Contexts added after the universe's first draw: they draw their flows with a generator of their
# own (``universe``), so the programs of the contexts above, and their stored verdicts, stay.


def ctx_jit_user_decorator(fn: Fn) -> Parts:
    """A project's own decorator that returns ``jax.jit(fn)``."""
    return Parts(
        defs=[
            *define("compiled", ["fn"], [], ret=f"jax.jit(fn{_jit_kw(fn)})"),
            "",
            "",
            *define("step", fn.params, _fn_body(fn), ["@compiled"]),
        ],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_jit_staticmethod(fn: Fn) -> Parts:
    deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
    method = define("step", fn.params, _fn_body(fn), ["@staticmethod", deco])
    return Parts(
        defs=["class Trainer:", *indent(method)],
        main=[f"return Trainer.step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_nested_jit(fn: Fn) -> Parts:
    """A jitted function called from another jitted function."""
    deco = "@jax.jit" if not fn.static else f"@partial(jax.jit, static_argnames=({_statics(fn)},))"
    return Parts(
        defs=[
            *define("inner_step", fn.params, _fn_body(fn)),
            "",
            "",
            f"fast_inner = jax.jit(inner_step{_jit_kw(fn)})",
            "",
            "",
            *define("step", fn.params, [], [deco], ret=f"fast_inner({_p(fn)})"),
        ],
        main=[f"return step({_p(fn)})"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_tree_map_in_jit(fn: Fn) -> Parts | None:
    """``jax.tree_util.tree_map(f, params)`` inside ``jit``: ``f`` gets every traced leaf."""
    if not _single(fn) or fn.flow.name not in LEAF_FLOWS:
        return None
    p = fn.params[0]
    return Parts(
        defs=[
            *define("per_leaf", [p], _fn_body(fn)),
            "",
            "",
            *define("step", ["tree"], [], ["@jax.jit"], ret='jax.tree_util.tree_map(per_leaf, tree)["w"]'),
        ],
        main=[f'return step({{"w": {p}}})'],
        main_params=[p],
        args=fn.args(""),
    )


def ctx_vmap_lambda(fn: Fn) -> Parts | None:
    if fn.expr is None or fn.static:
        return None
    return Parts(
        defs=define("run", fn.params, [], ret=f"jax.vmap(lambda {_p(fn)}: {fn.expr})({_p(fn)})"),
        main=[f"return run({_p(fn)})"],
        main_params=fn.params,
        args=fn.args("B"),
    )


def ctx_scan_partial(fn: Fn) -> Parts | None:
    """A scan body given its first argument by ``functools.partial``."""
    if not _single(fn):
        return None
    p = fn.params[0]
    defs = [
        *define("body", ["scale", p, "_"], _fn_body(fn), ret=f"{p}, y * scale"),
        "",
        "",
        *define(
            "run", [p], [f"_, ys = lax.scan(partial(body, 2.0), {p}, None, length=3)"], ["@jax.jit"], ret="ys"
        ),
    ]
    return Parts(defs=defs, main=[f"return run({p})"], main_params=[p], args=fn.args(""))


def ctx_jvp(fn: Fn) -> Parts | None:
    if not _differentiable(fn) or not _single(fn):
        return None
    p = fn.params[0]
    return Parts(
        defs=define("f", [p], _fn_body(fn)),
        main=[
            f"primals = ({p},)",
            "tangents = jax.tree.map(jnp.ones_like, primals)",
            "return jax.jvp(f, primals, tangents)[0]",
        ],
        main_params=[p],
        args=fn.args(""),
    )


def ctx_vjp(fn: Fn) -> Parts | None:
    if not _differentiable(fn):
        return None
    return Parts(
        defs=define("f", fn.params, _fn_body(fn)),
        main=[f"y, pullback = jax.vjp(f, {_p(fn)})", "return y"],
        main_params=fn.params,
        args=fn.args(""),
    )


def ctx_linearize(fn: Fn) -> Parts | None:
    if not _differentiable(fn) or not _single(fn):
        return None
    p = fn.params[0]
    return Parts(
        defs=define("f", [p], _fn_body(fn)),
        main=[f"y, f_jvp = jax.linearize(f, {p})", "return y"],
        main_params=[p],
        args=fn.args(""),
    )


def ctx_jacrev(fn: Fn) -> Parts | None:
    return _loss_under(fn, "jax.jacrev")


def ctx_hessian(fn: Fn) -> Parts | None:
    if not _differentiable(fn) or not _single(fn):
        return None
    p = fn.params[0]
    return Parts(
        defs=define("loss", [p], _fn_body(fn), ret="jnp.sum(y)"),
        main=[f"return jax.hessian(loss)({p})"],
        main_params=[p],
        args=fn.args(""),
    )


def ctx_grad_checkpoint(fn: Fn) -> Parts | None:
    return _jitted_loss_under(fn, "jax.grad(jax.checkpoint(loss))")


def ctx_eqx_filter_vmap(fn: Fn) -> Parts | None:
    if fn.static:
        return None
    return Parts(
        imports={"import equinox as eqx"},
        defs=define("per_example", fn.params, _fn_body(fn)),
        main=[*_made_by_driver(fn, "B"), f"return eqx.filter_vmap(per_example)({_p(fn)})"],
        main_params=["seed"],
        args=["seed"],
        requires=("equinox",),
    )


def ctx_eqx_filter_grad(fn: Fn) -> Parts | None:
    parts = _loss_under(fn, "eqx.filter_grad")
    if parts is not None:
        parts.imports, parts.requires = {"import equinox as eqx"}, ("equinox",)
    return parts


def ctx_pure_callback(fn: Fn) -> Parts | None:
    """A host function run by ``jax.pure_callback`` inside ``jit``: it gets NumPy arrays, not
    tracers, and runs on every call (a context where every form should be clean)."""
    if fn.static or fn.out != "X" or fn.kind not in ("scalar", "array") or not _single(fn):
        return None
    p = fn.params[0]
    call = (
        f"jax.pure_callback(on_host, jax.ShapeDtypeStruct(jnp.shape({fn.X}), jnp.result_type({fn.X})), {p})"
    )
    return Parts(
        defs=[
            *define("on_host", [p], _fn_body(fn)),
            "",
            "",
            *define("step", [p], [], ["@jax.jit"], ret=call),
        ],
        main=[f"return step({p})"],
        main_params=[p],
        args=fn.args(""),
    )


# Flows whose parameter is one array (not a container, a record or a key).
LEAF_FLOWS = frozenset({"arg", "arith", "closure", "global", "jnp_const", "shape"})

MORE_CONTEXTS: dict[str, Context] = {
    "jit_user_decorator": ctx_jit_user_decorator,
    "jit_staticmethod": ctx_jit_staticmethod,
    "nested_jit": ctx_nested_jit,
    "tree_map_in_jit": ctx_tree_map_in_jit,
    "vmap_lambda": ctx_vmap_lambda,
    "scan_partial": ctx_scan_partial,
    "jvp": ctx_jvp,
    "vjp": ctx_vjp,
    "linearize": ctx_linearize,
    "jacrev": ctx_jacrev,
    "hessian": ctx_hessian,
    "grad_checkpoint": ctx_grad_checkpoint,
    "eqx_filter_vmap": ctx_eqx_filter_vmap,
    "eqx_filter_grad": ctx_eqx_filter_grad,
    "pure_callback": ctx_pure_callback,
}


CONTEXTS: dict[str, Context] = {
    "jit_decorator": ctx_jit_decorator,
    "jit_assign": ctx_jit_assign,
    "jit_rebind": ctx_jit_rebind,
    "jit_partial_static": ctx_jit_partial,
    "jit_lambda": ctx_jit_lambda,
    "jit_lambda_assigned": ctx_jit_lambda_assigned,
    "jit_method": ctx_jit_method,
    "jit_self_method": ctx_jit_self_method,
    "method_in_jit": ctx_method_in_jit,
    "callable_class": ctx_callable_class,
    "constructor_in_jit": ctx_constructor_in_jit,
    "helper1": _helpers(1),
    "helper2": _helpers(2),
    "helper3": _helpers(3),
    "factory_closure": ctx_factory_closure,
    "imported": ctx_imported,
    "vmap": ctx_vmap,
    "vmap_in_axes_none": ctx_vmap_none,
    "jit_vmap": ctx_jit_vmap,
    "grad": ctx_grad,
    "value_and_grad": ctx_value_and_grad,
    "jit_grad": ctx_jit_grad,
    "scan_nested": ctx_scan_nested,
    "scan_module": ctx_scan_module,
    "scan_lambda": ctx_scan_lambda,
    "fori_nested": ctx_fori_nested,
    "fori_module": ctx_fori_module,
    "fori_lambda": ctx_fori_lambda,
    "while_body": ctx_while_body,
    "while_cond": ctx_while_cond,
    "cond_branch": ctx_cond_branch,
    "switch_branch": ctx_switch_branch,
    "lax_map": ctx_lax_map,
    "checkpoint": ctx_checkpoint,
    "custom_jvp": ctx_custom_jvp,
    "custom_vjp": ctx_custom_vjp,
    "pmap": ctx_pmap,
    "shard_map": ctx_shard_map,
    "eqx_filter_jit": ctx_eqx_filter_jit,
    "nnx_jit": ctx_nnx_jit,
    "linen_apply": ctx_linen_apply,
}
METHOD_CONTEXTS = frozenset(
    {"jit_method", "jit_self_method", "method_in_jit", "callable_class", "constructor_in_jit"}
)
LAX_LOOPS = frozenset(
    {
        "scan_nested",
        "scan_module",
        "scan_lambda",
        "fori_nested",
        "fori_module",
        "fori_lambda",
        "while_body",
        "while_cond",
    }
)


# ---------------------------------------------------------------------------------------------
# assembly

BASE_IMPORTS = [
    "import dataclasses",
    "from functools import partial",
    "from typing import NamedTuple",
    "",
    "import jax",
    "import jax.numpy as jnp",
    "import numpy as np",
    "from jax import lax",
]


def _imports(extra: Iterable[str]) -> list[str]:
    stdlib = sorted(i for i in extra if i.split()[1].split(".")[0] in ("logging", "random", "time", "timeit"))
    third = sorted(i for i in extra if i not in stdlib)
    lines = list(stdlib) + BASE_IMPORTS
    if third:
        lines += third
    return lines


def _finish(header: dict[str, object], lines: list[str], path: str) -> tuple[str, tuple[int, ...]]:
    hazard_lines = tuple(i + 2 for i, line in enumerate(lines) if line.endswith(MARK))
    clean = [line[: -len(MARK)] if line.endswith(MARK) else line for line in lines]
    header = {**header, "lines": list(hazard_lines), "path": path}
    return HEADER + json.dumps(header, sort_keys=True) + "\n" + "\n".join(clean).rstrip() + "\n", hazard_lines


def _module(
    imports: Iterable[str],
    setup: list[str],
    defs: list[str],
    main_params: list[str] | None,
    main: list[str] | None,
    args: list[str] | None,
) -> list[str]:
    lines = _imports(imports)
    for block in (setup, defs):
        if block:
            lines += ["", "", *block]
    if main is not None and main_params is not None and args is not None:
        lines += ["", "", *define("main", main_params, main, ret="")]
        lines += ["", "", "def inputs(seed):", f"    return ({', '.join(args)},)"]
    return lines


def make_fn(h: Hazard, flow: Flow, near: bool) -> Fn | None:
    raw = h.raw_key
    V, X = flow.V(h.kind), flow.X(h.kind)
    form = h.near if near else h.body
    if form is None:
        return None
    lines = [*flow.prologue(h.kind), *form(V, X)]
    expr = None
    expr_form = h.near_expr if near else h.expr
    if expr_form is not None and not flow.prologue(h.kind) and flow.name != "closure":
        expr = expr_form(V, X) + MARK
    setup = [*flow.setup(h.kind, raw)]
    if h.setup:
        setup = [*setup, *([""] if setup else []), *h.setup]
    return Fn(
        params=flow.params(h.kind),
        static=flow.static,
        lines=lines,
        X=X,
        out=h.out,
        expr=expr,
        kind=h.kind,
        raw=raw,
        flow=flow,
        setup=setup,
        imports=set(h.imports),
        global_stmt=h.global_stmt,
    )


def compatible(h: Hazard, flow: Flow, context: str) -> bool:
    if h.kind not in flow.kinds:
        return False
    if h.flows is not None and flow.name not in h.flows:
        return False
    if flow.name == "shape" and (h.family == "JAX2" or h.name == "mask_set"):
        return False  # the value is a NumPy array there: `.at` does not exist
    if h.contexts is not None and context not in h.contexts:
        return False
    if flow.needs_self != False and context not in METHOD_CONTEXTS:  # noqa: E712
        return False
    if h.name == "self_write" and context not in METHOD_CONTEXTS:
        return False
    if h.global_stmt and flow.name == "closure":
        return False
    return not (
        flow.name == "static" and context in LAX_LOOPS | {"vmap", "jit_vmap", "lax_map", "pmap", "shard_map"}
    )


def _lambda_marked(parts: Parts) -> None:
    """A lambda context holds the hazard inside one line: mark it."""
    for i, line in enumerate(parts.defs):
        if MARK in line and not line.endswith(MARK):
            parts.defs[i] = line.replace(MARK, "") + MARK


def build(h: Hazard, flow: Flow, context: str, near: bool) -> Program | None:
    if not compatible(h, flow, context):
        return None
    fn = make_fn(h, flow, near)
    if fn is None:
        return None
    parts = {**CONTEXTS, **MORE_CONTEXTS}[context](fn)
    if parts is None:
        return None
    _lambda_marked(parts)
    for collection in (parts.defs, parts.helper_module or []):
        for i, line in enumerate(collection):
            if MARK in line:
                collection[i] = line.replace(MARK, "") + MARK
    flow_label = "carry" if flow.name == "arg" and context in LAX_LOOPS else flow.name
    pid = f"{h.name}.{context}.{flow_label}" + ("~ok" if near else "")
    module = "p_" + hashlib.sha1(pid.encode()).hexdigest()[:10]
    imports = set(fn.imports) | parts.imports
    header: dict[str, object] = {
        "id": pid,
        "family": h.family,
        "rules": list(h.rules),
        "hazard": h.name,
        "context": context,
        "flow": flow_label,
        "near_miss": near,
        "requires": list(parts.requires),
    }
    if parts.helper_module is not None:
        helper = _module(imports, fn.setup, parts.helper_module, None, None, None)
        path = f"{module}/ops.py"
        entry = f"{module}.train"
        header["entry"] = entry
        helper_src, lines = _finish(header, helper, path)
        names = ", ".join(
            ["compute", *(c for c in ("Batch", "State") if f"class {c}" in "\n".join(fn.setup))]
        )
        train = _module(
            imports | {f"from {module}.ops import {names}"},
            [],
            parts.defs,
            parts.main_params,
            parts.main,
            parts.args,
        )
        train_src = "\n".join(train).rstrip() + "\n"
        files = ((f"{module}/__init__.py", ""), (path, helper_src), (f"{module}/train.py", train_src))
    else:
        path = f"{module}.py"
        entry = module
        header["entry"] = entry
        src = _module(
            imports, [*fn.setup, *parts.setup], parts.defs, parts.main_params, parts.main, parts.args
        )
        source, lines = _finish(header, src, path)
        files = ((path, source),)
    if not lines:
        return None
    return Program(
        id=pid,
        family=h.family,
        rules=h.rules,
        hazard=h.name,
        context=context,
        flow=flow_label,
        near_miss=near,
        files=files,
        path=path,
        entry=entry,
        lines=lines,
        requires=parts.requires,
    )


# ---------------------------------------------------------------------------------------------
# programs written whole: hazards of the code that *calls* JAX (jit per call, recompiling
# loops, unhashable static arguments, timing, jit of a library function)


def _whole(
    name: str,
    family: str,
    rules: tuple[str, ...],
    context: str,
    flow: str,
    near: bool,
    body: list[str],
    main_params: list[str],
    args: list[str],
    imports: Iterable[str] = (),
) -> Program:
    pid = f"{name}.{context}.{flow}" + ("~ok" if near else "")
    module = "p_" + hashlib.sha1(pid.encode()).hexdigest()[:10]
    header: dict[str, object] = {
        "id": pid,
        "family": family,
        "rules": list(rules),
        "hazard": name,
        "context": context,
        "flow": flow,
        "near_miss": near,
        "requires": [],
        "entry": module,
    }
    lines = [
        *_imports(imports),
        "",
        "",
        *body,
        "",
        "",
        "def inputs(seed):",
        f"    return ({', '.join(args)},)",
    ]
    source, hazard_lines = _finish(header, lines, f"{module}.py")
    return Program(
        id=pid,
        family=family,
        rules=rules,
        hazard=name,
        context=context,
        flow=flow,
        near_miss=near,
        files=((f"{module}.py", source),),
        path=f"{module}.py",
        entry=module,
        lines=hazard_lines,
    )


ARRAY_ARG = "jnp.linspace(-1.0, 1.0, 4) + seed"


def whole_programs() -> list[Program]:
    out: list[Program] = []
    # JAX601: jit created per call / per iteration
    per_call = {
        "lambda": (
            ["step = jax.jit(lambda v: v * 2.0 + 1.0)"],
            ["step = jax.jit(lambda v: v * 2.0 + 1.0)"],
            "step(x)",
        ),
        "nested_def": (["@jax.jit", "def step(v):", "    return v * 2.0 + 1.0"], None, "step(x)"),
        "partial": (
            ["step = jax.jit(partial(scale, factor=2.0))"],
            ["step = jax.jit(partial(scale, factor=2.0))"],
            "step(x)",
        ),
        "module_fn": (["step = jax.jit(double)"], ["step = jax.jit(double)"], "step(x)"),
    }
    helpers = [
        "def double(v):",
        "    return v * 2.0 + 1.0",
        "",
        "",
        "def scale(v, factor):",
        "    return v * factor",
        "",
        "",
    ]
    for form, (hz, hoisted, call) in per_call.items():
        for near in (False, True):
            if not near:
                body = [
                    *helpers,
                    "def predict(x):",
                    *indent(
                        [*hz[:-1], _h(hz[-1])] if form != "nested_def" else [_h(hz[0]), _h(hz[1]), *hz[2:]]
                    ),
                    f"    return {call}",
                    "",
                    "",
                    "def main(x):",
                    "    return predict(x)",
                ]
            else:
                top = hoisted or ["@jax.jit", "def step(v):", "    return v * 2.0 + 1.0"]
                top = [_h(top[0]), *top[1:]]
                body = [
                    *helpers,
                    *top,
                    "",
                    "",
                    "def predict(x):",
                    f"    return {call}",
                    "",
                    "",
                    "def main(x):",
                    "    return predict(x)",
                ]
            out.append(
                _whole(
                    f"jit_per_call_{form}",
                    "JAX6",
                    ("JAX601",),
                    "driver_function",
                    "arg",
                    near,
                    body,
                    ["x"],
                    [ARRAY_ARG],
                )
            )
    # per iteration
    for form, make in {
        "lambda": "jax.jit(lambda v: v * 0.5 + 1.0)",
        "partial": "jax.jit(partial(scale, factor=0.5))",
    }.items():
        for near in (False, True):
            if not near:
                body = [
                    *helpers,
                    "def fit(x, steps):",
                    "    for _ in range(steps):",
                    _h(f"        step = {make}"),
                    "        x = step(x)",
                    "    return x",
                    "",
                    "",
                    "def main(x):",
                    "    return fit(x, 12)",
                ]
            else:
                body = [
                    *helpers,
                    _h(f"step = {make}"),
                    "",
                    "",
                    "def fit(x, steps):",
                    "    for _ in range(steps):",
                    "        x = step(x)",
                    "    return x",
                    "",
                    "",
                    "def main(x):",
                    "    return fit(x, 12)",
                ]
            out.append(
                _whole(
                    f"jit_per_iteration_{form}",
                    "JAX6",
                    ("JAX601",),
                    "driver_loop",
                    "arg",
                    near,
                    body,
                    ["x"],
                    [ARRAY_ARG],
                )
            )
    # JAX601 in a method: jit of a bound method on every call
    for near in (False, True):
        cls = ["class Trainer:", "    def __init__(self):", "        self.rate = 0.5"]
        if not near:
            cls += [
                "",
                "    def update(self, v):",
                "        return v * self.rate",
                "",
                "    def step(self, v):",
                _h("        return jax.jit(lambda w: self.update(w))(v)"),
            ]
        else:
            cls += [
                "        self._update = jax.jit(self.update)",
                "",
                "    def update(self, v):",
                "        return v * self.rate",
                "",
                "    def step(self, v):",
                _h("        return self._update(v)"),
            ]
        body = [*cls, "", "", "trainer = Trainer()", "", "", "def main(x):", "    return trainer.step(x)"]
        out.append(
            _whole(
                "jit_per_call_method",
                "JAX6",
                ("JAX601",),
                "driver_method",
                "self_attr",
                near,
                body,
                ["x"],
                [ARRAY_ARG],
            )
        )
    # JAX607: recompiling call in a loop
    loops = {
        "static_arg": (
            ["@partial(jax.jit, static_argnums=1)", "def step(v, n):", "    return v * n"],
            ["@jax.jit", "def step(v, n):", "    return v * n"],
            "for n in range(1, 13):",
            "x = step(x, n)",
        ),
        "shape": (
            ["@jax.jit", "def step(v):", "    return v * 2.0"],
            ["@jax.jit", "def step(v):", "    return v * 2.0"],
            "for n in range(1, 13):",
            "x = x.at[:n].set(step(x[:n]))",
        ),
    }
    for form, (hz, nz, loop, call) in loops.items():
        for near in (False, True):
            if not near:
                body = [
                    *hz,
                    "",
                    "",
                    "def sweep(x):",
                    _h(f"    {loop}"),
                    _h(f"        {call}"),
                    "    return x",
                    "",
                    "",
                    "def main(x):",
                    "    return sweep(x)",
                ]
            elif form == "shape":
                body = [
                    *nz,
                    "",
                    "",
                    "def sweep(x):",
                    f"    {loop}",
                    _h("        x = jnp.where(jnp.arange(16) < n, step(x), x)"),
                    "    return x",
                    "",
                    "",
                    "def main(x):",
                    "    return sweep(x)",
                ]
            else:
                body = [
                    *nz,
                    "",
                    "",
                    "def sweep(x):",
                    f"    {loop}",
                    _h(f"        {call}"),
                    "    return x",
                    "",
                    "",
                    "def main(x):",
                    "    return sweep(x)",
                ]
            out.append(
                _whole(
                    f"recompile_loop_{form}",
                    "JAX6",
                    ("JAX607",),
                    "driver_loop",
                    "arg",
                    near,
                    body,
                    ["x"],
                    ["jnp.linspace(-1.0, 1.0, 16) + seed"],
                )
            )
    # JAX606: unhashable static argument
    for form, (hz, nz) in {"list": ("[1, 2]", "(1, 2)"), "dict": ('{"a": 1}', '(("a", 1),)')}.items():
        for near in (False, True):
            body = [
                "@partial(jax.jit, static_argnums=1)",
                "def step(v, dims):",
                "    return v * len(dims)",
                "",
                "",
                "def main(x):",
                _h(f"    return step(x, {nz if near else hz})"),
            ]
            out.append(
                _whole(
                    f"unhashable_static_{form}",
                    "JAX6",
                    ("JAX606",),
                    "driver_function",
                    "static",
                    near,
                    body,
                    ["x"],
                    [ARRAY_ARG],
                )
            )
    # JAX604: timing without blocking
    step = ["@jax.jit", "def step(a):", "    return jnp.linalg.matrix_power(a, 24)", "", ""]
    timers = {
        "perf_counter": ("import time", "time.perf_counter()"),
        "time": ("import time", "time.time()"),
        "monotonic": ("import time", "time.monotonic()"),
        "timeit": ("import timeit", "timeit.default_timer()"),
    }
    for form, (imp, timer) in timers.items():
        for ctx, block in (
            ("driver_function", "y.block_until_ready()"),
            ("driver_loop", "jax.block_until_ready(y)"),
        ):
            for near in (False, True):
                if ctx == "driver_function":
                    body = [
                        *step,
                        "TIMINGS = []",
                        "",
                        "",
                        "def main(a):",
                        _h(f"    t0 = {timer}"),
                        "    y = step(a)",
                    ]
                    if near:
                        body.append(f"    {block}")
                    body += [_h(f"    TIMINGS.append({timer} - t0)"), "    return y"]
                else:
                    body = [
                        *step,
                        "TIMINGS = []",
                        "",
                        "",
                        "def main(a):",
                        "    y = a",
                        "    for _ in range(2):",
                        _h(f"        t0 = {timer}"),
                        "        y = step(y) / 600.0",
                    ]
                    if near:
                        body.append(f"        {block}")
                    body += [_h(f"        TIMINGS.append({timer} - t0)"), "    return y"]
                out.append(
                    _whole(
                        f"timing_{form}",
                        "JAX6",
                        ("JAX604",),
                        ctx,
                        "arg",
                        near,
                        body,
                        ["a"],
                        ["jnp.full((400, 400), 1.0 / 400.0) + seed * 1e-3"],
                        imports=[imp],
                    )
                )
    # jax.jit(<library function>)
    library = {
        # jax.jit(<a NumPy function>) twice in one process segfaults in jax 0.10.2 (the oracle
        # loads every program twice): the NumPy library forms are left out, see README
        "math_sqrt": ("JAX5", ("JAX503",), "math.sqrt", "jnp.sqrt"),
        "argwhere": ("JAX4", ("JAX402",), "jnp.argwhere", "partial(jnp.argwhere, size=4, fill_value=0)"),
        "nonzero": ("JAX4", ("JAX402",), "jnp.flatnonzero", "partial(jnp.flatnonzero, size=4)"),
        "unique": ("JAX4", ("JAX402",), "jnp.unique", "partial(jnp.unique, size=4, fill_value=0.0)"),
        "float": ("JAX5", ("JAX503",), "float", "jnp.float32"),
    }
    for form, (fam, rules, hz, nz) in library.items():
        for near in (False, True):
            arg = "jnp.float32(0.5 + seed)" if form in ("float", "math_sqrt") else ARRAY_ARG
            body = [
                _h(f"step = jax.jit({nz if near else hz})"),
                "",
                "",
                "def main(x):",
                _h("    return step(x)"),
            ]
            out.append(
                _whole(
                    f"library_{form}",
                    fam,
                    rules,
                    "jit_library",
                    "arg",
                    near,
                    body,
                    ["x"],
                    [arg],
                    imports=["import math"] if form == "math_sqrt" else [],
                )
            )
    return out


# ---------------------------------------------------------------------------------------------
# the universe and samples of it


# groups of look-alike forms, and the share of the contexts each form of the group gets
GROUPS = {
    "shape_": 0.3,
    "np_": 0.3,
    "list_": 0.4,
    "float64": 0.5,
    "deprecated_": 0.5,
    "discarded_at": 0.6,
    "augassign": 0.6,
    "setitem": 0.6,
}


def _group(name: str) -> str | None:
    return next((g for g in GROUPS if name.startswith(g) and name != "np_asarray"), None)


def universe(seed: int = UNIVERSE_SEED, flows_per_cell: int = 2) -> list[Program]:
    """Every (hazard form, context) cell with the ``arg`` flow and ``flows_per_cell - 1`` other
    flows drawn with ``seed``, each as the hazard and its near miss; plus the whole programs.
    Forms of one group (``shape_*``, ``np_*``, ...) share the contexts: each form gets a share
    of them, drawn with ``seed``."""
    programs: list[Program] = []
    # the contexts added later draw with a generator of their own: the first draw stays as it was
    for contexts, rng in ((CONTEXTS, random.Random(seed)), (MORE_CONTEXTS, random.Random(seed + 1))):
        for h in HAZARDS:
            group = _group(h.name)
            for context in contexts:
                programs += _cell(h, context, group, rng, flows_per_cell)
    programs += whole_programs()
    ids = [p.id for p in programs]
    assert len(ids) == len(set(ids)), "program ids must be unique"
    return programs


def _cell(
    h: Hazard, context: str, group: str | None, rng: random.Random, flows_per_cell: int
) -> list[Program]:
    """The programs of one (hazard form, context) cell: the hazard and its near miss per flow."""
    if group is not None and rng.random() > GROUPS[group]:
        return []
    flows = [f for f in FLOWS.values() if compatible(h, f, context)]
    if not flows:
        return []
    chosen = [f for f in flows if f.name in ("arg", "self_attr")][:1]
    others = [f for f in flows if f not in chosen]
    rng.shuffle(others)
    chosen += others[: flows_per_cell - len(chosen)]
    programs: list[Program] = []
    for flow in chosen:
        hazard = build(h, flow, context, near=False)
        if hazard is None:
            continue
        programs.append(hazard)
        near = build(h, flow, context, near=True)
        if near is not None:
            programs.append(near)
    return programs


def sample(programs: list[Program], count: int, seed: int) -> list[Program]:
    """``count`` programs drawn with ``seed``, near misses kept with their hazard programs."""
    if count >= len(programs):
        return list(programs)
    groups: dict[str, list[Program]] = {}
    for p in programs:
        groups.setdefault(p.id.removesuffix("~ok"), []).append(p)
    keys = sorted(groups)
    random.Random(seed).shuffle(keys)
    chosen: list[Program] = []
    for key in keys:
        if len(chosen) >= count:
            break
        chosen.extend(groups[key])
    return chosen[:count]


def write(programs: Iterable[Program], root: str) -> None:
    """Write the programs' files under ``root``."""
    import os

    for p in programs:
        for name, source in p.files:
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(source)


def parse_header(source: str) -> dict[str, object]:
    first = source.split("\n", 1)[0]
    if not first.startswith(HEADER):
        raise ValueError("not a groundtruth program")
    return json.loads(first[len(HEADER) :])


if __name__ == "__main__":
    import sys
    from collections import Counter

    progs = universe()
    print(len(progs), "programs;", sum(p.near_miss for p in progs), "near misses")
    print(Counter(p.family for p in progs))
    if len(sys.argv) > 1:
        for p in progs:
            if p.id == sys.argv[1]:
                for name, src in p.files:
                    print("=====", name)
                    print(src)
