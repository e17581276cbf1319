"""PRNG key flow: which calls consume a key that an earlier call already consumed.

A key is consumed by every ``jax.random`` sampler and by ``jax.random.split`` (``fold_in``,
``key_data`` and ``clone`` leave it usable). Each binding of a name makes a new key identity;
``k = key`` shares it. The analysis walks one function's statements in order, splitting at
branches and joining after them, and reports

- ``reuse``: an identity consumed twice on one path (JAX301), and
- ``loop``: an identity created outside a loop and consumed inside it, on a path that comes round
  again (JAX302): every iteration draws from the same key.

Helpers of the same module that consume a parameter count as consuming the argument they get.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jaxlint.engine.astutil import keyword_argument
from jaxlint.semantic import api
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import FUNCTION_NODES, Scope

if TYPE_CHECKING:
    from jaxlint.semantic.model import SemanticModel

KeyId = int
KeyExpr = tuple[str, object]  # (name, constant index or None)


@dataclass(frozen=True)
class KeyEvent:
    """A consumption of a key that was consumed before (``reuse``) or every iteration (``loop``)."""

    kind: str
    key: str
    first: ast.AST | None  # the earlier consumption, for reuse


@dataclass
class _State:
    env: dict[KeyExpr, frozenset[KeyId]] = field(default_factory=dict)
    consumed: dict[KeyId, ast.AST] = field(default_factory=dict)

    def copy(self) -> _State:
        return _State(dict(self.env), dict(self.consumed))


class _Loop:
    def __init__(self, node: ast.AST) -> None:
        self.node = node
        self.breaks: list[_State | None] = []
        self.back_edges: list[_State] = []
        self.candidates: list[tuple[ast.Call, KeyExpr, KeyId, str]] = []


class KeyFlow:
    """Key consumption analysis of one function body (or the module body)."""

    def __init__(self, model: SemanticModel, scope: Scope, body: list[ast.stmt], params: list[str]):
        self.model = model
        self.scope = scope
        self.body = body
        self.params = params
        self.events: dict[ast.Call, KeyEvent] = {}
        self.consumed_params: set[str] = set()
        self._ids = itertools.count()
        self._created_in: dict[KeyId, tuple[ast.AST, ...]] = {}
        self._param_ids: dict[KeyId, str] = {}
        self._phi_parts: dict[KeyId, frozenset[KeyId]] = {}
        self.loops: list[_Loop] = []

    @classmethod
    def empty(cls, model: SemanticModel) -> KeyFlow:
        return cls(model, model.index.module, [], [])

    def run(self) -> KeyFlow:
        state = _State()
        for name in self.params:
            key_id = self.fresh()
            self._param_ids[key_id] = name
            state.env[(name, None)] = frozenset({key_id})
        self.block(self.body, state)
        return self

    def join(self, a: _State | None, b: _State | None) -> _State | None:
        """Merge two paths. A name bound to different keys on the two paths gets a new key (a
        phi), consumed only if its own path consumed it: so a key consumed and rebound in one
        branch is not taken as reused after the branches meet."""
        if a is None or b is None:
            other = a if b is None else b
            return None if other is None else other.copy()
        consumed = dict(b.consumed)
        consumed.update(a.consumed)
        env: dict[KeyExpr, frozenset[KeyId]] = {}
        for name in a.env.keys() | b.env.keys():
            left, right = a.env.get(name), b.env.get(name)
            if left is None or right is None or left == right:
                env[name] = left or right or frozenset()
                continue
            phi = self.fresh()
            self._phi_parts[phi] = left | right
            env[name] = frozenset({phi})
            site = _first(a.consumed, left) or _first(b.consumed, right)
            if site is not None:
                consumed[phi] = site
        return _State(env, consumed)

    def fresh(self) -> KeyId:
        key_id = next(self._ids)
        self._created_in[key_id] = tuple(loop.node for loop in self.loops)
        return key_id

    # ------------------------------------------------------------------ statements

    def block(self, body: list[ast.stmt], state: _State | None) -> _State | None:
        for stmt in body:
            if state is None:
                return None
            state = self.stmt(stmt, state)
        return state

    def stmt(self, node: ast.stmt, state: _State) -> _State | None:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            value = node.value
            if value is not None:
                self.scan(value, state)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                self.bind(target, value, state)
            return state
        if isinstance(node, ast.If):
            self.scan(node.test, state)
            return self.join(self.block(node.body, state.copy()), self.block(node.orelse, state.copy()))
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            return self.loop(node, state)
        if isinstance(node, (ast.Return, ast.Raise)):
            for child in ast.iter_child_nodes(node):
                self.scan(child, state)
            return None
        if isinstance(node, ast.Break):
            if self.loops:
                self.loops[-1].breaks.append(state)
            return None
        if isinstance(node, ast.Continue):
            if self.loops:
                self.loops[-1].back_edges.append(state)
            return None
        if isinstance(node, ast.Try):
            after = self.block(node.body, state.copy())
            outcomes = [self.block(node.orelse, after.copy()) if after is not None else None]
            for handler in node.handlers:
                outcomes.append(self.block(handler.body, state.copy()))
            merged: _State | None = None
            for outcome in outcomes:
                merged = self.join(merged, outcome) if merged is not None else outcome
            return self.block(node.finalbody, merged) if merged is not None else None
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self.scan(item.context_expr, state)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, None, state)
            return self.block(node.body, state)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            state.env.pop((node.name, None), None)
            return state
        if isinstance(node, ast.Match):
            self.scan(node.subject, state)
            merged = state.copy()
            for case in node.cases:
                merged = self.join(merged, self.block(case.body, state.copy()))
            return merged
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.scan(child, state)
        return state

    def loop(self, node: ast.For | ast.AsyncFor | ast.While, state: _State) -> _State | None:
        if isinstance(node, ast.While):
            self.scan(node.test, state)
        else:
            self.scan(node.iter, state)
        frame = _Loop(node)
        self.loops.append(frame)
        body_state = state.copy()
        if not isinstance(node, ast.While):
            self.bind(node.target, None, body_state)
        end = self.block(node.body, body_state)
        self.loops.pop()
        if end is not None:
            frame.back_edges.append(end)
        for call, key, key_id, name in frame.candidates:
            if any(key_id in edge.env.get(key, ()) for edge in frame.back_edges):
                self.events.setdefault(call, KeyEvent("loop", name, None))
        after = self.join(state, end)
        after = self.block(node.orelse, after) if after is not None else None
        for broken in frame.breaks:
            after = self.join(after, broken) if after is not None else broken
        return after

    # ------------------------------------------------------------------ bindings

    def bind(self, target: ast.AST, value: ast.expr | None, state: _State) -> None:
        if isinstance(target, ast.Name):
            source = _key_expr(value) if value is not None else None
            if source is not None and source in state.env:
                state.env[(target.id, None)] = state.env[source]
            else:
                state.env[(target.id, None)] = frozenset({self.fresh()})
            for key in [k for k in state.env if k[0] == target.id and k[1] is not None]:
                del state.env[key]
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind(element.value if isinstance(element, ast.Starred) else element, None, state)
        elif isinstance(target, ast.Subscript):
            key = _key_expr(target)
            if key is not None:
                state.env[key] = frozenset({self.fresh()})

    # ------------------------------------------------------------------ consumption

    def scan(self, expr: ast.AST, state: _State) -> None:
        """Find key consumptions inside ``expr`` in evaluation order (not inside lambdas)."""
        calls: list[ast.Call] = []
        stack = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, FUNCTION_NODES):
                continue
            if isinstance(node, ast.Call):
                calls.append(node)
            stack.extend(ast.iter_child_nodes(node))
        for call in sorted(calls, key=_evaluation_order):
            for key in self.consumed_keys(call):
                self.consume(call, key, state)

    def consumed_keys(self, call: ast.Call) -> list[KeyExpr]:
        qualname = self.model.resolver.qualname(call.func, self.scope)
        if qualname is not None:
            if not qualname.startswith("jax.random.") or qualname in api.KEY_NEUTRAL:
                return []
            argument = call.args[0] if call.args else keyword_argument(call, "key")
            key = None if argument is None else _key_expr(argument)
            return [] if key is None else [key]
        found = self.model.resolve_function(call.func, self.scope)
        if found is None:
            return []
        target, offset = found
        consumed = self.model.consumed_params(target)
        if not consumed:
            return []
        positional = target.positional_names()[offset:]
        keys: list[KeyExpr] = []
        for name, arg in zip(positional, call.args):
            if isinstance(arg, ast.Starred):
                break
            key = _key_expr(arg)
            if name in consumed and key is not None:
                keys.append(key)
        for keyword in call.keywords:
            key = _key_expr(keyword.value)
            if keyword.arg in consumed and key is not None:
                keys.append(key)
        return keys

    def consume(self, call: ast.Call, key: KeyExpr, state: _State) -> None:
        ids = state.env.get(key)
        if ids is None:
            if key[1] is not None and (key[0], None) in state.env:
                ids = frozenset({self.fresh()})
                state.env[key] = ids
            else:
                return
        name = key[0] if key[1] is None else f"{key[0]}[{key[1]!r}]"
        for key_id in ids:
            first = state.consumed.get(key_id)
            if first is not None and first is not call:
                self.events.setdefault(call, KeyEvent("reuse", name, first))
            state.consumed.setdefault(key_id, call)
            self.consumed_params.update(self._params_behind(key_id))
            if self.loops and self._created_outside(key_id):
                self.loops[-1].candidates.append((call, key, key_id, name))

    def _params_behind(self, key_id: KeyId, depth: int = 0) -> set[str]:
        if key_id in self._param_ids:
            return {self._param_ids[key_id]}
        found: set[str] = set()
        if depth < 32:
            for part in self._phi_parts.get(key_id, ()):
                found |= self._params_behind(part, depth + 1)
        return found

    def _created_outside(self, key_id: KeyId) -> bool:
        created = self._created_in.get(key_id, ())
        return self.loops[-1].node not in created


def _first(consumed: dict[KeyId, ast.AST], ids: frozenset[KeyId]) -> ast.AST | None:
    return next((consumed[i] for i in ids if i in consumed), None)


def _key_expr(expr: ast.AST | None) -> KeyExpr | None:
    if isinstance(expr, ast.Name):
        return (expr.id, None)
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Name)
        and isinstance(expr.slice, ast.Constant)
    ):
        return (expr.value.id, expr.slice.value)
    return None


def _evaluation_order(call: ast.Call) -> tuple[int, int, int, int]:
    """Inner calls run before the calls that take their results; then left to right."""
    end_line = call.end_lineno or call.lineno
    end_col = call.end_col_offset or call.col_offset
    return (end_line, end_col, call.lineno, call.col_offset)


def analyze_keys(model: SemanticModel, info: FunctionInfo | None) -> KeyFlow:
    """Run the key analysis over a function (or the module body when ``info`` is None)."""
    if info is None:
        return KeyFlow(model, model.index.module, model.tree.body, []).run()
    node = info.node
    body = [ast.Return(node.body)] if isinstance(node, ast.Lambda) else node.body
    params = [p.arg for p in info.param_nodes()]
    return KeyFlow(model, info.scope, body, params).run()  # pyright: ignore[reportArgumentType]
