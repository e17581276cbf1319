"""What the model knows about each function: how it is traced, and what its parameters hold."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from jaxlint.semantic.keys import KeyEvent, KeyId
from jaxlint.semantic.scopes import Scope, all_params
from jaxlint.semantic.transforms import ABSTRACT, HOST, NONE, Kind
from jaxlint.semantic.values import (
    STATIC,
    TRACED,
    UNKNOWN,
    Value,
    is_container,
    is_static,
    is_traced,
    join,
    refine,
)

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(eq=False)
class FunctionInfo:
    """One function or lambda: its trace level, why, and the values its parameters receive."""

    node: FunctionNode
    scope: Scope
    parent: FunctionInfo | None
    level: int = NONE
    reason: str = ""
    params: dict[str, Value] = field(default_factory=dict)
    inherited: int = NONE
    inherited_reason: str = ""
    host: bool = False
    is_method: bool = False
    repeated_by: str | None = None  # a loop/batch transform that runs the body repeatedly
    branch_of: ast.Call | None = None  # a `lax.cond`/`switch` that traces it as a branch
    body_offset: int = 0  # leading parameters bound before that transform runs it (`partial`)
    body_bound: frozenset[str] = frozenset()  # parameters bound by keyword before it runs it
    loop_condition: bool = False  # the cond_fun of a while_loop: it sees every step's carry
    transformed_by: set[Kind] = field(default_factory=set)  # kinds of transforms applied to it
    jit_sites: list[ast.expr] = field(default_factory=list)  # `@jax.jit`/`jax.jit(f)` applied to it
    # the `jax.jit(...)` call of each chain that compiles it (None: a decorator, an alias): a
    # `jax.jit(jax.grad(f))(x)` made and called at once traces afresh
    jit_calls: list[ast.Call | None] = field(default_factory=list)
    # `jax.jit(obj.method)`, `jax.jit(self.method)`: jits of the method bound (its `self` kept, the
    # positions of the other parameters shifted by one)
    bound_jit_sites: list[ast.Call] = field(default_factory=list)
    # reverse-mode differentiations applied to it: (transform, the call or decorator, bound offset)
    reverse_sites: list[tuple[str, ast.expr, ast.Call | None, int]] = field(default_factory=list)
    traced_for_shapes: bool = False  # traced by `jax.eval_shape` / `jax.make_jaxpr`, never run
    traced_to_run: bool = False  # traced some other way: the compiled code runs
    # a method called from traced code on an object made before the trace (a module-level object,
    # one an eager function holds): what it stores on `self` outlives the trace
    called_on_outer_object: bool = False
    # a method traced code calls on such an object, with or without a tracer: a tracer it makes
    # and stores on `self` (a functional update of an attribute, say) outlives the trace too
    runs_on_outer_object: bool = False
    # the truth of each parameter that every traced call fixes with a constant (None: it varies);
    # None until a traced call says, and for good once it is traced a way that does not say
    flags: dict[str, bool | None] | None = None
    flags_open: bool = False
    # results of the last analysis
    analyzed: bool = False
    running: bool = False
    stale: bool = False  # what it depends on changed while it ran: its results are out of date
    runs: int = 0
    returns: Value = UNKNOWN
    summary: dict[str, Value] = field(default_factory=dict)
    children: list[FunctionInfo] = field(default_factory=list)
    outer_reads: list[ast.Name] = field(default_factory=list)  # free variables read (not as callees)
    callers: set[FunctionInfo] = field(default_factory=set)
    queued: bool = False
    # what the last run found about PRNG keys (see jaxlint.semantic.keys)
    key_events: dict[ast.Call, KeyEvent] = field(default_factory=dict)
    consumed_params: set[str] = field(default_factory=set)  # parameters it consumes as keys
    consumed_in_part: set[str] = field(default_factory=set)  # of those, only a key they hold
    consumed_by_init: set[str] = field(default_factory=set)  # of those, only by a flax `init`
    # of those, the item paths consumed (`d["rng"]`: ("rng",)), where each is a plain chain
    consumed_paths: dict[str, frozenset[tuple[object, ...]]] = field(default_factory=dict)
    # parameter -> the tests of its parameters under which each consumption of it runs, with the
    # truth each needs (empty: always)
    consumption_guards: dict[str, list[frozenset[tuple[ast.expr, bool]]]] = field(default_factory=dict)
    consumed_outside: dict[KeyId, ast.Call] = field(default_factory=dict)  # outer keys it consumes
    # where its one return hands back a key it consumed (an item's position; None: the value),
    # with the call in its body that consumed it
    spent_returns: dict[int | None, ast.Call] = field(default_factory=dict)

    @property
    def name(self) -> str:
        node = self.node
        return "<lambda>" if isinstance(node, ast.Lambda) else node.name

    @property
    def effective_level(self) -> int:
        """How abstract this function's values are: the most abstract way it is reached."""
        if self.host and self.level <= NONE:
            return NONE
        return max(self.level, self.inherited)

    @property
    def abstract(self) -> bool:
        return self.effective_level >= ABSTRACT

    @property
    def why(self) -> str:
        """Why the function is traced, for messages (empty when it is not)."""
        if self.level >= self.inherited:
            return self.reason
        return self.inherited_reason

    @property
    def only_traced_for_shapes(self) -> bool:
        """Whether every trace of this function only looks at shapes (``jax.eval_shape``,
        ``jax.make_jaxpr``): nothing compiled from it ever runs, so trace time is all there is."""
        if self.traced_to_run:
            return False
        parent = self.parent
        if self.inherited >= ABSTRACT and not (parent is not None and parent.only_traced_for_shapes):
            return False
        return self.traced_for_shapes or self.inherited >= ABSTRACT

    def apply(
        self,
        level: int,
        params: dict[str, Value],
        reason: str,
        runs: bool = True,
        flags: dict[str, bool | None] | None = None,
    ) -> bool:
        """Merge one way this function is traced; True when that changed anything. ``runs``:
        whether the traced code is then run (not so under ``jax.eval_shape``); ``flags``: the
        parameters that call fixes with a constant (see :meth:`merge_flags`)."""
        changed = False
        if level == HOST:
            changed = not self.host
            self.host = True
            return changed
        if level > NONE:
            changed = self.merge_flags(flags)
        if level >= ABSTRACT:
            if runs and not self.traced_to_run:
                self.traced_to_run = changed = True  # what it calls runs too: analyse it again
            elif not runs:
                self.traced_for_shapes = True
        if level > self.level:
            self.level = level
            self.reason = reason
            changed = True
        elif not self.reason and reason:
            self.reason = reason
        for name, value in params.items():
            old = self.params.get(name)
            new = value if old is None else join(old, value)
            if new != old:
                self.params[name] = new
                changed = True
        return changed

    def detail_params(self, facts: dict[str, Value]) -> bool:
        """Merge what one call hands the function, where a transformation only said "traced"
        (``TRACED``): the pytree object that call passes (an equinox module, its fields traced)
        replaces it, since the transformation traces every leaf of it; a static object (a
        ``static_argnames`` NamedTuple) replaces a bare ``STATIC`` the same way. True when that
        changed anything."""
        changed = False
        for name, value in facts.items():
            old = self.params.get(name)
            if old is None or (old == TRACED and is_traced(value)) or (old == STATIC and is_static(value)):
                new = value
            else:
                new = join(old, value)
            if new != old:
                self.params[name] = new
                changed = True
        return changed

    def refine_params(self, facts: dict[str, Value]) -> bool:
        """Add what one call says of parameters the function is already traced with (a boolean
        mask that eager code hands a vmapped function): True when that changed anything."""
        changed = False
        for name, value in facts.items():
            old = self.params.get(name)
            if old is not None and is_traced(old) and not is_container(old):
                new = refine(old, value)
                if new != old:
                    self.params[name] = new
                    changed = True
        return changed

    def merge_flags(self, flags: dict[str, bool | None] | None) -> bool:
        """Join the truth of the parameters one traced call fixes (``helper(x, check=False)``:
        ``check`` is false while that call traces ``helper``); None: a way of tracing it that
        does not say (a transformation, a ``lax`` body), after which no parameter is fixed.
        True when a parameter's truth changed (the branches it decides change with it)."""
        if self.flags_open:
            return False
        if flags is None:
            self.flags_open = True
            return self.flags is not None and any(truth is not None for truth in self.flags.values())
        if self.flags is None:
            self.flags = dict(flags)
            return any(truth is not None for truth in flags.values())
        changed = False
        for name in {*self.flags, *flags}:
            old, new = self.flags.get(name), flags.get(name)
            if old is not None and old != new:
                self.flags[name] = None
                changed = True
        return changed

    def flag(self, name: str) -> bool | None:
        """The truth of parameter ``name`` in every trace of this function (None: not fixed)."""
        if self.flags_open or self.flags is None or self.effective_level <= NONE:
            return None
        return self.flags.get(name)

    def feed(self, params: dict[str, Value]) -> bool:
        """The values a ``lax`` primitive passes this body at one call the interpreter reached:
        they replace the bare tracer that discovery assumed, and join what other calls passed."""
        changed = self.merge_flags(None)
        for name, value in params.items():
            old = self.params.get(name)
            new = value if old is None or old == TRACED else join(old, value)
            if new != old:
                self.params[name] = new
                changed = True
        return changed

    def inherit(self, level: int, reason: str) -> bool:
        if self.host or level <= self.inherited:
            return False
        self.merge_flags(None)  # traced with its parent: called from anywhere in it
        self.inherited = level
        self.inherited_reason = reason
        return True

    def param_nodes(self) -> list[ast.arg]:
        return all_params(self.node.args)

    def static_jit_sites(self) -> list[ast.expr]:
        """Where the function is jitted in a way that takes ``static_argnames``: decorators,
        ``jax.jit(f)``, and ``jax.jit(obj.method)`` of a method bound to its object."""
        return [*self.jit_sites, *self.bound_jit_sites]

    def positional_names(self) -> list[str]:
        args = self.node.args
        return [a.arg for a in (*args.posonlyargs, *args.args)]

    def parameter_names(self) -> set[str]:
        """Every parameter's name: positional, keyword-only, ``*args`` and ``**kwargs``."""
        args = self.node.args
        extra = [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        return {*self.positional_names(), *(a.arg for a in args.kwonlyargs), *extra}

    def body_params(self) -> list[str]:
        """The positional parameters the transform that repeats the function passes (a lax
        loop body's carry, index...): those after the ones ``partial`` bound."""
        return self.positional_names()[self.body_offset :]
