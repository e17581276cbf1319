"""Scopes and bindings: which names each function, class and module binds, and what they import.

One iterative walk over the module builds a :class:`Scope` per module, class, function, lambda
and comprehension, records every binding, and collects the few node kinds the later stages need
(calls that may apply a transform, decorated definitions, mutations of outer state), so no later
stage walks the whole tree again for them.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from jaxlint.engine.astutil import callee_leaf
from jaxlint.semantic.api import MUTATING_METHODS, OPTIMIZER_WRAPPERS, RANDOM_CONSUMERS
from jaxlint.semantic.transforms import MAPPING

WRAPPER_TAILS = frozenset(name.rsplit(".", 1)[1] for name in OPTIMIZER_WRAPPERS)

RNGS_METHODS = frozenset({"apply", "init", "init_with_output"})  # flax: `rngs={...}` keys drawn
INIT_METHODS = frozenset({"init", "init_with_output"})  # flax: the first argument, keys drawn

BUILTIN_NAMES = frozenset(dir(builtins))
MAPPING_NAMES = frozenset(name.rsplit(".", 1)[1] for name in MAPPING)  # `vmap`, `pmap`...
FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
COMPREHENSION_NODES = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)

AMBIGUOUS = "<ambiguous>"


@dataclass(eq=False)
class Scope:
    """The names one scope binds. ``node`` is the module, class, function, lambda or comprehension."""

    kind: str  # "module" | "class" | "function" | "comprehension"
    node: ast.AST
    parent: Scope | None
    bound: dict[str, int] = field(default_factory=dict)  # name -> number of binding sites
    imports: dict[str, str] = field(default_factory=dict)  # name -> qualified name
    import_count: dict[str, int] = field(default_factory=dict)  # name -> bindings by import
    defs: dict[str, list[ast.AST]] = field(default_factory=dict)  # name -> def/class nodes
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    params: list[str] = field(default_factory=list)
    # name -> the value of its last simple `name = value` assignment in this scope
    assigned: dict[str, ast.expr] = field(default_factory=dict)
    # callee names this scope calls (`f(...)`, `self.f(...)`) or passes on (`jax.jit(f)`); whether
    # one is a jax.random-like consumer (`*.normal`, `split`): what decides if keys are followed
    called: set[str] = field(default_factory=set)
    random_calls: list[ast.Call] = field(default_factory=list)  # calls of jax.random-like names
    # arguments naming a jax.random-like function (`jax.vmap(random.normal)`, or a variable `t`)
    random_passes: list[ast.expr] = field(default_factory=list)
    star_imports: list[str] = field(default_factory=list)  # `from m import *`: each module, as written
    # while set, every change below is also recorded here, to replay (see :class:`ScopeCache`)
    journal: list[tuple[Callable[..., None], tuple[Any, ...]]] | None = field(default=None, repr=False)

    def bind(self, name: str) -> None:
        if self.journal is not None:
            self.journal.append((Scope.bind, (name,)))
        self.bound[name] = self.bound.get(name, 0) + 1

    def bind_import(self, name: str, qualname: str) -> None:
        if self.journal is not None:
            self.journal.append((Scope.bind_import, (name, qualname)))
        self.bound[name] = self.bound.get(name, 0) + 1
        self.import_count[name] = self.import_count.get(name, 0) + 1
        known = self.imports.get(name)
        self.imports[name] = qualname if known in (None, qualname) else AMBIGUOUS

    def import_star(self, module: str) -> None:
        if self.journal is not None:
            self.journal.append((Scope.import_star, (module,)))
        self.star_imports.append(module)

    def bind_def(self, name: str, node: ast.AST) -> None:
        if self.journal is not None:
            self.journal.append((Scope.bind_def, (name, node)))
        self.bound[name] = self.bound.get(name, 0) + 1
        self.defs.setdefault(name, []).append(node)

    def assign(self, name: str, value: ast.expr) -> None:
        if self.journal is not None:
            self.journal.append((Scope.assign, (name, value)))
        self.assigned[name] = value

    def note_call(self, callee: str) -> None:
        """Record a call of ``callee``, or that it is passed on (``jax.jit(f)``)."""
        if self.journal is not None:
            self.journal.append((Scope.note_call, (callee,)))
        self.called.add(callee)

    def note_random_pass(self, argument: ast.expr) -> None:
        """Record an argument named like a jax.random function: the model resolves it."""
        if self.journal is not None:
            self.journal.append((Scope.note_random_pass, (argument,)))
        self.random_passes.append(argument)

    def note_random_call(self, call: ast.Call) -> None:
        """Record a call of a jax.random-like name (``split``, ``normal``): the model resolves it."""
        if self.journal is not None:
            self.journal.append((Scope.note_random_call, (call,)))
        self.random_calls.append(call)

    def declare(self, names: list[str], nonlocal_: bool) -> None:
        """A ``global`` (or ``nonlocal``) statement naming ``names``."""
        if self.journal is not None:
            self.journal.append((Scope.declare, (names, nonlocal_)))
        (self.nonlocals if nonlocal_ else self.globals).update(names)

    @property
    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    @property
    def function(self) -> Scope:
        """The innermost function (or module) scope: comprehensions belong to their function."""
        scope = self
        while scope.kind == "comprehension" and scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup(self, name: str) -> Scope | None:
        """The scope that binds ``name`` as seen from here (LEGB; class bodies are not enclosing)."""
        if name in self.globals:
            module = self.module
            return module if name in module.bound else None
        scope: Scope | None = self
        first = True
        while scope is not None:
            if (first or scope.kind != "class") and name in scope.bound:
                return scope
            first = False
            scope = scope.parent
        return None

    def only_imported(self, name: str) -> bool:
        """Whether every binding of ``name`` here is an import (of one and the same thing)."""
        imported = self.imports.get(name)
        return imported is not None and imported != AMBIGUOUS and self.import_count[name] == self.bound[name]

    def single_value(self, name: str) -> ast.expr | None:
        """What ``name = value`` binds here, when that is the name's only binding."""
        return self.assigned.get(name) if self.bound.get(name) == 1 else None

    def bound_value(self, name: str) -> tuple[ast.expr, Scope] | None:
        """What the ``name`` seen from here is bound to by its only binding (``name = value``),
        and the scope that binds it."""
        owner = self.lookup(name)
        value = None if owner is None else owner.single_value(name)
        return None if value is None or owner is None else (value, owner)

    def followed(self, expr: ast.expr, limit: int = 4) -> tuple[ast.expr, Scope]:
        """``expr``, or for a name bound once (``name = value``) what that binding holds, followed
        through such names up to ``limit`` times; with the scope the result is written in."""
        scope: Scope = self
        for _ in range(limit):
            found = scope.bound_value(expr.id) if isinstance(expr, ast.Name) else None
            if found is None:
                break
            expr, scope = found
        return expr, scope

    def written_value(self, expr: ast.expr) -> ast.expr:
        """``expr``, or for a name bound once to ``name = value``, that value."""
        found = self.bound_value(expr.id) if isinstance(expr, ast.Name) else None
        return expr if found is None else found[0]

    def rewrapped_def(self, name: str) -> ast.AST | None:
        """The def bound to ``name`` here when its only other binding wraps it in place
        (``step = jax.jit(step)``, ``f = jax.custom_vjp(f)``)."""
        nodes = self.defs.get(name)
        value = self.assigned.get(name)
        if not nodes or len(nodes) != 1 or self.bound.get(name) != 2 or not isinstance(value, ast.Call):
            return None
        first = value.args[0] if value.args else None
        return nodes[0] if isinstance(first, ast.Name) and first.id == name else None

    def single_def(self, name: str) -> ast.AST | None:
        """The def or class bound to ``name`` here, when that is the name's only binding."""
        nodes = self.defs.get(name)
        if nodes and len(nodes) == 1 and self.bound.get(name) == 1:
            return nodes[0]
        return None


Children = list[tuple[ast.AST, Scope]] | None
Loops = tuple[ast.AST, ...]
# A node's parent chain: (parent node, the parent's own frame), None at the module level.
Frame = tuple[ast.AST, "Frame"] | None
Event = tuple[ast.AST, Scope, Loops, Frame]
LOOP_NODES = (ast.For, ast.AsyncFor, ast.While)
Visitor = Callable[[Any, "Scope"], Children]


@dataclass
class ModuleIndex:
    """What the scope walk found: scopes and the nodes later stages start from."""

    module: Scope
    scopes: dict[ast.AST, Scope]
    # calls whose callee ends in a transform-like name, with the scope they appear in
    calls: list[tuple[ast.Call, Scope]] = field(default_factory=list)
    decorated: list[tuple[ast.AST, Scope]] = field(default_factory=list)
    classes: list[tuple[ast.ClassDef, Scope]] = field(default_factory=list)
    # outer state changed from inside a function: (node, scope, name)
    mutations: list[tuple[ast.AST, Scope, str]] = field(default_factory=list)
    # functions, lambdas in source order, with their scopes
    functions: list[Scope] = field(default_factory=list)
    # nodes of the types the rules subscribe to, in source order, with their context
    events: list[Event] = field(default_factory=list)
    parents: dict[ast.AST, Scope] = field(default_factory=dict)  # function node -> enclosing scope


@dataclass(frozen=True)
class _Fragment:
    """What walking one top-level statement added: replayed as is while the statement is unchanged."""

    journal: list[tuple[Callable[..., None], tuple[Any, ...]]]  # the module scope's changes
    events: list[Event]
    calls: list[tuple[ast.Call, Scope]]
    decorated: list[tuple[ast.AST, Scope]]
    classes: list[tuple[ast.ClassDef, Scope]]
    mutations: list[tuple[ast.AST, Scope, str]]
    scopes: list[Scope]  # created within the statement, in order


class ScopeCache:
    """One document's last scope walk, by top-level statement, for the editor's next walk.

    The incremental parser hands back the very statement nodes an edit left alone; what the walk
    found in such a statement (its scopes, events, and changes to the module scope, which it
    cannot read from the other statements) is replayed instead of walked again. The module scope
    is kept across walks, so replayed scopes and events still point at it.
    """

    def __init__(self) -> None:
        self.module: Scope | None = None
        self.fragments: dict[ast.AST, _Fragment] = {}
        self.walked_for: tuple[frozenset[str], frozenset[type]] | None = None

    def module_scope(self, tree: ast.Module, walked_for: tuple[frozenset[str], frozenset[type]]) -> Scope:
        """The module scope, emptied for a new walk of ``tree`` (what was cached is kept only
        for a walk that collects the same things)."""
        if walked_for != self.walked_for:
            self.fragments, self.walked_for = {}, walked_for
        if self.module is None:
            self.module = Scope("module", tree, None)
        else:
            self.module.node = tree
            for each in fields(Scope):
                if each.default_factory is not MISSING:
                    setattr(self.module, each.name, each.default_factory())
        return self.module


class _ScopeBuilder:
    def __init__(
        self,
        tree: ast.Module,
        interesting_calls: frozenset[str],
        wanted: frozenset[type],
        cache: ScopeCache | None = None,
    ) -> None:
        self.cache = cache
        if cache is not None:
            self.module = cache.module_scope(tree, (interesting_calls, wanted))
        else:
            self.module = Scope("module", tree, None)
        self.index = ModuleIndex(self.module, {tree: self.module})
        self.interesting_calls = interesting_calls
        self.wanted = wanted
        self.created: list[Scope] = []

    def build(self) -> ModuleIndex:
        body: list[ast.stmt] = self.module.node.body  # pyright: ignore[reportAttributeAccessIssue]
        visitors = self._dispatch()  # a local: as an attribute, its bound methods make a cycle
        if self.cache is None:
            self.walk([(statement, self.module, (), None) for statement in reversed(body)], visitors)
            return self.index
        cached = self.cache.fragments
        fragments: dict[ast.AST, _Fragment] = {}
        for statement in body:
            fragment = cached.get(statement)
            if fragment is None:
                fragment = self.record(statement, visitors)
            else:
                self.replay(fragment)
            fragments[statement] = fragment
        self.cache.fragments = fragments
        return self.index

    def record(self, statement: ast.stmt, visitors: dict[type, Visitor]) -> _Fragment:
        """Walk one top-level statement, keeping what it added."""
        index, module = self.index, self.module
        marks = [len(index.events), len(index.calls), len(index.decorated), len(index.classes)]
        marks += [len(index.mutations), len(self.created)]
        module.journal = journal = []
        try:
            self.walk([(statement, module, (), None)], visitors)
        finally:
            module.journal = None
        events, calls, decorated, classes, mutations, created = marks
        return _Fragment(
            journal,
            index.events[events:],
            index.calls[calls:],
            index.decorated[decorated:],
            index.classes[classes:],
            index.mutations[mutations:],
            self.created[created:],
        )

    def replay(self, fragment: _Fragment) -> None:
        module, index = self.module, self.index
        for change, arguments in fragment.journal:
            change(module, *arguments)
        index.events += fragment.events
        index.calls += fragment.calls
        index.decorated += fragment.decorated
        index.classes += fragment.classes
        index.mutations += fragment.mutations
        for scope in fragment.scopes:
            self.register(scope)

    def walk(self, stack: list[tuple[ast.AST, Scope, Loops, Frame]], dispatch: dict[type, Visitor]) -> None:
        """Visit the nodes on ``stack`` (last first) and everything below them."""
        wanted = self.wanted
        events = self.index.events
        pop, push = stack.pop, stack.append
        fields_of, node_class, name_class, load = _REVERSED_FIELDS, ast.AST, ast.Name, ast.Load
        while stack:
            node, scope, loops, parent = pop()
            kind = type(node)
            if kind in wanted:
                events.append((node, scope, loops, parent))
            if kind is name_class:  # the most common node: handled inline
                if type(node.ctx) is not load:  # pyright: ignore[reportAttributeAccessIssue]
                    self.bind_name(node.id, scope)  # pyright: ignore[reportAttributeAccessIssue]
                continue
            frame = (node, parent)
            if kind in LOOP_NODES:
                self.push_loop(node, scope, loops, frame, push)  # pyright: ignore[reportArgumentType]
                continue
            visit = dispatch.get(kind)
            children = visit(node, scope) if visit is not None else None
            if children is None:
                fields = fields_of.get(kind)
                if fields is None:
                    fields = _reversed_fields(kind)
                for field_name in fields:
                    value: Any = getattr(node, field_name, None)
                    if value.__class__ is list:
                        for item in reversed(value):
                            if item is not None:
                                push((item, scope, loops, frame))
                    elif isinstance(value, node_class):
                        push((value, scope, loops, frame))
                continue
            for child, child_scope in reversed(children):
                if child_scope is scope:
                    push((child, scope, loops, frame))
                elif child_scope.kind == "comprehension":
                    push((child, child_scope, (*loops, node), frame))
                else:
                    push((child, child_scope, (), frame))

    def push_loop(
        self,
        node: ast.For | ast.AsyncFor | ast.While,
        scope: Scope,
        loops: Loops,
        frame: Frame,
        push: Callable[[tuple[ast.AST, Scope, Loops, Frame]], None],
    ) -> None:
        inner = (*loops, node)
        for child in reversed(node.orelse):
            push((child, scope, loops, frame))
        for child in reversed(node.body):
            push((child, scope, inner, frame))
        if isinstance(node, ast.While):
            push((node.test, scope, inner, frame))
        else:
            push((node.iter, scope, loops, frame))
            push((node.target, scope, inner, frame))

    def _dispatch(self) -> dict[type, Visitor]:
        table: dict[type, Visitor] = {
            ast.Name: self.visit_name,
            ast.Call: self.visit_call,
            ast.FunctionDef: self.visit_function,
            ast.AsyncFunctionDef: self.visit_function,
            ast.Lambda: self.visit_lambda,
            ast.ClassDef: self.visit_class,
            ast.Import: self.visit_import,
            ast.ImportFrom: self.visit_import_from,
            ast.Global: self.visit_global,
            ast.Nonlocal: self.visit_nonlocal,
            ast.NamedExpr: self.visit_named_expr,
            ast.ExceptHandler: self.visit_named_binder,
            ast.MatchAs: self.visit_named_binder,
            ast.MatchStar: self.visit_named_binder,
            ast.MatchMapping: self.visit_match_mapping,
        }
        for kind in COMPREHENSION_NODES:
            table[kind] = self.visit_comprehension
        for kind in (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete):
            table[kind] = self.visit_store_targets
        return table

    def new_scope(self, kind: str, node: ast.AST, parent: Scope) -> Scope:
        scope = Scope(kind, node, parent)
        self.created.append(scope)
        self.register(scope)
        return scope

    def register(self, scope: Scope) -> None:
        self.index.scopes[scope.node] = scope
        if scope.kind == "function":
            self.index.functions.append(scope)
            self.index.parents[scope.node] = scope.parent  # pyright: ignore[reportArgumentType]

    def visit_name(self, node: ast.Name, scope: Scope) -> Children:
        if not isinstance(node.ctx, ast.Load):
            self.bind_name(node.id, scope)
        return []

    def visit_comprehension(self, node: ast.AST, scope: Scope) -> Children:
        inner = self.new_scope("comprehension", node, scope)
        return [(child, inner) for child in children(node)]

    def visit_import(self, node: ast.Import, scope: Scope) -> Children:
        for alias in node.names:
            if alias.asname:
                scope.bind_import(alias.asname, alias.name)
            else:
                top = alias.name.split(".")[0]
                scope.bind_import(top, top)
        return []

    def visit_global(self, node: ast.Global, scope: Scope) -> Children:
        scope.declare(node.names, nonlocal_=False)
        return []

    def visit_nonlocal(self, node: ast.Nonlocal, scope: Scope) -> Children:
        scope.declare(node.names, nonlocal_=True)
        return []

    def visit_named_expr(self, node: ast.NamedExpr, scope: Scope) -> Children:
        self.bind_name(node.target.id, scope.function)
        return [(node.value, scope)]

    def visit_named_binder(
        self, node: ast.ExceptHandler | ast.MatchAs | ast.MatchStar, scope: Scope
    ) -> Children:
        if node.name:
            self.bind_name(node.name, scope)
        return None

    def visit_match_mapping(self, node: ast.MatchMapping, scope: Scope) -> Children:
        if node.rest:
            self.bind_name(node.rest, scope)
        return None

    def bind_name(self, name: str, scope: Scope) -> None:
        if name in scope.globals:
            self.module.bind(name)
        elif name in scope.nonlocals and scope.parent is not None:
            owner = scope.parent.lookup(name)
            (owner if owner is not None and owner.kind != "module" else scope.parent.function).bind(name)
        else:
            scope.bind(name)

    def visit_import_from(self, node: ast.ImportFrom, scope: Scope) -> Children:
        base = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                scope.import_star(base)
                continue
            qualname = f"{base}.{alias.name}" if base and not base.endswith(".") else base + alias.name
            scope.bind_import(alias.asname or alias.name, qualname)
        return []

    def visit_call(self, node: ast.Call, scope: Scope) -> Children:
        func = node.func
        tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        own = self.own_name(func.id, scope) if isinstance(func, ast.Name) else tail
        if own in self.interesting_calls or (
            isinstance(func, ast.Call) and callee_leaf(func) in WRAPPER_TAILS
        ):
            self.index.calls.append((node, scope))  # (and `optax.inject_hyperparams(optax.sgd)(...)`)
        if tail is not None:
            scope.function.note_call(tail)
            if (
                own in RANDOM_CONSUMERS
                or any(k.arg == "key" for k in node.keywords)  # `eqx.nn.Linear(key=k)`, `drop(x, key=k)`
                or (tail in RNGS_METHODS and any(k.arg == "rngs" for k in node.keywords))
                or bound_rngs_keys(node)  # `partial(model.apply, rngs={"dropout": key})`
                or init_keys(node)  # `model.init(key, x)`
            ):
                scope.function.note_random_call(node)  # a draw, a layer built from `key=`, `rngs=`
        elif _mapping_call(func):  # `jax.vmap(lambda k, _: model.init(k, x))(key, ids)`
            scope.function.note_random_call(node)
        elif isinstance(func, ast.Call) and any(k.arg in ("key", "rng") for k in node.keywords):
            scope.function.note_random_call(node)  # `nn.Dropout(0.5)(x, rng=k)`: a layer given a key
        for argument in node.args:  # a function passed on (`jax.jit(draw)`) may be called later
            passed = argument.attr if isinstance(argument, ast.Attribute) else getattr(argument, "id", None)
            if passed is not None:
                scope.function.note_call(passed)
                if passed in RANDOM_CONSUMERS:
                    scope.function.note_random_pass(argument)
        if (
            isinstance(func, ast.Attribute)
            and func.attr in MUTATING_METHODS
            and isinstance(func.value, ast.Name)
        ):
            self.index.mutations.append((node, scope, func.value.id))
        return None

    def own_name(self, name: str, scope: Scope) -> str:
        """The name a function imported under ``name`` has in its module (``jit`` for ``from jax
        import jit as jjit``, in the module or the calling function); else ``name``."""
        qualname = scope.function.imports.get(name) or self.module.imports.get(name)
        return name if qualname is None else qualname.rsplit(".", 1)[-1]

    def visit_store_targets(self, node: ast.AST, scope: Scope) -> Children:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                owner = self.module if target.id in scope.globals else scope
                owner.assign(target.id, node.value)
            elif _unpacks_display(target, node.value):  # `EOS, PAD = 2, 0`: each name its item
                for item, value in zip(target.elts, node.value.elts):  # pyright: ignore[reportAttributeAccessIssue]
                    if isinstance(item, ast.Name):
                        (self.module if item.id in scope.globals else scope).assign(item.id, value)
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets: list[ast.expr] = list(node.targets)
        else:
            targets = [node.target]  # pyright: ignore[reportAttributeAccessIssue]
        for target in _flattened(targets):
            base = target
            if isinstance(base, (ast.Subscript, ast.Attribute)):
                while isinstance(base, (ast.Subscript, ast.Attribute)):
                    base = base.value
                if isinstance(base, ast.Name):
                    self.index.mutations.append((target, scope, base.id))
            elif isinstance(node, ast.AugAssign) and isinstance(target, ast.Name):
                self.index.mutations.append((node, scope, target.id))
        return None

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> Children:
        scope.bind_def(node.name, node)
        if node.decorator_list:
            self.index.decorated.append((node, scope))
        outer: list[ast.AST] = [*node.decorator_list, *_argument_defaults(node.args)]
        outer += _annotations(node)
        inner = self.new_scope("function", node, scope)
        inner.params = _bind_params(node.args, inner)
        return [(child, scope) for child in outer] + [(stmt, inner) for stmt in node.body]

    def visit_lambda(self, node: ast.Lambda, scope: Scope) -> Children:
        inner = self.new_scope("function", node, scope)
        inner.params = _bind_params(node.args, inner)
        defaults = _argument_defaults(node.args)
        return [(child, scope) for child in defaults] + [(node.body, inner)]

    def visit_class(self, node: ast.ClassDef, scope: Scope) -> Children:
        scope.bind_def(node.name, node)
        self.index.classes.append((node, scope))
        outer: list[ast.AST] = [*node.decorator_list, *node.bases, *node.keywords]
        inner = self.new_scope("class", node, scope)
        return [(child, scope) for child in outer] + [(stmt, inner) for stmt in node.body]


# Fields that never hold a node worth visiting: names, operators and load/store contexts.
_LEAF_FIELDS = frozenset(
    {
        "ctx",
        "op",
        "id",
        "name",
        "arg",
        "attr",
        "module",
        "level",
        "asname",
        "kind",
        "type_comment",
        "conversion",
        "is_async",
        "rest",
        "kwd_attrs",
    }
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}
_REVERSED_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}


def _flattened(targets: list[ast.expr]) -> list[ast.expr]:
    """Assignment targets with tuple and list unpacking spread out (``self.key, sub = ...``)."""
    found: list[ast.expr] = []
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            found += _flattened(target.elts)
        elif isinstance(target, ast.Starred):
            found += _flattened([target.value])
        else:
            found.append(target)
    return found


def _reversed_fields(kind: type) -> tuple[str, ...]:
    fields = _REVERSED_FIELDS[kind] = tuple(reversed([f for f in kind._fields if f not in _LEAF_FIELDS]))
    return fields


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes worth visiting, in source order (faster than ``ast.iter_child_nodes``:
    it skips contexts, operators and fields that hold names)."""
    found: list[ast.AST] = []
    for name in child_fields(type(node)):
        value = getattr(node, name, None)
        if type(value) is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


def child_fields(kind: type) -> tuple[str, ...]:
    """The fields of a node type that may hold nodes worth visiting, in source order."""
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    return fields


def _reversed_children(node: ast.AST) -> Iterator[ast.AST]:
    return reversed(children(node))


def _unpacks_display(target: ast.expr, value: ast.expr) -> bool:
    """``a, b = 2, 0``: a tuple or list of targets bound to a display of as many items."""
    return (
        isinstance(target, (ast.Tuple, ast.List))
        and isinstance(value, (ast.Tuple, ast.List))
        and len(target.elts) == len(value.elts)
        and not any(isinstance(e, ast.Starred) for e in [*target.elts, *value.elts])
    )


def _argument_defaults(args: ast.arguments) -> list[ast.AST]:
    return [*args.defaults, *(d for d in args.kw_defaults if d is not None)]


def _annotations(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    args = node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    every += [a for a in (args.vararg, args.kwarg) if a is not None]
    found: list[ast.AST] = [a.annotation for a in every if a.annotation is not None]
    if node.returns is not None:
        found.append(node.returns)
    return found


def _bind_params(args: ast.arguments, scope: Scope) -> list[str]:
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    if args.vararg is not None:
        names.append(args.vararg.arg)
    names += [a.arg for a in args.kwonlyargs]
    if args.kwarg is not None:
        names.append(args.kwarg.arg)
    for name in names:
        scope.bind(name)
    return names


def build_index(
    tree: ast.Module,
    interesting_calls: frozenset[str],
    wanted: frozenset[type] = frozenset(),
    cache: ScopeCache | None = None,
) -> ModuleIndex:
    """Walk ``tree`` once: bind its scopes, collect the nodes of the ``wanted`` types in order.
    With a ``cache``, top-level statements unchanged since its last walk are replayed."""
    return _ScopeBuilder(tree, interesting_calls, wanted, cache).build()


def all_params(args: ast.arguments) -> list[ast.arg]:
    """Every parameter node in signature order."""
    params = [*args.posonlyargs, *args.args]
    if args.vararg is not None:
        params.append(args.vararg)
    params += args.kwonlyargs
    if args.kwarg is not None:
        params.append(args.kwarg)
    return params


def parameter_defaults(args: ast.arguments) -> dict[str, ast.expr]:
    """The default of each parameter that has one."""
    positional = [*args.posonlyargs, *args.args]
    found = {p.arg: d for p, d in zip(positional[len(positional) - len(args.defaults) :], args.defaults)}
    found |= {p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
    return found


def rngs_keys(node: ast.Call) -> list[ast.expr]:
    """The values of ``rngs={...}`` given to a flax module's ``apply``/``init``: the keys it
    draws from (its dropout masks, its noise)."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in RNGS_METHODS:
        return []
    return _rngs_values(node)


def _rngs_values(node: ast.Call) -> list[ast.expr]:
    """The values of the ``rngs={...}`` display ``node`` is given (none for another form)."""
    rngs = next((k.value for k in node.keywords if k.arg == "rngs"), None)
    return [v for v in rngs.values if v is not None] if isinstance(rngs, ast.Dict) else []


def init_keys(node: ast.Call) -> list[ast.expr]:
    """What ``module.init(key, x)`` (or ``init_with_output``) is given as its keys: the first
    argument, or the values of a dict of them (``{"params": k1, "dropout": k2}``); for a flax
    module, the keys its initialisation draws from."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in INIT_METHODS or not node.args:
        return []
    first = node.args[0]
    if isinstance(first, ast.Dict):
        return [v for v in first.values if v is not None]
    return [] if isinstance(first, ast.Starred) else [first]


def bound_rngs_keys(node: ast.Call) -> list[ast.expr]:
    """The values of ``rngs={...}`` that ``functools.partial(model.apply, rngs={...})`` binds:
    the keys every call of the partial function draws from."""
    first = node.args[0] if node.args else None
    if callee_leaf(node) != "partial" or not isinstance(first, ast.Attribute) or first.attr != "apply":
        return []
    return _rngs_values(node)


def _mapping_call(func: ast.expr) -> bool:
    """Whether ``func`` is written ``vmap(...)`` (any spelling): the mapped function may draw."""
    return isinstance(func, ast.Call) and callee_leaf(func) in MAPPING_NAMES
