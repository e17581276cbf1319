"""The fix requests several rules share: lifting Python control flow into its JAX form, and
marking a parameter static.

A rule computes the plan on ``ast`` (:mod:`jaxlint.rules.support.lifting`): which names a
lifted block carries, which operands need a NaN guard, which ``return`` supplies the fallback.
The fixer (and :mod:`jaxlint.fixing.rewrites`) only writes the syntax the plan describes.

``safe`` on a plan: the code it rewrites failed on every run in sight (its function only ever
runs traced, and the rewritten construct raises on a tracer), so the rewrite, which computes what
eager Python would, breaks nothing that worked: the fix is offered as safe.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from jaxlint.engine.diagnostics import FixRequest

NanGuard = tuple[ast.expr, str]
"""An operand that is NaN or infinite outside its domain, and a value inside it (``log(x)``:
``(x, "1.0")``): under ``jnp.where`` the branch not taken still runs, and its NaN poisons gradients."""


@dataclass(frozen=True)
class FailureRewrite(FixRequest):
    """A rewrite of code that fails on a tracer. ``safe``: it failed on every run in sight, so
    the rewrite breaks nothing that worked (``rules.support.explain.safe_where_it_always_failed``
    decides)."""

    safe: bool = field(default=False, kw_only=True)


@dataclass(frozen=True)
class MarkStatic(FailureRewrite):
    """Add ``param`` to the ``static_argnames`` of the one ``jax.jit`` applied to the function,
    or to ``function`` (a jitted caller that passes its ``param`` on to the function)."""

    param: str
    function: ast.AST | None = None


@dataclass(frozen=True)
class WhereExpression(FailureRewrite):
    """``a if test else b`` -> ``jnp.where(test, a, b)``: both branches are side-effect free."""

    node: ast.IfExp
    body_guards: tuple[NanGuard, ...]
    orelse_guards: tuple[NanGuard, ...]


@dataclass(frozen=True)
class WhereReturn(FailureRewrite):
    """``if t1: return v1 elif t2: return v2 else: return v3`` -> one ``return jnp.where(...)``.

    ``values`` has one value per test and then the fallback; ``guards`` one tuple per value.
    ``following`` is the ``return`` after the ``if`` that supplies the fallback (and is replaced
    too), or None when the chain's own ``else`` does. With ``width``, every value is a tuple
    display of that many elements, each chosen by a ``jnp.where`` of its own (the tuple stays a
    tuple), and ``guards`` has one tuple per element, value after value."""

    node: ast.If
    tests: tuple[ast.expr, ...]
    values: tuple[ast.expr, ...]
    guards: tuple[tuple[NanGuard, ...], ...]
    following: ast.Return | None
    width: int = 0


@dataclass(frozen=True)
class WhereAssign(FailureRewrite):
    """Branches that only assign plain names -> ``name = jnp.where(...)`` for each name.

    ``values[n][arm]`` is what arm ``arm`` assigns to ``names[n]`` (None: the arm leaves it as it
    was); ``guards[n][arm]`` the NaN guards of that value."""

    node: ast.If
    tests: tuple[ast.expr, ...]
    names: tuple[str, ...]
    values: tuple[tuple[ast.expr | None, ...], ...]
    guards: tuple[tuple[tuple[NanGuard, ...], ...], ...]


@dataclass(frozen=True)
class CondBranches(FailureRewrite):
    """``if``/``else`` -> two local functions and ``outputs = lax.cond(test, t, f, *operands)``."""

    node: ast.If
    outputs: tuple[str, ...]
    operands: tuple[str, ...]


@dataclass(frozen=True)
class WhileLoop(FailureRewrite):
    """``while test: body`` -> ``carried = lax.while_loop(cond_fun, body_fun, carried)``."""

    node: ast.While
    carried: tuple[str, ...]


@dataclass(frozen=True)
class ForiLoop(FailureRewrite):
    """``for index in range(a, b): body`` -> ``carried = lax.fori_loop(a, b, body_fun, carried)``;
    ``while index < b: body; index += 1`` -> ``lax.fori_loop(index, b, ...)`` (``b + 1`` when
    ``inclusive``: ``<=``), the last statement of the body left out."""

    node: ast.For | ast.While
    index: str
    carried: tuple[str, ...]
    inclusive: bool = False


@dataclass(frozen=True)
class JaxNumpyFunction(FixRequest):
    """``np.<name>(...)`` -> ``jnp.<name>(...)``. ``safe``: the function only ever runs traced."""

    name: str
    safe: bool


@dataclass(frozen=True)
class RecordField:
    """The array being updated is field ``attr`` of the NamedTuple (``kind`` "tuple"),
    dataclass (``kind`` "dataclass") or equinox library layer (``kind`` "layer") that the local
    name ``owner`` holds: the update goes into a new record, ``owner = owner._replace(attr=...)``,
    ``dataclasses.replace(owner, attr=...)`` or ``eqx.tree_at(lambda m: m.attr, owner, ...)``."""

    owner: str
    attr: str
    kind: str


@dataclass(frozen=True)
class LocalLeaf:
    """The array being updated is a leaf the function cannot assign into (a tuple item, a field
    of a record of unknown kind, a global array), and every later mention of its owner in the
    function reads that same leaf: the updated array goes into a new local name (``hint``, or a
    fresh variant of it), and ``reads`` take that name."""

    hint: str
    reads: tuple[ast.expr, ...]


@dataclass(frozen=True)
class ClosedOver:
    """The array is a name of the function around this one, which calls this one directly (not
    through a transform, so both run in one trace): the name is declared ``nonlocal`` at the top
    of ``function`` (unless ``declared``) and rebound, and the code around sees the updated
    array where it would have seen an in-place update."""

    name: str
    function: ast.FunctionDef | ast.AsyncFunctionDef
    declared: bool


@dataclass(frozen=True)
class NumpyAtTraceTime(FixRequest):
    """``jnp.<f>`` -> ``np.<f>`` for each of ``functions`` (the callee expressions): a value
    computed from constants alone is then a Python value while tracing, not a tracer."""

    functions: tuple[ast.expr, ...]
