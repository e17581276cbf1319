"""PRNG keys: the bookkeeping the interpreter does to find a key consumed twice.

Keys are values: a value may carry the identities of the keys it may be (:func:`values.key_ids`).
A key gets an identity where it is made (``jax.random.key(0)``, each output of ``split``, a
parameter) or, for a value of unknown origin, where it is bound to a name; ``k = key`` shares
``key``'s identity, and so do ``reshape``/``squeeze``/``broadcast_to`` and indexing
(``split(key, 3)[0]``: the first of those keys, the same one every time it is read). Each path
through the function carries the keys consumed on it (:class:`State`), with the call that
consumed each first. A key is consumed by every ``jax.random`` sampler and by
``jax.random.split`` (``fold_in``, ``key_data``, ``clone`` leave it usable), and by a function of
this module that consumes the parameter it is passed as (also through ``jax.jit``, ``partial``,
a bound method, or closed over by a function that is called).

The interpreter reports (as :class:`KeyEvent`, read by JAX301 and JAX302):

- ``reuse``: a key consumed twice on one path;
- ``loop``: a key made outside a loop and consumed inside it on a path that comes round again
  (every iteration draws from the same key), or consumed on every step of a ``lax`` loop body
  (closed over, or carried through the loop's carry without being split);
- ``call``: a key made outside a jitted function and consumed inside it: it is a constant of
  the compiled program, so every call draws the same numbers.

Where two paths meet, a name bound to different keys on them is bound to a new key (a phi),
consumed only where its own path consumed it: a key split and rebound in one branch is not
taken as reused after the branches meet.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

from jaxlint.engine.astutil import encloses
from jaxlint.semantic.values import Value, all_key_ids, join, key_ids, with_keys

KeyId = Hashable


@dataclass(frozen=True)
class KeyEvent:
    """A consumption of a key that was consumed before (``reuse``), that happens on every
    iteration (``loop``), in the condition of a ``while_loop`` on every step's carry
    (``condition``) or on every call of a jitted function (``call``). ``first`` is the
    earlier consumption, for ``reuse``; ``repeated_by`` says what repeats a ``loop`` or ``call``
    (for a ``call``, the compiled function), and ``via`` how a lax loop body reaches the key it
    consumes on every step, or which function the compiled one runs consumes it."""

    kind: str
    key: str
    first: ast.AST | None
    repeated_by: str = ""
    # a `loop` of a lax body: "closure" (closed over) or "carry" (handed back unsplit); a `call`:
    # the function consuming the key, where the compiled function runs it (a helper, a method)
    via: str = ""
    compiled_by: str = "jitted"  # a `call`: how the function is compiled ("jitted", "checkpointed")
    passed_unmapped: bool = False  # a `mapped` draw: the key is an argument `in_axes` leaves unmapped
    ignored: str = ""  # a `mapped` use: the mapped parameters the function never reads
    copies: str = ""  # a `mapped` draw: the batch of copies of one key it maps (`[key] * n`)


class State:
    """One path through a function at one point: what each name holds, and which keys were
    consumed on the way (with the call that consumed each first)."""

    __slots__ = ("consumed", "names")

    def __init__(
        self, names: dict[str, Value] | None = None, consumed: dict[KeyId, ast.AST] | None = None
    ) -> None:
        self.names: dict[str, Value] = {} if names is None else names
        self.consumed: dict[KeyId, ast.AST] = {} if consumed is None else consumed

    def copy(self) -> State:
        return State(dict(self.names), dict(self.consumed) if self.consumed else {})

    def narrowed(self, updates: dict[str, Value]) -> State:
        """A copy where ``updates`` replace the values of some names (a condition proved them)."""
        return State({**self.names, **updates}, dict(self.consumed) if self.consumed else {})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.names == other.names and self.consumed == other.consumed

    __hash__ = None  # pyright: ignore[reportAssignmentType]


def first_consumer(consumed: dict[KeyId, ast.AST], key: KeyId) -> ast.AST | None:
    """The call that consumed ``key``, or a key it was taken from (``split(k, 3)`` consumed
    as a whole, then ``keys[0]``), or one taken from it, on this path."""
    found = consumed.get(key)
    if found is not None:
        return found
    for ancestor in ancestors(key):
        found = consumed.get(ancestor)
        if found is not None:
            return found
    if consumed and isinstance(key, tuple):
        for other, call in consumed.items():
            if isinstance(other, tuple) and other[0] == "item" and key in ancestors(other):
                return call
    return None


def derived(key: KeyId, index: object) -> KeyId:
    """The identity of ``key[index]`` (a key of an array of keys, an element of an unpacked
    carry): the same whenever the same element is read; of a batch of copies, the key copied."""
    copied = copy_of(key)
    return ("item", key, index) if copied is None else copied


def initialised(key: KeyId, module: ast.ClassDef | None = None) -> KeyId:
    """The identity of what the ``init`` of a flax module of class ``module`` draws from
    ``key``: the same whenever ``key`` initialises that class (the same weights), and apart from
    ``key`` itself (the module folds the path of each layer into it, so a draw straight from
    ``key`` gives other bits) and from other classes (other layers, other shapes). ``module``
    None: an ``init`` in a function of the module, given ``key`` as an argument."""
    return ("init", key, module)


def initialised_from(key: KeyId) -> KeyId | None:
    """The key :func:`initialised` was given, or None for another key."""
    return key[1] if isinstance(key, tuple) and len(key) == 3 and key[0] == "init" else None


def bound_index(binding: KeyId) -> KeyId | None:
    """The index of ``keys[i]`` for a name ``i`` holding ``binding`` (one binding of a local, or
    a parameter): the same element for as long as ``i`` keeps that binding."""
    named = isinstance(binding, tuple) and (
        (len(binding) == 3 and binding[0] == "param") or (len(binding) == 2 and binding[0] == "bind")
    )
    return ("bound", binding) if named else None


def indexed_by(key: KeyId) -> list[KeyId]:
    """The bindings of the names ``key`` was taken by (``keys[i]``: the binding ``i`` held)."""
    found: list[KeyId] = []
    while isinstance(key, tuple) and len(key) == 3 and key[0] in ("item", "fold"):
        index = key[2]
        if key[0] == "item" and isinstance(index, tuple) and len(index) == 2 and index[0] == "bound":
            found.append(index[1])
        key = key[1]
    return found


def copies(key: KeyId, site: ast.AST | None) -> KeyId:
    """The identity of a batch of copies of ``key`` made at ``site`` (``[key] * n``,
    ``jnp.repeat(key[None], n)``): each of its keys is ``key``."""
    return ("copies", key, site)


def copy_of(key: KeyId) -> KeyId | None:
    """The key a batch of copies (see :func:`copies`) repeats, or None for another key."""
    return key[1] if isinstance(key, tuple) and len(key) == 3 and key[0] == "copies" else None


def copies_site(key: KeyId) -> ast.AST | None:
    """Where the batch of copies ``key`` was made (see :func:`copies`), or None."""
    return key[2] if copy_of(key) is not None else None  # pyright: ignore[reportIndexIssue]


def along(key: KeyId, path: tuple[object, ...]) -> KeyId:
    """The identity of ``key[path[0]][path[1]]...``."""
    for index in path:
        key = derived(key, index)
    return key


def ancestors(key: KeyId) -> list[KeyId]:
    """The keys ``key`` was taken from by indexing (or copied from), innermost first."""
    found: list[KeyId] = []
    while isinstance(key, tuple) and len(key) == 3 and key[0] in ("item", "copies"):
        key = key[1]
        found.append(key)
    return found


def folded(key: KeyId, call: ast.Call) -> KeyId:
    """The identity of ``jax.random.fold_in(key, data)`` with ``data`` a Python value: made at
    ``call``, and the same whenever ``key`` is (on every step of a lax loop that keeps ``key``)."""
    return ("fold", key, call)


def is_fold(key: KeyId) -> bool:
    """Whether ``key`` is ``fold_in(base, data)`` with data that repeats (see :func:`folded`)."""
    return isinstance(key, tuple) and len(key) == 3 and key[0] == "fold"


def lineage(key: KeyId) -> list[KeyId]:
    """The keys ``key`` was taken from by indexing or folded from with Python data, innermost first."""
    found: list[KeyId] = []
    while isinstance(key, tuple) and len(key) == 3 and key[0] in ("item", "fold", "init"):
        key = key[1]
        found.append(key)
    return found


def excepting(key: KeyId, replaced: frozenset[object]) -> KeyId:
    """The keys a dict ``key`` holds under every constant key but ``replaced``: the spread of
    ``{**carry, "rng": new}``, whose ``"rng"`` entry is another value."""
    return ("except", key, replaced)


def spread_base(key: object) -> object:
    """The key a spread ``excepting`` some entries was taken from (any other key: itself)."""
    return key[1] if isinstance(key, tuple) and len(key) == 3 and key[0] == "except" else key


def holds_carried(key: KeyId, carried: frozenset[KeyId]) -> bool:
    """Whether ``key`` is one of ``carried``, or was taken (by indexing, or folded with Python
    data) from one of them, not through an entry a spread ``excepting`` it replaced."""
    chain = [key, *lineage(key)]
    spreads = [c for c in carried if isinstance(c, tuple) and len(c) == 3 and c[0] == "except"]
    for depth, part in enumerate(chain):
        if part in carried:
            return True
        child = chain[depth - 1] if depth else None
        if (
            isinstance(child, tuple)
            and child[0] == "item"
            and any(spread[1] == part and child[2] not in spread[2] for spread in spreads)
        ):
            return True
    return False


def origin(key: KeyId) -> ast.AST | None:
    """The syntax node where a key was made or bound (None for a parameter)."""
    while True:
        if isinstance(key, tuple) and len(key) == 3 and key[0] == "fold":
            if not constant_fold(key[2]):
                return key[2]
            key = key[1]  # `fold_in(key, 0)`: the same key wherever it is made, as `key` is
            continue
        if isinstance(key, tuple) and key and key[0] in ("item", "except", "copies", "init"):
            key = key[1]
            continue
        if isinstance(key, tuple) and len(key) >= 2 and isinstance(key[1], ast.AST):
            return key[1]
        return None


def constant_fold(call: object) -> bool:
    """Whether a ``fold_in`` call folds in data without names (``fold_in(key, 0)``): the same
    key whenever it runs."""
    return (
        isinstance(call, ast.Call)
        and len(call.args) > 1
        and not any(isinstance(n, ast.Name) for n in ast.walk(call.args[1]))
    )


def made_inside(key: KeyId, node: ast.AST) -> bool:
    """Whether ``key`` was made or bound inside ``node`` (a loop, a function), or taken by a name
    bound there (``keys[i]`` in ``for i in ...``, or with ``i`` a parameter of a lax loop's body:
    another key on each iteration)."""
    made = origin(key)
    if made is not None and encloses(node, made):
        return True
    return any(encloses(node, binding[1]) for binding in indexed_by(key))  # pyright: ignore[reportIndexIssue, reportArgumentType]


@dataclass
class LoopFrame:
    """The keys one pass over a loop body consumed that were made outside the loop, and the
    paths that come round again (the end of the body and every ``continue``)."""

    node: ast.AST
    candidates: list[tuple[ast.Call, str, str, KeyId]] = field(default_factory=list)  # call, text, root, key
    back_edges: list[State] = field(default_factory=list)


@dataclass
class KeyTracker:
    """The key events of one run of the interpreter over one function."""

    events: dict[ast.Call, KeyEvent] = field(default_factory=dict)
    consumed_params: set[str] = field(default_factory=set)
    whole_params: set[str] = field(default_factory=set)  # consumed as the key itself
    drawn_params: set[str] = field(default_factory=set)  # consumed by a draw, not a flax `init`
    # parameter -> the item paths of it consumed (`d["rng"]`: ("rng",)); None: a part consumed
    # by a path that is not a plain chain of items (through a join)
    param_paths: dict[str, set[tuple[object, ...]] | None] = field(default_factory=dict)
    partial_calls: set[ast.Call] = field(default_factory=set)  # consume only a key an argument holds
    all_consumed: dict[KeyId, ast.Call] = field(default_factory=dict)  # every key consumed, on any path
    texts: dict[ast.Call, str] = field(default_factory=dict)  # how each consuming call writes its key
    key_texts: dict[tuple[ast.Call, KeyId], str] = field(default_factory=dict)  # ... each key it consumes
    # calls that consume outer keys because the function they run does (it reports its own)
    through_callees: set[ast.Call] = field(default_factory=set)
    param_ids: dict[KeyId, str] = field(default_factory=dict)
    phi_parts: dict[KeyId, frozenset[KeyId]] = field(default_factory=dict)
    loops: list[LoopFrame] = field(default_factory=list)
    local_names: frozenset[str] = frozenset()  # names the function binds: others are closed over
    # the tests of the parameters the statement being run depends on, with the truth each needs
    # (the interpreter's list, as it runs)
    guards: list[tuple[ast.expr, bool]] = field(default_factory=list)
    # parameter -> the guards under which each consumption of it runs (empty: always)
    param_guards: dict[str, list[frozenset[tuple[ast.expr, bool]]]] = field(default_factory=dict)

    def consume(
        self, call: ast.Call, keys: Iterable[KeyId], text: str, root: str, state: State, partial: bool = False
    ) -> None:
        """``call`` consumes the key ``text`` (rooted at name ``root``), one of ``keys``;
        ``partial``: only a key that ``text`` holds (a field or item of it)."""
        self.texts.setdefault(call, text)
        if partial:
            self.partial_calls.add(call)
        for key in keys:
            self.key_texts.setdefault((call, key), text)
            self.all_consumed.setdefault(key, call)
            first = first_consumer(state.consumed, key)
            if first is not None and first is not call:
                self.events.setdefault(call, KeyEvent("reuse", text, first))
            state.consumed.setdefault(key, call)
            behind = self.params_behind(key)
            self.consumed_params.update(behind)
            if initialised_from(key) is None:
                self.drawn_params.update(behind)
            self.note_paths(key, behind)
            for param in behind:
                self.param_guards.setdefault(param, []).append(frozenset(self.guards))
            if not partial:
                self.whole_params.update(self.params_behind(key, through_items=False))
            if self.loops and not made_inside(key, self.loops[-1].node):
                self.loops[-1].candidates.append((call, text, root, key))

    def note_paths(self, key: KeyId, behind: set[str]) -> None:
        """Record the item path from a parameter to ``key`` (``d["rng"]`` of parameter ``d``)."""
        path: list[object] = []
        current = key
        while (
            current not in self.param_ids
            and isinstance(current, tuple)
            and len(current) == 3
            and current[0] == "item"
        ):
            path.append(current[2])
            current = current[1]
        found = self.param_ids.get(current)
        for param in behind:
            paths = self.param_paths.get(param, set())
            if param == found and paths is not None:
                paths.add(tuple(reversed(path)))
                self.param_paths[param] = paths
            else:
                self.param_paths[param] = None  # through a join: which part is not known

    def text_of(self, call: ast.Call, key: KeyId) -> str:
        """How ``call`` writes ``key`` (a call through a function may consume several keys)."""
        return self.key_texts.get((call, key), self.texts[call])

    def event(self, call: ast.AST, event: KeyEvent) -> None:
        """Record ``event`` at ``call`` unless one is recorded there already."""
        if isinstance(call, ast.Call):
            self.events.setdefault(call, event)

    def params_behind(self, key: KeyId, through_items: bool = True) -> set[str]:
        """The parameters a key is (through phis, and indexing unless not ``through_items``)."""
        found: set[str] = set()
        seen: set[KeyId] = set()
        stack = [key]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            if current in self.param_ids:
                found.add(self.param_ids[current])
            stack.extend(self.phi_parts.get(current, ()))
            given = initialised_from(current)
            if given is not None:
                stack.append(given)  # what a flax `init` drew from the parameter
            if through_items:
                stack.extend(ancestors(current)[:1])
        return found

    def close_loop(self, frame: LoopFrame) -> None:
        """After a loop's last pass: a consumed key made outside the loop that a path coming round
        again still holds, and consumed on that path, is consumed on every iteration."""
        for call, text, root, key in frame.candidates:
            name = root.split(".[", 1)[0]  # `state` of an item `state.['key']`
            for edge in frame.back_edges:
                holder = root if root in edge.names else name  # an item the loop stored a key in
                if holder in edge.names:
                    held = all_key_ids(edge.names[holder])  # (a dict's entry among them)
                    holds = key in held or any(a in held for a in lineage(key))
                else:  # closed over (or global): the same key on every iteration
                    holds = bool(name) and name not in self.local_names
                if holds and first_consumer(edge.consumed, key):
                    self.events.setdefault(call, KeyEvent("loop", text, None))
                    break


def join_states(a: State | None, b: State | None, site: ast.AST, tracker: KeyTracker | None) -> State | None:
    """What holds after paths ``a`` and ``b`` meet at ``site``: values joined, keys consumed on
    either; a name bound to different keys on the two paths gets a phi."""
    if a is None:
        return None if b is None else b.copy()
    if b is None:
        return a.copy()
    names = dict(a.names)
    for name, value in b.names.items():
        old = names.get(name)
        names[name] = value if old is None else join(old, value)
    for name in a.names.keys() ^ b.names.keys():
        if "." in name:  # `obj.attr` stored on one path only: on the other it is what it was
            del names[name]
    consumed = dict(b.consumed)
    consumed.update(a.consumed)
    if tracker is not None:
        for name in a.names.keys() & b.names.keys():
            left, right = key_ids(a.names[name]), key_ids(b.names[name])
            if left == right or not left or not right:
                continue
            phi = ("phi", site, name)
            tracker.phi_parts[phi] = left | right
            names[name] = with_keys(names[name], frozenset({phi}))
            first = _first(a.consumed, left) or _first(b.consumed, right)
            if first is not None:
                consumed[phi] = first
            else:
                consumed.pop(phi, None)
    return State(names, consumed)


def _first(consumed: dict[KeyId, ast.AST], keys: frozenset[KeyId]) -> ast.AST | None:
    return next((found for key in keys if (found := first_consumer(consumed, key)) is not None), None)
