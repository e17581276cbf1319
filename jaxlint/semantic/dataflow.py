"""The dataflow interpreter: runs one function body over abstract values, statement by statement.

Flow-sensitive: each statement maps an environment (name -> value) to the next; branches are
joined, loops iterate to a fixed point, ``return``/``raise``/``break`` end a path. Every expression
it evaluates is recorded in ``model.values`` for the rules to read. Calls into other functions of the
module with traced arguments are reported to the model, which then analyses those helpers as traced.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from jaxlint.engine.astutil import NOT_CONSTANT, constant_value, encloses, keyword_argument, without_not
from jaxlint.semantic import api, measured
from jaxlint.semantic.bodies import LOOPING_BODIES, own_nodes, step_counter
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.keys import (
    KeyEvent,
    KeyId,
    KeyTracker,
    LoopFrame,
    State,
    ancestors,
    bound_index,
    constant_fold,
    copies,
    copies_site,
    copy_of,
    derived,
    excepting,
    folded,
    holds_carried,
    indexed_by,
    initialised,
    is_fold,
    join_states,
    lineage,
    made_inside,
    spread_base,
)
from jaxlint.semantic.records import traced_instance
from jaxlint.semantic.scopes import Scope, bound_rngs_keys, init_keys, parameter_defaults, rngs_keys
from jaxlint.semantic.tracing import annotation_kind_in, bind_values, initial_param_value
from jaxlint.semantic.transforms import (
    ABSTRACT,
    CALL_STAGING,
    COMPILED_OUTPUTS,
    CONCRETE,
    FILTER_KINDS,
    FLAX_LIFTED,
    JITTING_KINDS,
    MAPPING,
    NONE,
    PARTIALS,
    STAGED,
    TREE_MAPS,
    UNHASHING_KINDS,
    Transform,
    body_operand,
    function_arguments,
)
from jaxlint.semantic.values import (
    CONTAINER,
    NUMPY_ARRAY,
    STATIC,
    TRACED,
    TRACED_ARRAY,
    TRACED_CONTAINER,
    TRACED_MASK,
    UNKNOWN,
    ClassRef,
    FunctionRef,
    InstanceRef,
    LayerRef,
    LibraryRef,
    Ref,
    Value,
    all_key_ids,
    array,
    as_array,
    as_container,
    combine,
    compiled_output,
    concatenate,
    container,
    element,
    entries,
    entry_values,
    field_of,
    filter_traced,
    gradient,
    gradient_like,
    holding_tracer,
    holds_arrays,
    instance_classes,
    is_container,
    is_jax_array,
    is_mapping,
    is_mask,
    is_numpy_array,
    is_plain_static,
    is_static,
    is_traced,
    iterated,
    join,
    join_all,
    key_ids,
    keyed_parts,
    keys_along_all,
    keys_of_the_keyed_field,
    known_container,
    known_elements,
    leaf_part,
    library_layer,
    mapping,
    mask_of,
    not_mask,
    record,
    record_kind,
    referring,
    refs,
    sequence,
    subscript,
    traced,
    traced_leaves,
    traced_variable,
    tree_leaves,
    untraced,
    whole,
    with_fields,
    with_items,
    with_keys,
    without_elements,
    without_keys,
)

if TYPE_CHECKING:
    from jaxlint.semantic.model import SemanticModel

Env = dict[str, Value]
MAX_LOOP_PASSES = 4
MAX_LAYERS = 8  # transformations kept on a function value (f = jax.jit(f) in a loop...)


class _Loop:
    def __init__(self) -> None:
        self.breaks: list[State | None] = []
        self.continues: list[State | None] = []


class Interpreter:
    """Abstract interpretation of one function (or the module body)."""

    def __init__(self, model: SemanticModel, info: FunctionInfo | None) -> None:
        self.model = model
        self.info = info
        self.scope: Scope = info.scope if info is not None else model.index.module
        self.level = info.effective_level if info is not None else NONE
        # what this function calls runs compiled unless it is itself only traced for shapes
        self.runs = info is None or not info.only_traced_for_shapes
        self.compile_time_eval = 0  # depth of `with jax.ensure_compile_time_eval():` blocks
        self.resolver = model.resolver
        self.values = model.values
        self.state: State | None = State()
        self.summary: Env = {}
        self.returns: Value | None = None
        self.loops: list[_Loop] = []
        self.outer_reads: list[ast.Name] = []  # names read before any local binding
        self.tracker: KeyTracker | None = None
        # the tests of parameters the statement being run depends on (`if train:`), with the
        # truth each needs
        self.guards: list[tuple[ast.expr, bool]] = []
        if model.tracks_keys(self.scope):
            self.tracker = KeyTracker(local_names=frozenset(self.scope.bound), guards=self.guards)
        self.step_folds: set[KeyId] = set()  # keys folded with this fori_loop body's step index
        self.stores_attributes = False  # whether `obj.attr = ...` was met (names "obj.attr" in state)
        self.keys_written_back: set[str] = set()  # names a new key was stored in an item of

    # ------------------------------------------------------------------ entry points

    def run_module(self, tree: ast.Module) -> Env:
        self.block(tree.body)
        return self.summary

    def run_function(self) -> tuple[Value, Env]:
        info = self.info
        assert info is not None
        node = info.node
        self.state = State()
        for param in info.param_nodes():
            value = info.params.get(param.arg)
            if value is None:
                value = initial_param_value(self.model, info, param.arg)
            if self.tracker is not None:
                key = ("param", node, param.arg)
                self.tracker.param_ids[key] = param.arg
                value = keyed_parts(value, key, derived)
            self.assign_name(param.arg, value)
        if isinstance(node, ast.Lambda):
            self.returns = self.eval(node.body)
        else:
            self.block(node.body)
            if self.state is not None:
                self.add_return(STATIC)
        info.outer_reads = self.outer_reads
        returns = UNKNOWN if self.returns is None else self.returns
        if self.tracker is not None:
            self.finish_keys(info, returns)
        return returns, self.summary

    def staged(self, value: Value) -> Value:
        """``value``, the result of an operation on JAX arrays: a tracer in staged code (not
        under ``jax.ensure_compile_time_eval``, where constants are computed eagerly)."""
        if self.level == STAGED and not self.compile_time_eval and is_jax_array(value):
            return traced(value)
        return value

    def staging(self, operands: list[Value]) -> bool:
        """Whether a JAX operation here on ``operands`` gives a tracer: always in staged code
        (``jit``, ``lax`` bodies: omnistaging), on traced operands under a bare ``vmap`` or
        under ``jax.ensure_compile_time_eval``."""
        if self.level == STAGED and not self.compile_time_eval:
            return True
        return self.level >= CONCRETE and any(is_traced(v) for v in operands)

    # ------------------------------------------------------------------ paths

    def join(self, a: State | None, b: State | None, site: ast.AST) -> State | None:
        """The state where two paths meet at ``site``."""
        return join_states(a, b, site, self.tracker)

    def join_all(self, states: list[State | None], site: ast.AST) -> State | None:
        result: State | None = None
        for state in states:
            result = (
                self.join(result, state, site) if result is not None else (state.copy() if state else None)
            )
        return result

    def restored(self, saved: State | None, branches: list[State | None]) -> State | None:
        """After an expression that branched (``and``, ``a if c else b``, a comprehension): the
        names as they were (what a condition proved holds only inside it), the keys consumed on
        any branch."""
        if saved is None:
            return None
        consumed = dict(saved.consumed)
        for branch in branches:
            if branch is not None:
                for key, call in branch.consumed.items():
                    consumed.setdefault(key, call)
        return State(saved.names, consumed)

    def enter_key_loop(self, node: ast.AST) -> LoopFrame | None:
        if self.tracker is None:
            return None
        frame = LoopFrame(node)
        self.tracker.loops.append(frame)
        return frame

    def exit_key_loop(self, frame: LoopFrame | None, edges: list[State | None]) -> None:
        if frame is None or self.tracker is None:
            return
        self.tracker.loops.pop()
        frame.back_edges = [edge for edge in edges if edge is not None]

    def add_return(self, value: Value) -> None:
        self.returns = value if self.returns is None else join(self.returns, value)

    # ------------------------------------------------------------------ bindings

    def binding(self, target: ast.Name, value: Value) -> Value:
        """``value`` as bound to ``target`` here: a value without keys gets the identity of this
        binding (``keys[i]`` is one key for as long as ``i`` keeps it)."""
        if self.tracker is not None and not key_ids(value):
            return with_keys(value, frozenset({self.fresh_key(("bind", target))}))
        return value

    def assign_name(self, name: str, value: Value) -> None:
        if self.state is not None:
            self.state.names[name] = value
            if self.stores_attributes:
                self.forget_attributes(name)
        old = self.summary.get(name)
        self.summary[name] = value if old is None else join(old, value)

    def bind(self, target: ast.AST, value: Value) -> None:
        if isinstance(target, ast.Name):
            value = self.binding(target, value)
        self.values[target] = value
        if isinstance(target, ast.Name):
            self.assign_name(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.bind_sequence(target.elts, value)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, whole(value))
        elif isinstance(target, ast.Subscript):
            self.eval(target.value)
            self.eval(target.slice)
            self.taint_container(target.value, value, target.slice)
            self.store_key_item(target, value)
        elif isinstance(target, ast.Attribute):
            self.eval(target.value)
            if isinstance(target.value, ast.Name) and self.state is not None:
                self.stores_attributes = True  # `self.value = ...`, read back below as stored
                self.state.names[f"{target.value.id}.{target.attr}"] = value
            if _names_functions(value) and isinstance(target.value, ast.Name):
                cls = self.model.class_of_self(self.scope, target.value.id)
                if cls is not None:  # `self.loss_fn = loss_fn`: read back in the class's methods
                    self.model.store_self_function(cls, target.attr, value)

    def store_key_item(self, target: ast.Subscript, value: Value) -> None:
        """``state["key"] = new`` (``keys[0], sub = split(keys[0])``): a key stored under a
        constant item of a name, read back below as stored, like an attribute."""
        slot = _item_slot(target)
        if self.tracker is None or self.state is None or not key_ids(value) or slot is None:
            return
        self.stores_attributes = True
        self.state.names[slot] = value
        self.keys_written_back.add(slot.split(".[", 1)[0])

    def stored_item(self, node: ast.Subscript) -> Value | None:
        """``state["key"]`` as this function last stored a key there (see :meth:`store_key_item`)."""
        slot = _item_slot(node)
        if not self.stores_attributes or slot is None or self.state is None:
            return None
        return self.state.names.get(slot)

    def forget_attributes(self, name: str) -> None:
        """``name`` rebound, or handed to code that may change it: what was stored on its
        attributes here is no longer known."""
        state = self.state
        if state is None:
            return
        prefix = f"{name}."
        for stored in [n for n in state.names if n.startswith(prefix)]:
            del state.names[stored]

    def stored_attribute(self, node: ast.Attribute) -> Value | None:
        """``obj.attr`` as this function last stored it (``self.value = ...; self.value.sum()``)."""
        if not self.stores_attributes or not isinstance(node.value, ast.Name) or self.state is None:
            return None
        return self.state.names.get(f"{node.value.id}.{node.attr}")

    def self_function(self, node: ast.Attribute) -> Value | None:
        """``self.loss_fn``: the functions this class's methods store there, if any; or the
        object of this module's class that ``setup``/``__init__`` alone stores there (a flax
        submodule, ``self.encoder = Encoder(...)``). The same through any name of a known
        object of the class (``NET.stats``, where ``NET = Network()``)."""
        owner = node.value
        cls = self.model.class_of_self(self.scope, owner.id) if isinstance(owner, ast.Name) else None
        if cls is None and isinstance(owner, (ast.Name, ast.Attribute)):
            cls = self.class_of(self.values.get(owner, UNKNOWN), owner)
        if cls is None:
            return None
        found = self.model.read_self_function(cls, node.attr, self.info)
        if found is None:
            held = self.model.held_instance(cls, node.attr)
            found = None if held is None else referring([InstanceRef(held)])
        if found is None and self.model.self_stores(cls).get(node.attr) is None:
            # a method of the class, bound to the object (`jax.jit(self.noise)`): never an
            # attribute some method stores, which would shadow it on the object
            method = self.model.bound_method(InstanceRef(cls), node.attr)
            found = None if method is None else referring([method])
        return found

    def bind_sequence(self, targets: list[ast.expr], value: Value) -> None:
        starred = any(isinstance(t, ast.Starred) for t in targets)
        known = known_elements(value)
        if known is not None and len(known) == len(targets) and not starred:
            for target, item in zip(targets, known):
                self.bind(target, item)
            return
        item = element(value)
        parents = key_ids(value) if self.tracker is not None and not starred else frozenset()
        for position, target in enumerate(targets):
            if isinstance(target, ast.Starred):
                self.bind(target, container([item]))
            elif parents:  # `k, x = carry`: the elements of a key (or carry) keep their identity
                self.bind(target, with_keys(item, frozenset(derived(key, position) for key in parents)))
            else:
                self.bind(target, item)

    def taint_container(self, base: ast.expr, stored: Value, key: ast.expr | None = None) -> None:
        """A container that receives a traced value now holds a tracer; a dict whose entries
        are known gets the new entry under a constant key (``d["n"] = 3``), a list whose items are
        known the new item at a constant position (``xs[0] = v``); either is known only as a
        whole after a store elsewhere."""
        if not isinstance(base, ast.Name) or self.state is None:
            return
        old = self.state.names.get(base.id, UNKNOWN)
        known = entries(old)
        if known is not None and isinstance(key, ast.Constant) and type(key.value) is str:
            kept = [(k, v) for k, v in known if k != key.value]
            self.assign_name(base.id, mapping([*kept, (key.value, stored)]))
            # code elsewhere (a closure, a function reading a global) may read it before the
            # store or after it: there its entries are known only as a whole
            self.summary[base.id] = whole(self.summary[base.id])
            return
        items = known_elements(old)
        position = _item_position(key, items)
        if items is not None and position is not None:  # `args[0] = jnp.array(3)`: that item is known
            self.rebind_items(base.id, [*items[:position], stored, *items[position + 1 :]])
            return
        # after `xs[0] = 1.0` or `xs.append(v)`, a list of arrays is one no more
        new = old if is_jax_array(stored) and not is_container(stored) else without_elements(old)
        if is_traced(stored):
            new = holding_tracer(new if items is None else whole(new))
        elif known is not None or items is not None:
            new = whole(new)
        if new is not old:
            self.assign_name(base.id, new)

    def rebind_items(self, name: str, items: list[Value]) -> None:
        """``name`` now holds a list of these known items (an item stored, one appended). Code
        elsewhere (a closure, a function reading a global) may read it before the change or
        after it: there it is known only as a whole."""
        self.assign_name(name, sequence(items))
        self.summary[name] = whole(self.summary[name])

    # ------------------------------------------------------------------ statements

    def block(self, body: list[ast.stmt]) -> None:
        handlers = _STATEMENTS
        guards = self.guards
        depth = len(guards)  # `if not train: return x` guards the rest of this block
        for stmt in body:
            if self.state is None:
                break
            handler = handlers.get(type(stmt))
            if handler is None:
                self.generic(stmt)
            else:
                handler(self, stmt)
        del guards[depth:]

    def generic(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.eval(child)
            elif isinstance(child, ast.stmt):
                self.block([child])

    def s_expr(self, node: ast.Expr) -> None:
        self.eval(node.value)

    def s_assign(self, node: ast.Assign) -> None:
        value = self.eval(node.value)
        for target in node.targets:
            self.bind(target, value)

    def s_annassign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            value = self.eval(node.value)
            if (
                is_traced(value)
                and annotation_kind_in(self.model, node.annotation, self.scope) == "container"
            ):
                value = as_container(value)  # `xs: list[Any] = ...`
            self.bind(node.target, value)

    def s_augassign(self, node: ast.AugAssign) -> None:
        rhs = self.eval(node.value)
        target = node.target
        if isinstance(target, ast.Name):
            current = self.load(target.id)
            self.values[target] = current
            self.assign_name(target.id, self.binding(target, self.binop(node.op, current, rhs, None)))
        elif isinstance(target, ast.Subscript):
            self.eval(target.value)
            self.eval(target.slice)
            self.taint_container(target.value, rhs)
        elif isinstance(target, ast.Attribute):
            self.eval(target.value)

    def s_if(self, node: ast.If) -> None:
        self.eval(node.test)
        when_true, when_false = self.narrowing(node.test)
        live_true, live_false = self.live_branches(node.test)
        guard = node.test if self.decided_by_parameters(node.test) else None
        entry = self.state
        self.state = entry.narrowed(when_true) if entry is not None and live_true else None
        self.guarded(guard, True, node.body)
        after_body = self.state
        self.state = entry.narrowed(when_false) if entry is not None and live_false else None
        self.guarded(guard, False, node.orelse)
        self.state = self.join(after_body, self.state, node)
        if guard is not None and after_body is None and not node.orelse and self.state is not None:
            self.guards.append((guard, False))  # `if not train: return x`: the rest runs on the other

    def decided_by_parameters(self, test: ast.expr) -> bool:
        """Whether ``test`` is decided by parameters the function never rebinds and constants
        alone (``if train:``, ``if rate == 0.0 or deterministic:``, ``if mode == "eval":``): a
        call passing constants for them decides it."""
        if self.tracker is None or self.info is None:
            return False
        params = {p.arg for p in self.info.param_nodes()}
        for node in ast.walk(test):
            if isinstance(node, ast.Name):
                if node.id not in params or self.scope.bound.get(node.id) != 1:
                    return False
            elif not isinstance(node, _CONSTANT_TEST_NODES):
                return False
        return True

    def guarded(self, guard: ast.expr | None, truth: bool, body: list[ast.stmt]) -> None:
        if guard is None:
            self.block(body)
            return
        self.guards.append((guard, truth))
        self.block(body)
        self.guards.pop()

    def s_for(self, node: ast.For | ast.AsyncFor) -> None:
        iterable = self.eval(node.iter)
        item = self.iteration_value(node.iter, iterable, (node.target, node.body))
        self.loop(node, lambda: self.bind(node.target, item))

    def s_while(self, node: ast.While) -> None:
        self.loop(node, lambda: self.eval(node.test))

    def loop(self, node: ast.For | ast.AsyncFor | ast.While, head_action: Callable[[], Any]) -> None:
        head = self.state
        frame = _Loop()
        keys: LoopFrame | None = None
        for _ in range(MAX_LOOP_PASSES):
            frame = _Loop()
            self.loops.append(frame)
            keys = self.enter_key_loop(node)
            self.state = head.copy() if head is not None else None
            head_action()
            self.block(node.body)
            self.loops.pop()
            edges = [self.state, *frame.continues]
            self.exit_key_loop(keys, edges)
            new_head = self.join_all([head, *edges], node)
            if new_head == head:
                break
            head = new_head
        if keys is not None and self.tracker is not None:
            self.tracker.close_loop(keys)
        self.state = head.copy() if head is not None else None
        self.block(node.orelse)
        self.state = self.join_all([self.state, *frame.breaks], node)

    def s_break(self, node: ast.Break) -> None:
        if self.loops:
            self.loops[-1].breaks.append(self.state)
        self.state = None

    def s_continue(self, node: ast.Continue) -> None:
        if self.loops:
            self.loops[-1].continues.append(self.state)
        self.state = None

    def s_return(self, node: ast.Return) -> None:
        value = STATIC if node.value is None else self.eval(node.value)
        self.add_return(value)
        if self.info is not None and self.tracker is not None and self.state is not None:
            self.info.spent_returns = self.spent_keys(node, value)
        self.state = None

    def spent_keys(self, node: ast.Return, value: Value) -> dict[int | None, ast.Call]:
        """``return noise, key`` after ``reset(key)`` split it: the positions of the returned keys
        this run consumed for sure (the function's one return, its last statement, and each
        consumed by a statement of the body itself, not in a branch or loop), with the call that
        consumed each."""
        function = self.info.node if self.info is not None else None
        body = function.body if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        if not body or body[-1] is not node or self.state is None:
            return {}
        items = known_elements(value)
        parts: list[tuple[int | None, Value]] = (
            list(enumerate(items)) if items is not None else [(None, value)]
        )
        consumed = self.state.consumed
        found = {position: [consumed.get(k) for k in key_ids(part)] for position, part in parts}
        found = {position: calls for position, calls in found.items() if calls and None not in calls}
        if not found or sum(isinstance(n, ast.Return) for n in own_nodes(body)) != 1:
            return {}  # (the walks below only where a returned key was consumed)
        straight = {id(c) for stmt in body if not isinstance(stmt, BRANCHING) for c in ast.walk(stmt)}
        return {
            position: calls[0]  # pyright: ignore[reportReturnType]
            for position, calls in found.items()
            if all(id(c) in straight for c in calls)
        }

    def s_raise(self, node: ast.Raise) -> None:
        for part in (node.exc, node.cause):
            if part is not None:
                self.eval(part)
        self.state = None

    def s_try(self, node: ast.Try) -> None:
        entry = self.state
        self.state = entry.copy() if entry is not None else None
        self.block(node.body)
        after_body = self.state
        handler_entry = self.join(entry, after_body, node) if entry is not None else after_body
        outcomes: list[State | None] = []
        self.state = after_body
        self.block(node.orelse)
        outcomes.append(self.state)
        for handler in node.handlers:
            self.state = handler_entry.copy() if handler_entry is not None else None
            if handler.type is not None:
                self.eval(handler.type)
            if handler.name:
                self.assign_name(handler.name, UNKNOWN)
            self.block(handler.body)
            outcomes.append(self.state)
        merged = self.join_all(outcomes, node)
        if node.finalbody:
            self.state = merged if merged is not None else handler_entry
            self.block(node.finalbody)
            if merged is None:
                self.state = None
        else:
            self.state = merged

    def s_with(self, node: ast.With | ast.AsyncWith) -> None:
        eager = False
        for item in node.items:
            self.eval(item.context_expr)
            expr = item.context_expr
            eager |= (
                isinstance(expr, ast.Call)
                and self.resolver.qualname(expr.func, self.scope) in api.COMPILE_TIME_EVAL
            )
            if item.optional_vars is not None:
                self.bind(item.optional_vars, UNKNOWN)
        self.compile_time_eval += eager
        try:
            self.block(node.body)
        finally:
            self.compile_time_eval -= eager

    def s_assert(self, node: ast.Assert) -> None:
        self.eval(node.test)
        if node.msg is not None:
            self.eval(node.msg)

    def s_delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                if self.state is not None:
                    self.state.names.pop(target.id, None)
            else:
                self.generic(target)
                if isinstance(target, ast.Subscript):
                    self.taint_container(target.value, STATIC)  # `del d[k]`

    def s_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for expr in [*node.decorator_list, *node.args.defaults]:
            self.eval(expr)
        if node.decorator_list and self.level == NONE:
            self.decorate(node, node.decorator_list[-1])
        for default in node.args.kw_defaults:
            if default is not None:
                self.eval(default)
        self.nested(node)
        value = self.model.function_value(node, self.scope)
        held = self.default_keys(node) if self.info is not None else ()
        if held:  # `def inner(y, key=key)`: every call that leaves the key out draws from it
            value = referring(
                dataclasses.replace(ref, held=ref.held + held)
                if isinstance(ref, FunctionRef) and ref.node is node
                else ref
                for ref in refs(value)
            )
        self.assign_name(node.name, value)

    def default_keys(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    ) -> tuple[tuple[str, str, frozenset[object]], ...]:
        """The keys a nested ``def`` or lambda takes as defaults, evaluated when it is made."""
        return self.keys_among(parameter_defaults(node.args).items())

    def keys_among(
        self, bindings: Iterable[tuple[str, ast.expr]]
    ) -> tuple[tuple[str, str, frozenset[object]], ...]:
        """Of ``(parameter, expression)`` pairs, those whose expression holds a PRNG key, as a
        function value holds them: ``(parameter, how the key is written, its identities)``."""
        if self.tracker is None:
            return ()
        held = []
        for name, expr in bindings:
            keys = key_ids(self.values.get(expr, UNKNOWN))
            if keys:
                held.append((name, _key_text(expr), keys))
        return tuple(held)

    def decorate(self, node: ast.FunctionDef | ast.AsyncFunctionDef, decorator: ast.expr) -> None:
        """``@compiled`` over ``def f``: a decorator of this module receives ``f``."""
        plain = referring([FunctionRef(node)])
        for ref in refs(self.values.get(decorator, UNKNOWN)):
            if not isinstance(ref, FunctionRef) or ref.layers:
                continue
            target = self.model.infos.get(ref.node)
            if target is not None and target is not self.info:
                self.hand_functions(target, bind_values(target, ref.offset, [plain], {}))

    def s_class(self, node: ast.ClassDef) -> None:
        for expr in [*node.decorator_list, *node.bases]:
            self.eval(expr)
        self.assign_name(node.name, referring([ClassRef(node)]))

    def s_import(self, node: ast.Import | ast.ImportFrom) -> None:
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            if name == "*":
                continue
            value = STATIC
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                value = self.model.library_value(f"{node.module}.{alias.name}")
            self.assign_name(name, value)

    def s_pass(self, node: ast.AST) -> None:
        return

    def s_match(self, node: ast.Match) -> None:
        self.eval(node.subject)
        entry = self.state
        outcomes: list[State | None] = [entry]
        for case in node.cases:
            self.state = entry.copy() if entry is not None else None
            for child in ast.walk(case.pattern):
                name = getattr(child, "name", None) or getattr(child, "rest", None)
                if isinstance(name, str):
                    self.assign_name(name, UNKNOWN)
            if case.guard is not None:
                self.eval(case.guard)
            self.block(case.body)
            outcomes.append(self.state)
        self.state = self.join_all(outcomes, node)

    def nested(self, node: ast.AST) -> None:
        child = self.model.infos.get(node)
        if child is None or self.info is None:
            return
        if self.level > NONE:
            reason = f"`{child.name}` is nested in traced `{self.info.name}`"
            if child.inherit(self.level, self.info.why or reason):
                self.model.enqueue(child)

    # ------------------------------------------------------------------ expressions

    def eval(self, node: ast.expr) -> Value:
        handler = _EXPRESSIONS.get(type(node))
        if handler is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.eval(child)
            value: Value = UNKNOWN
        else:
            value = handler(self, node)
        self.values[node] = value
        return value

    def current(self, name: str) -> Value:
        """The value of ``name`` at the point this run has reached (else all it has held so far)."""
        state = self.state
        if state is not None and name in state.names:
            return state.names[name]
        return self.summary.get(name, UNKNOWN)

    def load(self, name: str) -> Value:
        state = self.state
        if state is not None and name in state.names:
            return state.names[name]
        return self.model.outer_value(self.scope, name)

    def e_name(self, node: ast.Name) -> Value:
        state = self.state
        if state is not None and node.id in state.names:
            return state.names[node.id]
        self.outer_reads.append(node)
        return self.model.outer_value(self.scope, node.id)

    def e_constant(self, node: ast.Constant) -> Value:
        return STATIC

    def e_joined_str(self, node: ast.JoinedStr) -> Value:
        for part in node.values:
            self.eval(part)
        return STATIC

    def e_formatted(self, node: ast.FormattedValue) -> Value:
        self.eval(node.value)
        if node.format_spec is not None:
            self.eval(node.format_spec)
        return STATIC

    def e_tuple(self, node: ast.Tuple | ast.List) -> Value:
        elements = [self.eval(e) for e in node.elts]
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return container(self.unpacked(node.elts, elements))
        return sequence(elements)

    def e_list(self, node: ast.List | ast.Set) -> Value:
        """A list display is known item by item, as a tuple is, until something stores into it
        (see :meth:`taint_container`); a set only as a whole."""
        if isinstance(node, ast.List):
            return self.e_tuple(node)
        return container(self.unpacked(node.elts, [self.eval(e) for e in node.elts]))

    @staticmethod
    def unpacked(elements: list[ast.expr], values: list[Value]) -> list[Value]:
        """The items a display holds: what a ``*spread`` iterates (a dict's keys), the others."""
        return [iterated(v) if isinstance(e, ast.Starred) else v for e, v in zip(elements, values)]

    def e_dict(self, node: ast.Dict) -> Value:
        """A dict display: its entries under constant keys, a ``**spread`` dict's entries where
        known; an entry under a computed key (or an unknown spread) leaves it known as a whole."""
        known: dict[object, Value] = {}
        others: list[Value] = []
        for position, (key, value_node) in enumerate(zip(node.keys, node.values, strict=True)):
            if key is not None:
                self.eval(key)
            value = self.eval(value_node)
            spread = entries(value) if key is None else None
            if spread is not None:
                known.update(spread)
            elif isinstance(key, ast.Constant) and type(key.value) in (str, int):
                known[key.value] = value
            elif key is None and (replaced := _replaced_after(node, position)):
                # `{**carry, "rng": new}`: the spread's own "rng" is not in the dict
                others.append(with_keys(value, frozenset(excepting(k, replaced) for k in key_ids(value))))
            else:
                others.append(value)
        return mapping(known.items(), others)

    def e_binop(self, node: ast.BinOp) -> Value:
        left = self.eval(node.left)
        right = self.eval(node.right)
        return self.binop(node.op, left, right, node)

    def binop(self, op: ast.operator, left: Value, right: Value, node: ast.BinOp | None) -> Value:
        if isinstance(op, ast.Add):
            joined = concatenate(left, right)
            if joined is not None:
                return joined
        if (
            node is not None
            and isinstance(op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
        ):
            return STATIC
        if isinstance(op, ast.Mult) and node is not None and self.tracker is not None:
            for operand, value in ((node.left, left), (node.right, right)):
                repeated = _repeated_keys(operand, value, node)
                if repeated:  # `[key] * n`: every item is that key
                    return with_keys(container([without_keys(element(value))]), repeated)
        result = combine([left, right])
        if isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and is_mask(left) and is_mask(right):
            result = mask_of(result)
        return self.staged(result)

    def e_unary(self, node: ast.UnaryOp) -> Value:
        operand = self.eval(node.operand)
        if isinstance(node.op, ast.Not):
            return STATIC if is_static(operand) else UNKNOWN
        if isinstance(node.op, ast.Invert):
            return STATIC if is_static(operand) else self.staged(whole(operand))
        return self.staged(not_mask(whole(operand)))

    def e_boolop(self, node: ast.BoolOp) -> Value:
        saved = self.state
        values: list[Value] = []
        try:
            for operand in node.values:
                values.append(self.eval(operand))
                when_true, when_false = self.narrowing(operand)
                narrowed = when_true if isinstance(node.op, ast.And) else when_false
                if narrowed and self.state is not None:
                    self.state = self.state.narrowed(narrowed)
        finally:
            self.state = self.restored(saved, [self.state])
        return join_all(values, UNKNOWN)

    def live_branches(self, test: ast.expr) -> tuple[bool, bool]:
        """Whether the true and the false branch of ``test`` can run here: ``if DEBUG:`` with
        ``DEBUG = False`` never runs its body; where ``x`` is a
        tracer, ``isinstance(x, jax.core.Tracer)`` is always true (the other path is eager code)."""
        call, negated = without_not(test)
        truth = self.model.constant_tests.get(test)
        if truth is None and self.info is not None and isinstance(call, ast.Name):
            truth = self.model.fixed_flag(self.info, call.id)
            if truth is not None and negated:
                truth = not truth
        if truth is not None:
            return truth, not truth
        if (
            isinstance(call, ast.Call)
            and len(call.args) == 2
            and isinstance(call.args[0], ast.Name)
            and self.resolver.qualname(call.func, self.scope) == "builtins.isinstance"
            and self.resolver.qualname(call.args[1], self.scope) in api.ARRAY_OR_TRACER_TYPES
            and is_traced(self.load(call.args[0].id))
        ):
            return (False, True) if negated else (True, False)
        return True, True

    def narrowing(self, test: ast.expr) -> tuple[Env, Env]:
        """Names a condition proves to be plain Python values, when true and when false:
        after ``isinstance(x, int)`` (or ``float``, ``tuple``, ``np.ndarray``...) or ``type(x) is
        float``, ``x`` is static; where ``isinstance(x, jax.Array)`` (or ``Tracer``) is false,
        ``x`` is no tracer."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            when_true, when_false = self.narrowing(test.operand)
            return when_false, when_true
        if isinstance(test, ast.BoolOp):
            parts = [self.narrowing(v) for v in test.values]
            if isinstance(test.op, ast.And):
                return {k: v for t, _ in parts for k, v in t.items()}, {}
            return {}, {k: v for _, f in parts for k, v in f.items()}
        if (
            isinstance(test, ast.Call)
            and len(test.args) == 2
            and isinstance(test.args[0], ast.Name)
            and self.resolver.qualname(test.func, self.scope) == "builtins.isinstance"
        ):
            types = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
            names = [self.resolver.qualname(t, self.scope) for t in types]
            if names and all(name in api.PYTHON_SCALAR_TYPES for name in names):
                return {test.args[0].id: STATIC}, {}
            if names and all(name in api.ARRAY_OR_TRACER_TYPES for name in names):
                return {}, {test.args[0].id: STATIC}
            if names and all(
                name in api.PYTHON_SCALAR_TYPES or name in api.CONTAINER_ANNOTATIONS for name in names
            ):
                return {test.args[0].id: known_container(self.load(test.args[0].id))}, {}
        return self.type_narrowing(test)

    def type_narrowing(self, test: ast.expr) -> tuple[Env, Env]:
        """``type(x) is float`` (``==``; ``is not``, ``!=`` the other way round): ``x`` is static
        where the type is a Python scalar type."""
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return {}, {}
        call, op, other = test.left, test.ops[0], test.comparators[0]
        if (
            not isinstance(call, ast.Call)
            or len(call.args) != 1
            or not isinstance(call.args[0], ast.Name)
            or self.resolver.qualname(call.func, self.scope) != "builtins.type"
            or self.resolver.qualname(other, self.scope) not in api.PYTHON_SCALAR_TYPES
        ):
            return {}, {}
        proved = {call.args[0].id: STATIC}
        if isinstance(op, (ast.Is, ast.Eq)):
            return proved, {}
        return ({}, proved) if isinstance(op, (ast.IsNot, ast.NotEq)) else ({}, {})

    def e_compare(self, node: ast.Compare) -> Value:
        operands = [self.eval(node.left), *(self.eval(c) for c in node.comparators)]
        if all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            return STATIC
        if any(is_container(v) for v in operands):
            return STATIC if all(is_static(v) for v in operands) else UNKNOWN  # a Python bool, if anything
        result = combine(operands)
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            return STATIC if is_plain_static(result) else UNKNOWN
        if is_plain_static(result):
            return STATIC
        if is_traced(result) or is_jax_array(result):
            return self.staged(
                array(is_traced(result), mask=True)
            )  # ordering a list or dict raises: an array
        return UNKNOWN

    def e_ifexp(self, node: ast.IfExp) -> Value:
        self.eval(node.test)
        when_true, when_false = self.narrowing(node.test)
        live_true, live_false = self.live_branches(node.test)
        saved = self.state
        branches: list[State | None] = []
        try:
            self.state = saved.narrowed(when_true) if saved is not None else None
            body = self.eval(node.body) if live_true else UNKNOWN
            branches.append(self.state if live_true else None)
            self.state = saved.narrowed(when_false) if saved is not None else None
            orelse = self.eval(node.orelse) if live_false else UNKNOWN
            branches.append(self.state if live_false else None)
        finally:
            self.state = self.restored(saved, branches)
        return join(body, orelse)

    def e_lambda(self, node: ast.Lambda) -> Value:
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.eval(default)
        self.nested(node)
        held = self.default_keys(node) if self.info is not None else ()
        return referring([FunctionRef(node, held=held)])  # `lambda y, k=key: ...` holds the key

    def e_named(self, node: ast.NamedExpr) -> Value:
        value = self.eval(node.value)
        self.values[node.target] = value
        self.assign_name(node.target.id, self.binding(node.target, value))
        return value

    def e_starred(self, node: ast.Starred) -> Value:
        return self.eval(node.value)

    def e_slice(self, node: ast.Slice) -> Value:
        parts = [self.eval(p) for p in (node.lower, node.upper, node.step) if p is not None]
        return combine(parts) if parts else STATIC

    def e_attribute(self, node: ast.Attribute) -> Value:
        qualname = self.resolver.qualname(node, self.scope)
        if qualname is not None:
            return self.model.library_value(qualname)
        receiver = self.eval(node.value)
        stored = self.stored_attribute(node) or self.self_function(node)
        if stored is not None:
            return stored
        getter = self.model.property_getter(receiver, node)
        if getter is not None:  # reading a property runs it
            target, call = getter
            return self.call_helper(target, 1, call, [], {}, receiver=receiver)
        value = self.attribute(receiver, node.attr)
        if value is UNKNOWN:
            cls = self.class_of(receiver, node.value)
            value = (cls and self.model.held_array(cls, node.attr)) or value
            variables = self.model.nnx_variables(cls) if cls is not None and value is UNKNOWN else None
            if variables and node.attr in variables:  # `model.embed`, `model.scale` of an nnx module
                value = traced_variable(variables[node.attr], traced=is_traced(receiver))
        # (the value of an nnx variable holding a key knows the key `__init__` was given: which
        # object holds it for good says more)
        wrapped = node.attr == "value" and isinstance(node.value, ast.Attribute)
        if self.tracker is not None and self.info is not None and (wrapped or not key_ids(value)):
            held = self.model.held_key(self.info, node)
            if held is not None:
                return with_keys(value, frozenset({held}))
            if self.model.fixed_field(self.scope, node):
                return with_keys(value, frozenset(derived(key, node.attr) for key in key_ids(receiver)))
        return value

    def attribute(self, receiver: Value, name: str) -> Value:
        """``receiver.name``: a bound method of an instance of this module's classes, else what
        the attribute of an array or a Python value is."""
        methods = [
            method
            for ref in refs(receiver)
            if isinstance(ref, (InstanceRef, ClassRef))
            for method in [self.model.bound_method(ref, name)]
            if method is not None
        ]
        if methods:
            return referring(methods)
        field = self.field(receiver, name)
        if field is not None:
            return field
        return self.staged(attribute_value(receiver, name))

    def class_of(self, receiver: Value, expr: ast.expr) -> ast.ClassDef | None:
        """The one class of this module whose object ``expr`` is: a known instance, or ``self``
        in a method (or a function nested in one)."""
        classes = self.model.object_classes(receiver, expr, self.scope)
        return classes[0] if len(classes) == 1 and len(refs(receiver)) <= 1 else None

    def replaced(self, receiver: Value, updates: dict[str, Value], named_tuple: bool) -> Value | None:
        """A copy of a record with some fields replaced (``_replace``, ``.replace``,
        ``dataclasses.replace``): of a known record, or of a pytree of unknown class (a lax
        loop's carry) when one pytree class of the module declares every replaced field; its
        other fields are the receiver's, so a key they hold is handed on."""
        known = with_fields(receiver, updates)
        if known is not None or not updates or not key_ids(receiver):
            return known
        pytree = self.model.class_declaring(frozenset(updates), named_tuple)
        if pytree is None:
            return None
        fields = [
            (name, updates[name] if name in updates else self.field(receiver, name) or UNKNOWN)
            for name in pytree.fields
        ]
        return record(InstanceRef(pytree.node), fields, pytree.is_tuple)

    def field(self, receiver: Value, name: str) -> Value | None:
        """``receiver.name`` when it is a field of a pytree: of a known record, or of a traced
        pytree whose fields of that name the module's pytree classes say are traced. A key held
        in a field is the same key every time it is read."""
        found = field_of(receiver, name)
        if found is None and _may_be_pytree_node(receiver) and name not in NOT_FIELDS:
            found = self.model.field_by_name(name)
        if found is None or self.tracker is None or key_ids(found) or not key_ids(receiver):
            return found
        return with_keys(found, frozenset(derived(key, name) for key in key_ids(receiver)))

    def e_subscript(self, node: ast.Subscript) -> Value:
        named = _global_named(node)
        if named is not None and self.resolver.qualname(node.value.func, self.scope) == "builtins.globals":  # pyright: ignore[reportAttributeAccessIssue]
            # `globals()["CLIP"]`: a read of the module's `CLIP`, as the name itself would be
            read = ast.copy_location(ast.Name(id=named, ctx=ast.Load()), node)
            read.end_lineno, read.end_col_offset = node.end_lineno, node.end_col_offset
            self.outer_reads.append(read)
            return self.model.outer_value(self.model.index.module, named)
        base = self.eval(node.value)
        index = self.eval(node.slice)
        stored = self.stored_item(node)
        if stored is not None:
            return stored
        value = self.subscript_value(node, base, index)
        if self.tracker is not None and key_ids(base):
            if _adds_axes(node.slice):
                return with_keys(value, key_ids(base))  # `key[None]`: the same key, in another shape
            items = self.key_items(base, node.slice)
            if _known_item(node, base) is not None and key_ids(value):
                # `[key, key][1]`: an item of a known display is the key put there, and the item
                # of the whole (consumed when the whole is)
                return with_keys(value, key_ids(value) | items)
            return with_keys(value, items)
        return value

    def subscript_value(self, node: ast.Subscript, base: Value, index: Value) -> Value:
        constant = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if type(constant) is int or (type(constant) is str and entries(base) is not None):
            known = subscript(base, constant)  # an item of a sequence, an entry of a dict
            if known is not None:
                return known
        if is_jax_array(base):
            return self.staged(array(is_traced(base) or is_traced(index), mask=is_mask(base)))
        if holds_arrays(base):  # `grids[1]` of `[jnp.zeros(n) for ...]`; a slice is a list again
            return base if isinstance(node.slice, ast.Slice) else element(base)
        if is_traced(base):
            return TRACED
        if is_static(base):
            return STATIC if is_static(index) else UNKNOWN
        return UNKNOWN

    def key_items(self, base: Value, index: ast.expr) -> frozenset[object]:
        """The keys ``keys[i]`` may be, for a constant ``i`` or a name ``i`` (or ``keys[i, j]``):
        the same key whenever it is read with the same constant, or with one binding of the
        name. With another index, none the model follows."""
        positions = index.elts if isinstance(index, ast.Tuple) else [index]
        found = [self.item_index(position) for position in positions]
        if any(position is None for position in found):
            return frozenset()
        keys = key_ids(base)
        for position in found:
            keys = frozenset(derived(key, position) for key in keys)
        return keys

    def item_index(self, position: ast.expr) -> object:
        """What identifies the element ``position`` picks: a constant, or the one binding a
        name holds (see :func:`bound_index`); None where it is not known."""
        if isinstance(position, ast.Constant) and type(position.value) in (int, str):
            return position.value
        if isinstance(position, ast.Name):
            bindings = key_ids(self.values.get(position, UNKNOWN))
            if len(bindings) == 1:
                (binding,) = bindings
                return bound_index(binding)
        return None

    def e_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> Value:
        return container([self.comprehension(node, node.generators, [node.elt])])

    def e_dictcomp(self, node: ast.DictComp) -> Value:
        return container([self.comprehension(node, node.generators, [node.key, node.value])], is_mapping=True)

    def comprehension(
        self, node: ast.expr, generators: list[ast.comprehension], results: list[ast.expr]
    ) -> Value:
        """A comprehension: its own scope, and a loop (a key made outside it and consumed in it
        is consumed for every element)."""
        saved = self.state
        self.state = saved.copy() if saved is not None else State()
        first = self.eval(generators[0].iter)  # evaluated once, before the first element
        keys = self.enter_key_loop(node)
        try:
            for position, generator in enumerate(generators):
                iterable = first if position == 0 else self.eval(generator.iter)
                uses = (generator.target, [*results, *(c for g in generators[position:] for c in g.ifs)])
                self.bind(generator.target, self.iteration_value(generator.iter, iterable, uses))
                for condition in generator.ifs:
                    self.eval(condition)
            return join_all([self.eval(r) for r in results], UNKNOWN)
        finally:
            self.exit_key_loop(keys, [self.state])
            if keys is not None and self.tracker is not None:
                self.tracker.close_loop(keys)
            self.state = self.restored(saved, [self.state])

    def e_await(self, node: ast.AST) -> Value:
        value = getattr(node, "value", None)
        if isinstance(value, ast.expr):
            self.eval(value)
        return UNKNOWN

    def iteration_value(
        self, iterator: ast.expr, iterable: Value, uses: tuple[ast.expr, list[Any]] | None = None
    ) -> Value:
        """The value bound to a loop target iterating over ``iterator``; ``uses``: the target and
        the code that reads it (a loop body), where it may show what the items are."""
        if isinstance(iterator, ast.Call):
            callee = self.resolver.qualname(iterator.func, self.scope)
            args = iterator.args
            if callee == "builtins.range":
                return STATIC
            if callee == "builtins.enumerate" and args:
                return sequence(
                    [STATIC, self.iteration_value(args[0], self.values.get(args[0], UNKNOWN), uses)]
                )
            if callee == "builtins.zip" and not iterator.keywords:
                return sequence(self.iteration_value(a, self.values.get(a, UNKNOWN), uses) for a in args)
            if callee in ("builtins.reversed", "builtins.sorted") and args:
                return self.iteration_value(args[0], self.values.get(args[0], UNKNOWN), uses)
            if isinstance(iterator.func, ast.Attribute) and not args:
                receiver = self.values.get(iterator.func.value, UNKNOWN)
                method = iterator.func.attr
                copied = frozenset(copy_of(k) for k in copied_keys(receiver))  # `dict.fromkeys(names, key)`
                value = with_keys(without_keys(entry_values(receiver)), copied)
                if method == "items":
                    return sequence([STATIC, value])
                if method == "keys":
                    return STATIC
                if method == "values":
                    return value
        if isinstance(iterator, ast.Name) and self._is_kwargs(iterator.id):
            return STATIC  # iterating `**kwargs` gives its keys
        item = iterated(iterable)
        if item is UNKNOWN and is_traced(iterable) and uses is not None and self.used_as_array(*uses):
            item = element(iterable)  # not a dict's key: an array's row, an item of a sequence
        copied = copied_keys(iterable)
        if copied:  # `for k in [key] * n`: every iteration binds that one key
            return with_keys(without_keys(item), frozenset(copy_of(k) for k in copied))
        return without_keys(item)  # each iteration binds another key of the batch

    def used_as_array(self, target: ast.expr, code: list[Any]) -> bool:
        """Whether ``code`` uses a name ``target`` binds as a number or an array, never as a
        dict's key would be: an array method or attribute (``row.sum()``, ``row.shape``), an
        order or arithmetic with a float (``t > 1.0``, ``t * 0.5``), arithmetic no string
        has (``t - 1``), a boolean mask (``row[row > 0]``), a ``jax`` function."""
        names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        if not names:
            return False

        def named(expr: ast.AST) -> bool:
            return isinstance(expr, ast.Name) and expr.id in names

        for node in own_nodes(code):
            if isinstance(node, ast.Attribute) and named(node.value):
                if node.attr in api.ARRAY_ONLY_METHODS or node.attr in api.STATIC_ATTRIBUTES:
                    return True
            elif isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                ordered = any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in node.ops)
                if ordered and any(named(o) for o in operands) and any(_number(o) for o in operands):
                    return True
            elif isinstance(node, ast.BinOp) and (named(node.left) or named(node.right)):
                if not isinstance(node.op, (ast.Add, ast.Mult, ast.Mod)):
                    return True
                if _float(node.left) or _float(node.right):
                    return True
            elif (
                isinstance(node, ast.Subscript) and named(node.value) and isinstance(node.slice, ast.Compare)
            ):
                return True
            elif isinstance(node, ast.Call) and any(named(a) for a in node.args):
                qualname = self.resolver.qualname(node.func, self.scope)
                if qualname is not None and qualname.startswith("jax."):
                    return True
        return False

    def _is_kwargs(self, name: str) -> bool:
        info = self.info
        if info is None or info.node.args.kwarg is None:
            return False
        return info.node.args.kwarg.arg == name and info.scope.bound.get(name) == 1

    # ------------------------------------------------------------------ calls

    def e_call(self, node: ast.Call) -> Value:
        args = [self.eval(a) for a in node.args]
        keywords = {kw.arg or f"**{i}": self.eval(kw.value) for i, kw in enumerate(node.keywords)}
        func = node.func
        if self.tracker is not None:
            self.consume_rngs(node)
            self.consume_layer_key(node, keywords)
            self.consume_dropout_rng(node)
        if self.stores_attributes:  # `update(obj)`, `obj.reset()` may change what obj holds
            handed = [*node.args, *(k.value for k in node.keywords)]
            if isinstance(func, ast.Attribute):
                handed.append(func.value)
            for name in handed:
                if isinstance(name, ast.Name):
                    self.forget_attributes(name.id)
        qualname = None
        if isinstance(func, (ast.Name, ast.Attribute)):
            qualname = self.resolver.qualname(func, self.scope)
        if qualname is not None:
            return self.call_qualified(qualname, node, args, keywords)
        if isinstance(func, ast.Name):
            callee = self.values[func] = self.load(func.id)
            if refs(callee):
                if self.level > NONE and self.made_before_the_trace(func):
                    self.mark_runs_on_outer_object(self.called_methods(callee, "__call__"))  # `MODEL(x)`
                return self.traced_call(callee, self.call_refs(callee, node, args, keywords))
            return self.traced_call(callee, self.call_function(func, node, args, keywords))
        if isinstance(func, ast.Attribute):
            receiver = self.eval(func.value)
            self.consume_init_keys(node, receiver)
            callee = self.values[func] = self.self_function(func) or self.attribute(receiver, func.attr)
            if refs(callee):
                if self.level > NONE and self.made_before_the_trace(func.value):
                    self.mark_runs_on_outer_object(callee)
                    if any(map(is_traced, [*args, *keywords.values()])):
                        # handed a tracer: what it stores of it outlives the trace (the method is
                        # analysed once for all its calls, so a call without one says nothing)
                        self.mark_called_on_outer_object(callee)
                return self.call_refs(callee, node, args, keywords, receiver)
            if self.held_layer(receiver, func):
                return array(self.staging([*args, *keywords.values()]))  # `self.linear(x)`
            held = field_of(receiver, "value") if func.attr == "get_value" and not args else None
            if held is not None:
                return held  # an nnx variable's `get_value()`, as its `.value`
            return self.call_method(func, receiver, node, args, keywords)
        callee = self.eval(func)
        if isinstance(func, ast.Call):
            self.model.invoked_at_once.add(func)
        if refs(callee):
            result = self.call_refs(callee, node, args, keywords)
            gradient = (
                self.gradient_result(func, args, [*args, *keywords.values()])
                if isinstance(func, ast.Call)
                else None
            )
            return result if gradient is None else gradient
        if isinstance(func, ast.Call):
            if self.layer_made((func, self.scope)):
                return array(self.staging([*args, *keywords.values()]))  # `nn.Dense(3)(x)`
            return self.call_transformed(func, node, args, keywords)
        return UNKNOWN

    def held_layer(self, receiver: Value, func: ast.Attribute) -> bool:
        """Whether ``obj.attr`` is a layer of flax or equinox that ``__init__``/``setup`` made
        (``self.linear = nnx.Linear(3, 2, rngs=rngs)``): called, it returns an array."""
        cls = self.class_of(receiver, func.value)
        held = None if cls is None else self.model.held_value(cls, func.attr)
        if held is None or not isinstance(held[1], ast.Call):
            return False
        scope = self.model.index.scopes.get(held[0])
        qualname = None if scope is None else self.resolver.qualname(held[1].func, scope)
        return qualname in api.ARRAY_LAYERS

    def made_before_the_trace(self, receiver: ast.expr) -> bool:
        """Whether ``receiver`` names an object that exists before this trace: a module-level
        name, one of an enclosing function that runs eagerly, ``self`` in a method called on
        such an object, or what ``__init__`` alone stored in an attribute of one
        (``MODEL.stats``, ``self.stats``)."""
        if isinstance(receiver, ast.Attribute):
            owner_value = self.values.get(receiver.value, UNKNOWN)
            cls = self.class_of(owner_value, receiver.value)
            held = cls is not None and self.model.held_value(cls, receiver.attr) is not None
            return held and self.made_before_the_trace(receiver.value)
        if not isinstance(receiver, ast.Name):
            return False
        info = self.info
        if info is not None and info.called_on_outer_object and info.positional_names()[:1] == [receiver.id]:
            return self.scope.lookup(receiver.id) is self.scope
        owner = self.scope.lookup(receiver.id)
        if owner is None or owner.function is self.scope.function:
            return False
        if owner.kind == "module":
            return True
        enclosing = self.model.function_of(owner)
        return enclosing is not None and enclosing.effective_level == NONE

    def bound_methods(self, callee: Value) -> list[FunctionInfo]:
        """The methods ``callee`` names, bound to their object."""
        found = []
        for ref in refs(callee):
            if isinstance(ref, FunctionRef) and ref.offset == 1:
                target = self.model.infos.get(ref.node)
                if target is not None and target.is_method:
                    found.append(target)
        return found

    def mark_runs_on_outer_object(self, callee: Value) -> None:
        for target in self.bound_methods(callee):
            target.runs_on_outer_object = True

    def mark_called_on_outer_object(self, callee: Value) -> None:
        for target in self.bound_methods(callee):
            target.called_on_outer_object = True

    def called_methods(self, callee: Value, name: str) -> Value:
        """The method ``name`` of each object ``callee`` may be, bound to it."""
        methods = [self.model.bound_method(ref, name) for ref in refs(callee) if isinstance(ref, InstanceRef)]
        return referring(m for m in methods if m is not None)

    def call_refs(
        self,
        callee: Value,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
        receiver: Value | None = None,
    ) -> Value:
        """A call of a function, class or instance the callee value names (joined over all of them)."""
        results: list[Value] = []
        for ref in refs(callee):
            if isinstance(ref, FunctionRef):
                results.append(self.call_function_ref(ref, node, args, keywords, receiver))
            elif isinstance(ref, ClassRef):
                results.append(self.construct(ref, node, args, keywords))
            elif isinstance(ref, InstanceRef):
                method = self.model.bound_method(ref, "__call__")
                results.append(  # `model(x)`: `self` is the object called, with its known fields
                    UNKNOWN
                    if method is None
                    else self.call_function_ref(method, node, args, keywords, callee)
                )
            elif ref.held:
                results.append(self.call_bound_sampler(ref, node, args, keywords))
            elif ref.layers:
                results.append(self.call_transformed_library(ref, node, args, keywords))
            else:
                results.append(self.call_qualified(ref.qualname, node, args, keywords))
        return join_all(results, UNKNOWN)

    def call_function_ref(
        self,
        ref: FunctionRef,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
        receiver: Value | None = None,
    ) -> Value:
        if ref.skip:
            ref, node, args, keywords = self.module_entry(ref, node, args, keywords)
        target = self.model.infos.get(ref.node)
        if target is None:
            return UNKNOWN
        if ref.held:
            self.consume_held(target, ref, node)
        self.mapped_draw_event(target, ref, node)
        if not ref.layers:
            receiver = receiver if ref.offset == 1 and target.is_method and not ref.skip else None
            return self.call_helper(
                target, ref.offset, node, args, keywords, ref.bound, receiver, dict(ref.traced_bound)
            )
        self.consume_through(target, ref.offset, node, args, keywords, ref.bound)
        every = [*args, *keywords.values()]
        traced = any(is_traced(v) for v in every)
        if self.level > NONE and traced and self.info is not None:
            params = self.bind_arguments(target, ref.offset, node, args, keywords)
            params = {name: v for name, v in params.items() if is_traced(v)}
            reason = f"`{target.name}` is called from traced `{self.info.name}` at line {node.lineno}"
            if params and target.apply(self.level, params, reason, self.runs):
                self.model.enqueue(target)
        if self.level == NONE:  # `step(state, lr_fn)`: a function handed to a jitted one it calls
            given = bind_values(target, ref.offset, _positional(node, args), keywords)
            self.hand_functions(target, given)
            self.hand_instances(target, given, ref)
            self.hand_arrays(target, ref, given)
            self.hand_masks(target, given, ref)
            self.hand_containers(target, given, _number_displays(target, ref.offset, node))
        if self.info is not None:
            target.callers.add(self.info)
        # inside staged code, a transformed function's outputs are tracers of the outer trace
        if self.staging(every):
            return TRACED
        differentiated = self.eager_gradient(ref, target, node, args, keywords)
        if differentiated is not None:
            return differentiated
        compiled = all(layer.transform in COMPILED_OUTPUTS for layer in ref.layers)
        if compiled and not target.analyzed:
            self.model.ensure(target)  # module code calling it before the model ran it
        if not (compiled and target.analyzed):
            return UNKNOWN
        result = compiled_output(target.returns)
        # a key the compiled function consumed and returns is that key, consumed (`key, x = step(key, x)`)
        return self.spent_result(node, target, result) if target.spent_returns else result

    def eager_gradient(
        self,
        ref: FunctionRef,
        target: FunctionInfo,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
    ) -> Value | None:
        """``jax.grad(f)(params)`` called eagerly: the gradient has the pytree of the argument it
        is taken with respect to (the first; ``argnums`` and ``has_aux`` not given), each array
        leaf a concrete JAX array (``grads["w"][0] = 0.0`` raises: JAX arrays are immutable);
        ``value_and_grad`` gives the value with it."""
        if len(ref.layers) != 1 or ref.offset or ref.bound or not args or keywords:
            return None
        layer = ref.layers[0]
        call = layer.call
        if layer.transform not in EAGER_GRADIENTS or call is None or call.keywords or len(call.args) != 1:
            return None
        if any(isinstance(a, ast.Starred) for a in node.args):
            return None
        grads = gradient(args[0])
        if layer.transform == "jax.grad":
            return grads
        value = compiled_output(target.returns) if target.analyzed else UNKNOWN
        return sequence([value, grads])

    def module_entry(
        self, ref: FunctionRef, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> tuple[FunctionRef, ast.Call, list[Value], dict[str, Value]]:
        """``module.apply(variables, x, method=...)``: the method (``__call__`` unless named)
        called with the arguments after the variables (a call made for the binding, at the
        place of the real one)."""
        name = _method_name(keyword_argument(node, "method"))
        if name is not None:
            method = self.model.class_member(self.model.index.parents[ref.node].node, name)  # pyright: ignore[reportArgumentType]
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                ref = dataclasses.replace(ref, node=method)
        call = ast.Call(
            func=node.func,
            args=node.args[ref.skip :],
            keywords=[k for k in node.keywords if k.arg not in api.FLAX_APPLY_KEYWORDS],
        )
        ast.copy_location(call, node)
        kept = {name: value for name, value in keywords.items() if name not in api.FLAX_APPLY_KEYWORDS}
        return dataclasses.replace(ref, skip=0), call, args[ref.skip :], kept

    def construct(
        self, ref: ClassRef, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        """``Cls(...)``: its ``__init__`` runs with the arguments; the result is an instance."""
        pytree = self.model.pytree_class(ref.node)
        if pytree is not None and not any(isinstance(a, ast.Starred) for a in node.args):
            given = {**dict(zip(pytree.fields, args)), **keywords}
            fields = [
                (name, given.get(name, STATIC if name in pytree.static else UNKNOWN))
                for name in pytree.fields
            ]
            made = record(InstanceRef(ref.node), fields, pytree.is_tuple)
            for hook in CONSTRUCTION_CHECKS:  # run by the generated `__init__`, on the new object
                check = self.model.bound_method(InstanceRef(ref.node), hook)
                if check is not None:
                    self.call_function_ref(check, node, [], {}, made)
            return made
        init = self.model.bound_method(InstanceRef(ref.node), "__init__")
        if init is not None:
            self.call_function_ref(init, node, args, keywords)
        return referring([InstanceRef(ref.node)], static=False)

    def call_transformed_library(
        self, ref: LibraryRef, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        """``jax.jit(jnp.zeros)(n)``: the library function runs traced on every argument."""
        self.model.transformed_library_calls[node] = ref
        result = array(self.staging([*args, *keywords.values()]))
        if self.tracker is not None and ref.qualname.startswith("jax.random."):
            return self.random_call(ref.qualname, node, args, keywords, result)
        return result

    # ------------------------------------------------------------------ PRNG keys

    def random_call(
        self, qualname: str, node: ast.Call, args: list[Value], keywords: dict[str, Value], result: Value
    ) -> Value:
        """A ``jax.random`` function: it makes keys (``key``, ``split``, ``fold_in``...), consumes
        its key argument (every sampler, and ``split``), or both."""
        if self.consumes_key(qualname):
            argument = node.args[0] if node.args else keyword_argument(node, "key")
            value = args[0] if node.args else keywords.get("key")
            if argument is not None and value is not None:
                self.consume(node, argument, value)
        fold = qualname == "jax.random.fold_in" and len(args) == 2 and len(node.args) == 2
        invariant = fold and self.loop_invariant(node.args[1])
        if (
            fold
            and key_ids(args[0])
            and (is_static(args[1]) or invariant or self.is_step_index(node.args[1]))
        ):
            # the same key folded with the same Python data is the same key: on every step of a
            # lax loop that hands the key back unchanged, `fold_in(key, 0)` repeats its draws;
            # so does folding in a fori_loop's step index every time that loop runs again
            if constant_fold(node):
                # `fold_in(key, 0)`: the same key whenever it runs, consumed or not before
                return with_keys(result, frozenset(folded(key, node) for key in key_ids(args[0])))
            keys = frozenset(self.fresh_key(folded(key, node)) for key in key_ids(args[0]))
            if not is_static(args[1]) and not invariant:
                self.step_folds |= keys
            return with_keys(result, keys)
        if qualname in api.KEY_MAKERS:
            made = self.fresh_key(("make", node))
            if qualname == "jax.random.split":
                count = _split_count(node)
                if count is not None:  # an array of keys, each known by its index
                    return as_array(
                        sequence(with_keys(result, frozenset({derived(made, i)})) for i in range(count))
                    )
            return with_keys(result, frozenset({made}))
        return result

    @staticmethod
    def consumes_key(qualname: str) -> bool:
        """Whether the ``jax.random`` function ``qualname`` consumes its key argument (measured;
        a function not measured does, unless it only makes or inspects keys)."""
        if not qualname.startswith("jax.random."):
            return False
        consumes = measured.consumes_key(qualname)
        return consumes or (consumes is None and qualname not in api.KEY_NEUTRAL)

    def loop_invariant(self, expr: ast.expr) -> bool:
        """Whether ``expr``, in a lax loop body, is the same on every step: every name in it
        is the enclosing function's (``fold_in(key, epoch)`` with ``epoch`` closed over), none
        the body's own (its step index, its carry, what it computes from them)."""
        info = self.info
        names = [n for n in ast.walk(expr) if isinstance(n, ast.Name)]
        if info is None or info.repeated_by not in LOOPING_BODIES or not names:
            return False
        for name in names:
            owner = self.scope.lookup(name.id)
            if owner is None or owner.function is self.scope.function:
                return False
        return True

    def is_step_index(self, expr: ast.expr) -> bool:
        """Whether ``expr`` is the step index of the ``fori_loop`` body being run, never rebound:
        each step folds a different index, but every run of the loop the same ones."""
        info = self.info
        return (
            info is not None
            and info.repeated_by == "jax.lax.fori_loop"
            and isinstance(expr, ast.Name)
            and expr.id == step_counter(info)
        )

    def fresh_key(self, key: KeyId) -> KeyId:
        """A key made (or bound) here, now: not consumed yet on this path, even if the same
        statement made one that was consumed on an earlier iteration of a loop."""
        if self.state is not None and self.state.consumed:
            self.state.consumed = {
                other: call
                for other, call in self.state.consumed.items()
                if other != key and key not in ancestors(other) and key not in indexed_by(other)
            }
        return key

    def consume_rngs(self, node: ast.Call) -> None:
        """``module.apply(variables, x, rngs={"dropout": key})``: a flax module draws from the
        keys of ``rngs`` (its dropout masks, its noise), so the call consumes each."""
        for value in rngs_keys(node):
            self.consume(node, value, self.values.get(value, UNKNOWN))

    def consume_init_keys(self, node: ast.Call, receiver: Value) -> None:
        """``Tower().init(key, x)`` of a flax linen module: its parameters are drawn from ``key``
        (measured with flax 0.12.8: a second ``init`` with the key gives the same weights). Only
        another ``init`` with the key draws the same bits (see :func:`initialised`)."""
        if self.tracker is None or not isinstance(node.func, ast.Attribute):
            return
        keys = init_keys(node)
        cls = self.class_of(receiver, node.func.value) if keys else None
        if cls is None or not self.model.is_flax_module(cls):
            return
        for value in keys:
            self.consume(node, value, _as_initialised(self.values.get(value, UNKNOWN), cls))

    def consume_layer_key(self, node: ast.Call, keywords: dict[str, Value]) -> None:
        """``drop(x, key=k)`` with ``drop = eqx.nn.Dropout(0.5)``: a layer that draws its mask
        from the ``key`` it is called with consumes it (measured: a second call with the same key
        raises ``KeyReuseError``). Not where a mode keyword may switch it to inference."""
        argument = keyword_argument(node, "key")
        if argument is None or not key_ids(keywords.get("key", UNKNOWN)):
            return
        if not _mode_given(node) and self.key_needing_layer(node.func, self.scope) is not None:
            self.consume(node, argument, keywords["key"])

    def consume_dropout_rng(self, node: ast.Call) -> None:
        """``nn.Dropout(0.5, deterministic=False)(x, rng=key)``: a linen dropout layer given its
        own key, in training mode and with a rate written above zero, draws its mask from that key
        (measured with flax 0.12.8: two layers given one key drop the same places)."""
        argument = keyword_argument(node, "rng") or (node.args[2] if len(node.args) > 2 else None)
        value = UNKNOWN if argument is None else self.values.get(argument, UNKNOWN)
        if argument is None or not key_ids(value):
            return
        construction, scope = (
            (node.func, self.scope) if isinstance(node.func, ast.Call) else (None, self.scope)
        )
        if isinstance(node.func, ast.Name):  # `drop = nn.Dropout(0.5, ...)`, then `drop(x, rng=k)`
            bound = self.scope.bound_value(node.func.id)
            if bound is not None and isinstance(bound[0], ast.Call):
                construction, scope = bound
        if (
            not isinstance(construction, ast.Call)
            or self.resolver.qualname(construction.func, scope) != "flax.linen.Dropout"
        ):
            return
        rate = construction.args[0] if construction.args else keyword_argument(construction, "rate")
        mode = keyword_argument(construction, "deterministic") or keyword_argument(node, "deterministic")
        if mode is None and len(node.args) > 1:
            mode = node.args[1]
        drops = isinstance(rate, ast.Constant) and isinstance(rate.value, (int, float)) and rate.value > 0
        if drops and isinstance(mode, ast.Constant) and mode.value is False:
            self.consume(node, argument, value)

    def key_needing_layer(self, func: ast.expr, scope: Scope) -> ast.expr | None:
        """The construction of a library layer whose call draws from a ``key`` (an equinox
        ``Dropout``, its mode left to the call) that ``func`` is: a name bound once to it, or
        ``self.attr`` that ``__init__`` alone stores it in; or the annotation of an equinox
        module's field declared as one (:meth:`SemanticModel.declared_key_layer`)."""
        found = scope.bound_value(func.id) if isinstance(func, ast.Name) else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            found = self.model.initialized_value(scope, func)
            cls = self.model.class_of_self(scope, func.value.id) if found is None else None
            if cls is not None:
                return self.model.declared_key_layer(cls, func.attr)
        construction = None if found is None else found[0]
        if found is None or not isinstance(construction, ast.Call) or _mode_given(construction):
            return None
        qualname = self.resolver.qualname(construction.func, found[1])
        return construction if qualname in measured.layers_needing_a_key_to_call() else None

    def consume(
        self,
        call: ast.Call,
        argument: ast.expr,
        value: Value,
        partial: bool = False,
        paths: frozenset[tuple[object, ...]] = frozenset(),
    ) -> None:
        """``call`` consumes the key ``argument`` evaluates to (``partial``: a key it holds: in a
        record whose fields are known and one field holds keys, the key of that field; in a
        value whose parts are not known, the parts at ``paths``, `d["rng"]` alone)."""
        keys = key_ids(value)
        along = keys_along_all(value, paths) if partial else None
        if along is not None:
            keys = along
        elif partial:
            keys |= keys_of_the_keyed_field(value)
        if self.tracker is None or self.state is None or not keys:
            return
        self.tracker.consume(call, keys, _key_text(argument), _root_name(argument), self.state, partial)

    def consume_through(
        self,
        target: FunctionInfo,
        offset: int,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
        bound: frozenset[str] = frozenset(),
    ) -> None:
        """A call of a function of this module consumes the keys passed as the parameters it
        consumes, and the keys it closes over and consumes."""
        if self.tracker is None or self.state is None or target is self.info:
            return
        if not self.model.may_use_keys(target):
            return
        consumed = self.model.consumed_params(target)
        if consumed and target.consumption_guards:
            consumed = self.consumed_at(target, offset, node, bound, consumed)
        if consumed:
            names = target.positional_names()[offset:]
            for name, argument, value in zip(names, node.args, args):
                if isinstance(argument, ast.Starred):
                    break
                if name in consumed:
                    paths = target.consumed_paths.get(name, frozenset())
                    value = _as_initialised(value) if name in target.consumed_by_init else value
                    self.consume(node, argument, value, name in target.consumed_in_part, paths)
            for keyword in node.keywords:
                if keyword.arg in consumed and keyword.arg in keywords:
                    partial = keyword.arg in target.consumed_in_part
                    paths = target.consumed_paths.get(keyword.arg, frozenset())
                    value = keywords[keyword.arg]
                    value = _as_initialised(value) if keyword.arg in target.consumed_by_init else value
                    self.consume(node, keyword.value, value, partial, paths)
            self.consume_defaults(target, offset, node, consumed)
        for key, _ in self.model.consumed_outside(target).items():
            self.tracker.consume(node, [key], _key_name(key), "", self.state)
            self.tracker.through_callees.add(node)

    def consumed_at(
        self, target: FunctionInfo, offset: int, node: ast.Call, bound: frozenset[str], consumed: set[str]
    ) -> set[str]:
        """The parameters of ``consumed`` this call consumes: not one that ``target`` consumes only
        under tests of its parameters that the call's constants make false (``noise(key, x,
        add=False)`` where the draw is under ``if add:``)."""
        constants = self.call_constants(target, offset, node, bound)

        def runs(guards: frozenset[tuple[ast.expr, bool]]) -> bool:
            return all(
                (value := constant_value(test, constants)) is NOT_CONSTANT or bool(value) == truth
                for test, truth in guards
            )

        return {
            name
            for name in consumed
            if any(runs(g) for g in target.consumption_guards.get(name, [frozenset()]))
        }

    def call_constants(
        self, target: FunctionInfo, offset: int, node: ast.Call, bound: frozenset[str]
    ) -> dict[str, object]:
        """The parameters of ``target`` this call gives a constant: a literal, a module flag, or
        the literal default of one it leaves out (none where ``*args``/``**kwargs`` are passed)."""
        given = _argument_expressions(target, offset, node, bound)
        if given is None:
            return {}
        found: dict[str, object] = {}
        for param in target.param_nodes():
            expr = given.get(param.arg)
            value = constant_value(expr, {}) if expr is not None else NOT_CONSTANT
            if value is NOT_CONSTANT:
                truth = self.truth_of(expr)
                value = NOT_CONSTANT if truth is None or not isinstance(expr, ast.Name) else truth
            if value is not NOT_CONSTANT:
                found[param.arg] = value
        return found

    def consume_defaults(self, target: FunctionInfo, offset: int, node: ast.Call, consumed: set[str]) -> None:
        """``def noise(x, key=KEY)`` called without a key: the call consumes the default, a key
        of the scope that defines the function (made once, when the ``def`` ran)."""
        passed = _passed_parameters(target, offset, node)
        defining = self.model.index.parents.get(target.node)
        if passed is None or defining is None or defining.kind != "module":
            return
        for name, default in parameter_defaults(target.node.args).items():
            if name not in consumed or name in passed or default is None:
                continue
            written = default_key_text(target.name, name)
            if isinstance(default, ast.Name):
                # the module's value, or, while module code runs (and calls this), its value there
                value = self.model.outer_value(target.scope, default.id)
                root = default.id
            else:  # `key=jax.random.key(0)`: made once, when the `def` ran
                value = self.model.values.get(default, UNKNOWN)
                root = written  # held by the function, as a global is: the same on every iteration
            if key_ids(value) and self.tracker is not None and self.state is not None:
                self.tracker.consume(node, key_ids(value), written, root, self.state)

    def consume_closed_over(self, transform: Transform, node: ast.Call) -> None:
        """``lax.cond(p, f, g)``, ``lax.scan(f, init, xs)``: the call runs its functions here, so
        it consumes the keys they close over and consume, and the keys of the operands they
        receive (a carry, the scanned keys) where they consume them."""
        if self.tracker is None or self.state is None:
            return
        for argument in function_arguments(node, transform):
            self.consume_by_sampler(transform, node, argument)
            for ref in refs(self.values.get(argument, UNKNOWN)):
                if not isinstance(ref, FunctionRef):
                    continue
                target = self.model.infos.get(ref.node)
                if target is not None and target is not self.info and self.model.may_use_keys(target):
                    if self.info is not None:
                        target.callers.add(self.info)
                    for key, call in self.model.consumed_outside(target).items():
                        self.tracker.consume(node, [key], _consumed_text(key, call), "", self.state)
                        self.tracker.through_callees.add(node)
                    self.consume_operands(transform, node, target, ref.offset)

    def consume_by_sampler(self, transform: Transform, node: ast.Call, argument: ast.expr) -> None:
        """``lax.cond(p, jax.random.uniform, jax.random.normal, key)``: a sampler given as a
        branch consumes the key the call hands it first."""
        qualname = (
            self.resolver.qualname(argument, self.scope)
            if isinstance(argument, (ast.Name, ast.Attribute))
            else None
        )
        operand = body_operand(node, transform, 0)
        if qualname is None or operand is None or not self.consumes_key(qualname):
            return
        keys = all_key_ids(self.values.get(operand, UNKNOWN))
        if keys and self.tracker is not None and self.state is not None:
            self.tracker.consume(node, keys, _key_text(operand), _root_name(operand), self.state)

    def consume_operands(self, transform: Transform, node: ast.Call, body: FunctionInfo, offset: int) -> None:
        """The keys in the operands ``node`` hands to parameters ``body`` consumes."""
        assert self.tracker is not None and self.state is not None
        consumed = self.model.consumed_params(body)
        for position, name in enumerate(body.positional_names()[offset:]):
            operand = body_operand(node, transform, position)
            if name in consumed and operand is not None:
                for part in _display_items(operand):
                    value = self.values.get(part, UNKNOWN)
                    keys = all_key_ids(value)
                    if keys:
                        # an item of a display (`(key, total)`) is what the body unpacks
                        partial = name in body.consumed_in_part and part is operand
                        paths = body.consumed_paths.get(name, frozenset()) if partial else frozenset()
                        along = keys_along_all(value, paths)
                        keys = keys if along is None else along
                        self.tracker.consume(
                            node, keys, _key_text(part), _root_name(part), self.state, partial
                        )

    def finish_keys(self, info: FunctionInfo, returns: Value) -> None:
        """Record what the run found about keys: its events, the parameters and outer keys it
        consumes, and the keys a loop body or a jitted function consumes on every step or call."""
        tracker = self.tracker
        assert tracker is not None
        outside = {key: call for key, call in tracker.all_consumed.items() if not made_inside(key, info.node)}
        # a key folded from one made outside (with Python data or a step index) is the same key
        # each time the function runs again: whoever runs it consumes it
        folds = {
            key: call
            for key, call in tracker.all_consumed.items()
            if is_fold(key) and not made_inside(key[1], info.node)  # pyright: ignore[reportIndexIssue]
        }
        for key, call in outside.items():
            # said where the class reads its own key: a caller may build a new object per call
            if _held_by_class_of(key, info, self.model):
                tracker.event(call, KeyEvent("held", tracker.text_of(call, key), None, info.name))
        if info.repeated_by in LOOPING_BODIES:
            repeated = [*outside.values(), *(c for k, c in folds.items() if k not in self.step_folds)]
            for call in repeated:
                tracker.event(call, KeyEvent("loop", tracker.texts[call], None, info.repeated_by, "closure"))
            carried = self.carried_keys(info, returns)
            condition_carry = info.body_params()[:1] if info.loop_condition else []
            # parameters `partial` bound before the loop runs the body: the same on every step
            bound = set(info.positional_names()[: info.body_offset]) | info.body_bound
            for key, call in tracker.all_consumed.items():
                # folded with Python data, the carried key gives the same key on every check
                behind = {name for part in (key, *lineage(key)) for name in tracker.params_behind(part)}
                if any(name in behind for name in condition_carry):
                    tracker.event(call, KeyEvent("condition", tracker.texts[call], None, info.repeated_by))
                if key in self.step_folds:
                    continue  # a different index each step
                if bound & set(tracker.params_behind(key)):
                    tracker.event(
                        call, KeyEvent("loop", tracker.texts[call], None, info.repeated_by, "closure")
                    )
                    continue
                if holds_carried(key, carried):
                    tracker.event(
                        call, KeyEvent("loop", tracker.texts[call], None, info.repeated_by, "carry")
                    )
        root = self.model.compiled_root(info) if outside and info.traced_to_run else None
        if root is not None and not self.model.runs_once(root):  # one call draws once
            # a call that may draw from a parameter instead (`KEY if key is None else key`)
            # draws what the caller passes: only one drawing the outer key alone is claimed
            given = {c for k, c in tracker.all_consumed.items() if tracker.params_behind(k)}
            for key, call in outside.items():
                if self.model.made_eagerly(key) and call not in tracker.through_callees and call not in given:
                    text = tracker.text_of(call, key)
                    how = "jitted" if root.transformed_by & JITTING_KINDS else "checkpointed"
                    tracker.event(call, KeyEvent("call", text, None, root.name, info.name, how))
        info.key_events = tracker.events
        # a parameter the function stores a new key back into (`state["key"], sub = split(...)`)
        # holds a fresh key for the caller's next use: the call does not use it up
        info.consumed_params = tracker.consumed_params - (
            self.keys_written_back & set(info.positional_names())
        )
        info.consumed_in_part = tracker.consumed_params - tracker.whole_params
        info.consumed_by_init = tracker.consumed_params - tracker.drawn_params
        info.consumed_paths = {
            param: frozenset(paths)
            for param, paths in tracker.param_paths.items()
            if paths is not None and param in info.consumed_in_part and all(paths)
        }
        info.consumption_guards = tracker.param_guards
        self.model.partial_calls |= tracker.partial_calls
        info.consumed_outside = {**outside, **folds}

    def carried_keys(self, info: FunctionInfo, returns: Value) -> frozenset[object]:
        """Keys a lax loop body receives in its carry and hands back unchanged in the new carry:
        the next step consumes them again (and every key taken from them by indexing or field)."""
        carry_position, returned_position = LOOPING_BODIES[info.repeated_by or ""]
        if carry_position is None:
            return frozenset()
        names = info.body_params()
        if carry_position >= len(names):
            return frozenset()
        carry = ("param", info.node, names[carry_position])
        returned = (
            returns if returned_position is None else (subscript(returns, returned_position) or UNKNOWN)
        )
        return frozenset(
            key
            for key in all_key_ids(returned)
            if (spread := spread_base(key)) == carry or carry in ancestors(spread)
        )

    def call_qualified(
        self, qualname: str, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        result = self.qualified_result(qualname, node, args, keywords)
        if self.tracker is not None and qualname in KEY_VIEW_FUNCTIONS and node.args and key_ids(args[0]):
            return with_keys(result, key_ids(args[0]))  # `jnp.reshape(key, (1,))`: the same key
        if (
            self.tracker is not None
            and node.args
            and qualname in KEY_REPEATING_FUNCTIONS | KEY_STACKING_FUNCTIONS
        ):
            # `jnp.repeat(key[None], n, axis=0)`: n copies of the key; `jnp.stack([key] * n)`:
            # the copies stacked (a stack of different keys is no batch of copies)
            single = key_ids(args[0]) if qualname in KEY_REPEATING_FUNCTIONS else frozenset()
            repeated = [copy_of(k) or k for k in copied_keys(args[0], node) or single]
            if repeated:
                return with_keys(result, frozenset(copies(k, node) for k in repeated))
        return result

    def qualified_result(
        self, qualname: str, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        every = [*args, *keywords.values()]
        if qualname in FLAX_LIFTED and args:
            lifted = [ref for ref in refs(args[0]) if isinstance(ref, ClassRef)]
            if lifted:  # `nn.vmap(Head, ...)`: still the class, its `apply` runs `Head.__call__`
                return referring(lifted)
        if qualname in api.PREDICATE_TAKERS and len(node.args) == 2:
            self.trace_predicate(qualname, node, args[1])
        if self.tracker is not None and qualname.startswith("jax.random."):
            return self.random_call(qualname, node, args, keywords, self.jax_call(qualname, node, every))
        if qualname in measured.key_consuming_initializers():
            # `init = jax.nn.initializers.glorot_normal()`: a function that draws from its key
            return referring([LibraryRef(qualname + INITIALIZER)])
        if qualname.endswith(INITIALIZER):  # `init(key, (3, 3))`
            if self.tracker is not None and node.args and not isinstance(node.args[0], ast.Starred):
                self.consume(node, node.args[0], args[0])
            return array(any(is_traced(v) for v in every))
        if self.tracker is not None and "key" in keywords and qualname in measured.key_consuming_layers():
            argument = keyword_argument(node, "key")  # `eqx.nn.Linear(4, 4, key=k)` draws its weights
            if argument is not None:
                self.consume(node, argument, keywords["key"])
        fields = measured.layer_array_fields().get(qualname)
        if fields is not None and not any((k.arg or "").startswith("use_") for k in node.keywords):
            # `eqx.nn.Linear(3, 2, key=k)`: its weights are JAX arrays (a `use_bias=False` may
            # leave a field None)
            made = self.staged(array(any(is_traced(v) for v in every)))
            return library_layer((name, made) for name in fields)
        if qualname in api.OPTAX_ARRAY_FUNCTIONS or qualname.startswith("optax.losses."):
            return array(any(is_traced(v) for v in every))  # `optax.global_norm(grads)`
        if qualname in api.OPTAX_TREE_FUNCTIONS:
            return TRACED if any(is_traced(v) for v in every) else UNKNOWN
        if self.level > NONE and self.info is not None and any(is_traced(v) for v in every):
            external = self.model.external_function(node.func, self.scope)
            if external is not None:
                reason = (
                    f"`{external.rsplit('.', 1)[1]}` is called from traced `{self.info.name}` in "
                    f"`{self.model.project.module or 'its caller'}` at line {node.lineno}"
                )
                self.model.request_call(
                    external, self.level, _positional(node, args), keywords, reason, caller=self.info
                )
                returned = self.model.project.returned(external)
                return UNKNOWN if returned is None else returned
        if qualname == "itertools.repeat" and args and self.tracker is not None:
            repeated = frozenset(copies(k, node) for k in key_ids(args[0]))
            if repeated:  # `itertools.repeat(key)`: every item is that key
                return with_keys(container([without_keys(args[0])]), repeated)
        if qualname.startswith("builtins."):
            return self.call_builtin(qualname, node, args, every)
        transform = self.model.transforms.get(qualname)
        if transform is not None:
            if self.level > NONE and transform.kind not in ("wrapper", "callback"):
                self.model.apply_call(node, self.scope, transform, self.level)
            transformed = self.transform_values(transform, node)
            if transform.kind == "body":
                self.feed_bodies(transform, node)
            if not transform.evaluates or qualname in api.STATIC_QUERIES:
                return transformed
            self.consume_closed_over(transform, node)
            traced = self.staging(every)
            carry = self.loop_carry(qualname, node, traced)
            if qualname == "jax.lax.scan":
                return (
                    sequence([carry or TRACED, TRACED]) if traced else sequence([carry or UNKNOWN, UNKNOWN])
                )
            if carry is not None:
                return carry
            return TRACED if traced else UNKNOWN
        if qualname in api.STATIC_QUERIES or measured.is_static_query(qualname):
            return STATIC
        if qualname in TREE_MAPS:
            return self.call_tree_map(node, args, qualname.endswith("with_path"))
        if qualname in PARTIALS:
            return self.partial_value(node)
        if qualname == "dataclasses.replace" and len(args) == 1:
            return self.replaced(args[0], keywords, named_tuple=False) or UNKNOWN
        if qualname == "jax.lax.stop_gradient" and self.level == CONCRETE and args:
            return untraced(args[0])  # under a bare grad: the primal value, not a JVP tracer
        if qualname == "jax.device_put" and args and _array_leaf(args[0]):
            return array(is_traced(args[0]), mask=is_mask(args[0]))  # `device_put(np.zeros(3))`
        if qualname in api.PASSTHROUGH:
            return args[0] if args else UNKNOWN
        if qualname in api.REF_CONSTRUCTORS:
            return UNKNOWN  # a mutable reference, not an array
        if qualname.startswith(api.JAX_ARRAY_NAMESPACES):
            return self.jax_call(qualname, node, every)
        if qualname.startswith("jax.tree"):
            traced = any(is_traced(v) for v in every)
            leaves = TRACED_CONTAINER if traced else CONTAINER  # a list: its truthiness and length are static
            if qualname.endswith("flatten"):
                return sequence([leaves, STATIC])
            if qualname.endswith("leaves"):
                known = tree_leaves(args[0]) if len(args) == 1 and not keywords else None
                return leaves if known is None else sequence(known)
            return (TRACED if traced else UNKNOWN) if qualname in api.TREE_CONTAINER_RESULTS else UNKNOWN
        if qualname.startswith(("numpy.", "math.")):
            if all(is_static(v) for v in every):
                made = qualname in api.NUMPY_ARRAY_MAKERS or (
                    any(map(is_numpy_array, every)) and _numpy_array_function(qualname)
                )  # `np.sum(mask)` of a NumPy array: a NumPy scalar, not a Python number
                return NUMPY_ARRAY if made else STATIC
            if args and is_traced(args[0]) and measured.numpy_rejects_tracer(qualname) is False:
                # measured: NumPy calls the tracer's own method (`np.all(x)` is `x.all()`)
                return TRACED_CONTAINER if qualname in NUMPY_SPLITS else array(True)
            return UNKNOWN
        if qualname.startswith("jax.debug."):
            return STATIC
        if _constructs_object(qualname):
            return CONTAINER  # truth and length are the object's own, never a tracer's
        return UNKNOWN

    def transform_values(self, transform: Transform, node: ast.Call) -> Value:
        """Apply ``transform`` to the functions its call receives as values (a lambda bound to a
        name, a bound method, a function rebound under its own name, a factory's closure...):
        they are traced as the transformation says, and the result is the transformed function."""
        made: list[Ref] = []
        for argument in function_arguments(node, transform):
            library = self.plain_library_function(argument)
            if library is not None and transform.kind != "wrapper":
                made.append(LibraryRef(library, (LayerRef(transform.name, node, node),)))
            for ref in refs(self.values.get(argument, UNKNOWN)):
                if isinstance(ref, InstanceRef) and transform.kind != "wrapper":
                    ref = self.call_method_of(ref, transform)  # `jax.jit(model)` traces `__call__`
                if transform.kind == "wrapper":
                    made.append(ref)
                elif isinstance(ref, FunctionRef):
                    layer = LayerRef(transform.name, node, node, ref.offset, ref.bound)
                    transformed = dataclasses.replace(ref, layers=(*ref.layers, layer)[-MAX_LAYERS:])
                    passed = (
                        self.model.passed_by_calls(node, self.scope)
                        if transform.kind in CALL_STAGING
                        else None
                    )
                    self.model.apply_function_ref(transformed, self.level, passed)
                    made.append(transformed)
                elif isinstance(ref, LibraryRef):
                    layers = (*ref.layers, LayerRef(transform.name, node, node))
                    made.append(LibraryRef(ref.qualname, layers, held=ref.held))  # (still drawing from them)
        return referring(made) if made else STATIC

    def call_method_of(self, ref: InstanceRef, transform: Transform) -> Ref:
        """The bound ``__call__`` of an instance of a class of this module, else the instance.
        Never a flax module, which runs only through ``apply``. ``jit``, ``checkpoint``, ``pmap``
        and the ``lax`` loops hash the function they are given, so there only a plain class's
        object is traced: a dataclass is unhashable, and a pytree class (an equinox module)
        hashes its array fields (``TypeError``, before any tracing). ``vmap`` and ``grad`` hash
        nothing, and equinox's ``filter_jit`` splits a module into its arrays and the rest
        (measured with JAX 0.10.2: each traces ``__call__``)."""
        node = ref.node
        model = self.model
        if model.is_flax_module(node):
            return ref
        pytree = model.pytree_class(node)
        hashes = transform.kind not in UNHASHING_KINDS and not (
            transform.kind == "filter" and pytree is not None and pytree.only_arrays_traced
        )
        if hashes and (pytree is not None or model.is_dataclass(node)):
            return ref
        method = model.bound_method(ref, "__call__")
        return ref if method is None else method

    def plain_library_function(self, expr: ast.expr) -> str | None:
        """``float``, ``math.sqrt``, ``np.asarray``: a function of Python or NumPy that a transform
        may be applied to (JAX's own functions are library values already)."""
        if not isinstance(expr, (ast.Name, ast.Attribute)):
            return None
        qualname = self.resolver.qualname(expr, self.scope)
        if qualname is None or not qualname.startswith(("builtins.", "math.", "numpy.", "operator.")):
            return None
        return qualname

    def loop_carry(self, qualname: str, node: ast.Call, traced: bool) -> Value | None:
        """The final carry of ``fori_loop``/``while_loop``/``scan``: the initial one's pytree."""
        operand = LOOP_CARRIES.get(qualname)
        if operand is None:
            return None
        transform = self.model.transforms[qualname]
        argument = body_operand(node, transform, operand)
        if argument is None:
            return None
        return traced_leaves(self.values.get(argument, UNKNOWN), traced)

    def feed_bodies(self, transform: Transform, node: ast.Call) -> None:
        """``lax.fori_loop(0, n, body, init)``: ``body``'s carry is ``init``'s pytree, traced."""
        for argument in self.model.branch_tables(function_arguments(node, transform), self.scope, transform):
            for ref in refs(self.values.get(argument, UNKNOWN)):
                if isinstance(ref, InstanceRef):
                    ref = self.call_method_of(ref, transform)
                if not isinstance(ref, FunctionRef) or ref.layers:
                    continue
                target = self.model.infos.get(ref.node)
                if target is None:
                    continue
                params: dict[str, Value] = {}
                for position, name in enumerate(target.positional_names()[ref.offset :]):
                    operand = body_operand(node, transform, position)
                    if operand is not None:
                        params[name] = traced_leaves(self.values.get(operand, UNKNOWN))
                params = dict(ref.traced_bound) | params  # `partial(body, scale=s)`, `s` traced
                if params and target.feed(params):
                    self.model.enqueue(target)

    def partial_value(self, node: ast.Call) -> Value:
        """``functools.partial(f, a, k=v)``: ``f`` with its leading parameters and ``k`` bound."""
        if not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            return STATIC
        sampler = self.bound_sampler(node)
        if sampler is not None:
            return referring([sampler])
        made = [
            FunctionRef(
                ref.node,
                ref.offset + len(node.args) - 1,
                ref.bound | {k.arg for k in node.keywords if k.arg},
                ref.layers,
                held=ref.held + self.bound_keys(ref, node),
                traced_bound=ref.traced_bound + self.traced_bound(ref, node),
            )
            for ref in refs(self.values.get(node.args[0], UNKNOWN))
            if isinstance(ref, FunctionRef)
        ]
        return referring(made) if made else STATIC

    def traced_bound(self, ref: FunctionRef, node: ast.Call) -> tuple[tuple[str, Value], ...]:
        """The parameters ``partial(f, a, k=v)`` binds to traced values, with those values."""
        target = self.model.infos.get(ref.node)
        if target is None:
            return ()
        names = target.positional_names()[ref.offset : ref.offset + len(node.args) - 1]
        pairs = [*zip(names, node.args[1:]), *((k.arg, k.value) for k in node.keywords if k.arg)]
        return tuple(
            (name, value)
            for name, argument in pairs
            if is_traced(value := self.values.get(argument, UNKNOWN))
        )

    def bound_sampler(self, node: ast.Call) -> LibraryRef | None:
        """``partial(jax.random.normal, key)``: a ``jax.random`` function that consumes the key
        bound to it, on every call; ``partial(model.apply, rngs={"dropout": key})``: a flax
        module's ``apply`` that draws from the keys of ``rngs`` on every call."""
        held = self.keys_among([("rngs", value) for value in bound_rngs_keys(node)])
        if held:
            return LibraryRef(LINEN_APPLY, held=held)
        qualname = self.resolver.qualname(node.args[0], self.scope)
        if self.tracker is None or qualname is None or not self.consumes_key(qualname):
            return None
        bound = node.args[1] if len(node.args) > 1 else keyword_argument(node, "key")
        held = self.keys_among([("key", bound)] if bound is not None else [])
        return LibraryRef(qualname, held=held) if held else None

    def call_bound_sampler(
        self, ref: LibraryRef, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        """A call of ``partial(jax.random.normal, key)``: it draws from the bound key again."""
        if self.tracker is not None and self.state is not None:
            for _, text, keys in ref.held:
                self.tracker.consume(node, keys, text, text.split(".")[0], self.state)
                self.model.bound_key_calls.add(node)
        if ref.qualname == LINEN_APPLY:
            return UNKNOWN  # the module's output (with its mutated collections, if any)
        return array(self.staging([*args, *keywords.values()]))

    def bound_keys(self, ref: FunctionRef, node: ast.Call) -> tuple[tuple[str, str, frozenset[object]], ...]:
        """The keys ``partial(f, key, ...)`` binds, by the parameter of ``f`` each is bound to:
        every call of the partial function hands them to ``f`` again."""
        target = self.model.infos.get(ref.node)
        if target is None or ref.layers:
            return ()
        names = target.positional_names()[ref.offset :]
        return self.keys_among(
            [*zip(names, node.args[1:]), *((k.arg, k.value) for k in node.keywords if k.arg)]
        )

    def consume_held(self, target: FunctionInfo, ref: FunctionRef, node: ast.Call) -> None:
        """A call of ``partial(f, key)``, or of a nested ``def f(x, key=key)`` that leaves the key
        out, consumes that key where ``f`` consumes the parameter."""
        passed = _passed_parameters(target, ref.offset, node)
        if self.tracker is None or self.state is None or target is self.info or passed is None:
            return
        consumed = self.model.consumed_params(target)
        if consumed and target.consumption_guards:
            consumed = self.consumed_at(target, ref.offset, node, ref.bound, consumed)
        for name, text, keys in ref.held:
            if name in consumed and name not in passed:
                self.tracker.consume(node, keys, text, text.split(".")[0], self.state)
                self.model.bound_key_calls.add(node)

    def jax_call(self, qualname: str, node: ast.Call, every: list[Value]) -> Value:
        if qualname.startswith("jax.nn.initializers."):
            return UNKNOWN  # initializers return functions
        traced = self.staging(every)
        first = every[0] if every and node.args else None
        if (
            first is not None
            and is_jax_array(first)
            and not is_traced(first)
            and qualname in api.CONVERTING_AS_IS
        ):
            return array(False, mask=is_mask(first))  # measured: a concrete array of its dtype stays one
        if (
            qualname in api.CONTAINER_RESULTS
            or (qualname == "jax.numpy.where" and len(node.args) == 1 and not node.keywords)
            or (
                qualname == "jax.numpy.unique"
                and any(kw.arg and kw.arg.startswith("return_") for kw in node.keywords)
            )
        ):
            if qualname in api.PYTREE_RESULTS:
                return TRACED if traced else UNKNOWN
            return TRACED_CONTAINER if traced else CONTAINER
        mask = qualname in api.BOOL_RESULTS or _bool_dtype(node) or _bool_display(qualname, node)
        return array(traced, mask=mask)

    def call_builtin(self, qualname: str, node: ast.Call, args: list[Value], every: list[Value]) -> Value:
        if qualname in api.STATIC_BUILTINS:
            if qualname == "builtins.range" and not all(is_static(v) for v in every):
                return UNKNOWN
            return STATIC
        if qualname in api.CONVERSION_BUILTINS:
            if not args:
                return STATIC
            first = args[0]
            return STATIC if (is_static(first) or is_jax_array(first)) and not is_traced(first) else UNKNOWN
        if qualname in ("builtins.abs", "builtins.round"):
            return args[0] if args else UNKNOWN
        if qualname in ("builtins.max", "builtins.min"):
            return STATIC if every and all(is_static(v) for v in every) else UNKNOWN
        if qualname == "builtins.sum":
            return element(args[0]) if args else UNKNOWN
        if qualname == "builtins.dict.fromkeys" and len(args) == 2 and self.tracker is not None:
            repeated = frozenset(copies(k, node) for k in key_ids(args[1]))
            if repeated:  # `dict.fromkeys(LAYERS, key)`: every value is that key
                return with_keys(container([without_keys(args[1])], is_mapping=True), repeated)
        if qualname in (
            "builtins.list",
            "builtins.tuple",
            "builtins.set",
            "builtins.sorted",
            "builtins.reversed",
            "builtins.dict",
            "builtins.zip",
            "builtins.enumerate",
            "builtins.frozenset",
        ):
            if qualname == "builtins.tuple" and args and known_elements(args[0]) is not None:
                return args[0]
            # each iterates its arguments: a dict gives its keys
            return container([iterated(v) if i < len(args) else v for i, v in enumerate(every)])
        return UNKNOWN

    def call_function(
        self, func: ast.Name, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        found = self.model.resolve_function(func, self.scope)
        if found is None:
            if self.layer_made(self.bound_value(func.id)):
                return array(self.staging([*args, *keywords.values()]))  # `dense(x)`, `MLP(x)`
            return UNKNOWN
        return self.call_helper(found[0], found[1], node, args, keywords)

    def traced_call(self, callee: Value, result: Value) -> Value:
        """What calling ``callee`` gave, or a tracer where that is unknown and the callee itself
        holds tracers: a module JAX traces (``model(x)`` in a loss under ``nnx.grad``) computes
        its result from its leaves."""
        if result is UNKNOWN and self.level >= CONCRETE and is_traced(callee):
            return TRACED
        return result

    def bound_value(self, name: str) -> tuple[ast.expr, Scope] | None:
        """The expression ``name`` is bound to where it is bound once, with its scope."""
        owner = self.scope.lookup(name)
        value = None if owner is None else owner.single_value(name)
        return None if value is None or owner is None else (value, owner)

    def layer_made(self, bound: tuple[ast.expr, Scope] | None) -> bool:
        """Whether an expression makes a layer of flax or equinox (``nn.Dense(3)``,
        ``eqx.nn.MLP(...)``): called, the layer returns one array."""
        if bound is None or not isinstance(bound[0], ast.Call):
            return False
        func = bound[0].func
        if not isinstance(func, (ast.Name, ast.Attribute)):
            return False
        return self.resolver.qualname(func, bound[1]) in api.ARRAY_LAYERS

    def call_method(
        self,
        func: ast.Attribute,
        receiver: Value,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
    ) -> Value:
        result = self.method_result(func, receiver, node, args, keywords)
        if self.tracker is not None and func.attr in KEY_VIEW_METHODS and key_ids(receiver):
            return with_keys(result, key_ids(receiver))  # `key.reshape((1,))`: the same key
        return result

    def method_result(
        self,
        func: ast.Attribute,
        receiver: Value,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
    ) -> Value:
        found = self.model.resolve_function(func, self.scope)
        if found is not None:
            return self.call_helper(found[0], found[1], node, args, keywords)
        if func.attr in RECORD_REPLACES and not args:
            replaced = self.replaced(receiver, keywords, named_tuple=func.attr == "_replace")
            if replaced is not None:
                return replaced
        every = [*args, *keywords.values()]
        method = func.attr
        items = known_elements(receiver)
        held = func.value.id if isinstance(func.value, ast.Name) else None
        if method == "append" and held and items is not None and len(args) == 1 and not keywords:
            self.rebind_items(held, [*items, args[0]])  # `ts.append(x)`: one more item
        elif method in api.MUTATING_METHODS:  # `d.update(...)`: what it holds is known only as a whole
            self.taint_container(func.value, TRACED if any(is_traced(v) for v in every) else STATIC)
        base = whole(receiver)
        if is_traced(base) and method in api.ARRAY_ONLY_METHODS:
            base = as_array(base)  # lists and dicts have no `.sum()`: the receiver is an array
        if is_jax_array(base):
            if method in api.CONVERSION_METHODS:
                return UNKNOWN
            if method in api.ARRAY_METHODS:
                # measured: `.astype` of a concrete array to its own dtype gives it back, not a
                # tracer; to another dtype, a tracer. The dtype is not known: taken as concrete
                kept = method == "astype" and not is_traced(base)
                traced = not kept and (is_traced(base) or self.staging(every))
                mask = (method in api.BOOL_METHODS or (method == "astype" and _bool_dtype(node))) or (
                    method in api.BOOL_PRESERVING_METHODS and is_mask(base)
                )
                return array(traced, mask=mask)
            if method == "nonzero":
                return TRACED if is_traced(base) else UNKNOWN
            return UNKNOWN
        if is_container(base) and method == "copy" and not args:
            return base
        if is_traced(base):
            if method in ("get", "pop", "values", "copy"):
                return TRACED
            if method == "items":
                return TRACED
            if method == "keys":
                return STATIC
            return UNKNOWN
        if is_static(base):
            return STATIC if all(is_static(v) for v in every) else UNKNOWN
        return UNKNOWN

    def call_helper(
        self,
        target: FunctionInfo,
        offset: int,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
        bound: frozenset[str] = frozenset(),
        receiver: Value | None = None,
        traced_bound: dict[str, Value] | None = None,
    ) -> Value:
        """A call into a function of this module: traced arguments make it a traced helper
        (``bound``: the keywords a ``partial`` gave it, ``traced_bound`` the traced values among
        them; ``receiver``: the record a method is called on, whose known fields ``self`` then
        holds)."""
        if self.info is not None:
            target.callers.add(self.info)
        if self.level > NONE and target is not self.info:
            params = (traced_bound or {}) | self.bind_arguments(target, offset, node, args, keywords)
            params |= self.traced_defaults(target, offset, node, bound, params)
            nondiff = self.model.custom_derivatives.get(target) if self.level == STAGED else None
            if nondiff is not None:
                params = _custom_derivative_params(target, nondiff, params)
            relevant = {
                name: value
                for name, value in params.items()
                if is_traced(value)
                or (self.level == CONCRETE and is_jax_array(value))
                or (_names_functions(value) and self.model.uses_function_param(target, name))
            }
            if receiver is not None and record_kind(receiver) is not None and target.positional_names():
                relevant[target.positional_names()[0]] = receiver  # its known fields
            flags = self.call_flags(target, offset, node, bound)
            # staged code runs its callees in the trace even on static arguments: every `jnp`
            # result there is a tracer (omnistaging)
            if self.info is not None and (relevant or self.level == STAGED):
                reason = f"`{target.name}` is called from traced `{self.info.name}` at line {node.lineno}"
                if nondiff is not None:
                    reason += (
                        ", and as a custom-derivative function it gets every argument not in its "
                        "`nondiff_argnums` as a tracer"
                    )
                if target.apply(self.level, relevant, reason, self.runs, flags):
                    self.model.enqueue(target)
            elif target.merge_flags(flags) and target.effective_level > NONE:
                self.model.enqueue(target)
        elif self.level == NONE and target is not self.info:
            self.hand_functions(target, bind_values(target, offset, _positional(node, args), keywords))
        if not target.analyzed and (
            target.node in self.model.makes_functions
            or self.model.makes_objects(target)
            or (self.level == NONE and self.model.makes_arrays(target))
        ):
            self.model.ensure(target)  # a factory: what it returns may be a function to trace
        self.consume_through(target, offset, node, args, keywords, bound)
        result = without_keys(target.returns) if target.analyzed else UNKNOWN
        if target.analyzed and target.spent_returns:
            result = self.spent_result(node, target, result)
        if self.level < ABSTRACT and known_elements(result) is None:
            result = untraced(result)
        return result

    def spent_result(self, node: ast.Call, target: FunctionInfo, result: Value) -> Value:
        """The result of ``node`` with a key that ``target`` consumed before returning it: a key
        consumed already, by that call in ``target`` (`_, key = step(key)`, then `split(key)`)."""
        if self.tracker is None or self.state is None:
            return result
        items = known_elements(result)
        text = f"the key `{target.name}` returns"
        spent = target.spent_returns
        if None in spent or items is None:
            key = self.fresh_key(("spent", node, None))
            self.tracker.consume(next(iter(spent.values())), [key], text, "", self.state)
            return with_keys(result, frozenset({key}))
        made = list(items)
        for position, consumer in spent.items():
            if position is not None and position < len(made):
                key = self.fresh_key(("spent", node, position))
                self.tracker.consume(consumer, [key], text, "", self.state)
                made[position] = with_keys(made[position], frozenset({key}))
        return with_items(result, made)  # (a NamedTuple state stays one: `state.key` is that key)

    def traced_defaults(
        self,
        target: FunctionInfo,
        offset: int,
        node: ast.Call,
        bound: frozenset[str],
        passed: dict[str, Value],
    ) -> dict[str, Value]:
        """The parameters a call leaves to their defaults where the default is a tracer: a nested
        ``def inner(y, m=n)`` evaluated its default when the traced ``def`` statement ran."""
        given = _passed_parameters(target, offset, node)
        if given is None:
            return {}
        taken = {*given, *passed, *bound, *target.positional_names()[:offset]}
        found = {}
        for name, default in parameter_defaults(target.node.args).items():
            value = self.values.get(default)
            if name not in taken and value is not None and is_traced(value):
                found[name] = value
        return found

    def call_flags(
        self, target: FunctionInfo, offset: int, node: ast.Call, bound: frozenset[str]
    ) -> dict[str, bool | None]:
        """The truth of each parameter of ``target`` that this call fixes with a constant: a
        literal, a module flag (``DEBUG``), or the constant default of a parameter it leaves
        out; None for the others: those bound before the call (``self``, by ``partial``), and
        all of them where ``*args``/``**kwargs`` are passed."""
        params = target.param_nodes()
        given = _argument_expressions(target, offset, node, bound)
        if given is None:
            return dict.fromkeys((p.arg for p in params), None)
        return {p.arg: self.truth_of(given.get(p.arg)) for p in params}

    def truth_of(self, expr: ast.expr | None) -> bool | None:
        """The truth of a constant expression: a literal or a module flag; None otherwise."""
        if isinstance(expr, ast.Constant):
            return bool(expr.value)
        flags = self.model.module_flags
        if (
            isinstance(expr, ast.Name)
            and expr.id in flags
            and self.scope.lookup(expr.id) is self.model.index.module
        ):
            return flags[expr.id]
        return None

    def hand_functions(self, target: FunctionInfo, params: dict[str, Value]) -> None:
        """Eager code handing functions of this module to ``target`` (``compiled(f)``, a
        decorator of its own): ``target`` runs with them, so a transformation it applies to
        them (``jax.jit(fn)``) traces them."""
        model = self.model
        functions = {
            name: value
            for name, value in params.items()
            if _names_functions(value)
            and (
                model.transforms_param(target, name)
                or name in model.stored_on_self(target)
                or (target.effective_level > NONE and model.calls_within(target, name))
            )
        }
        if functions and target.apply(NONE, functions, "", self.runs):
            self.model.enqueue(target)

    def hand_arrays(self, target: FunctionInfo, ref: FunctionRef, params: dict[str, Value]) -> None:
        """Eager code passing a JAX array to a function that equinox's ``filter_jit`` or
        ``filter_vmap`` transforms: it traces every array it is given, so the parameter is a
        tracer there (an unannotated one says nothing by itself)."""
        kinds = {
            self.model.transforms[layer.transform].kind
            for layer in ref.layers
            if layer.transform in self.model.transforms
        }
        if not kinds & FILTER_KINDS:
            return
        found = {
            name: traced
            for name, value in params.items()
            if name in target.scope.params and (traced := filter_traced(value)) is not None
        }
        if found and target.apply(NONE, found, "", self.runs):
            self.model.enqueue(target)

    def hand_masks(self, target: FunctionInfo, params: dict[str, Value], ref: FunctionRef) -> None:
        """Eager code passing an array to a parameter that the transformation traces: there it
        is a traced array, not a pytree of unknown shape (``sorted(x)`` compares its elements), and
        a boolean mask (``jax.vmap(masked_sum)(xs, xs > 0)``) stays a mask, so indexing with it
        has a shape that depends on the data. One such call is enough for that to raise. A
        parameter the mapping leaves unmapped (``in_axes=None``) is not traced by this call."""
        kinds = {
            self.model.transforms[layer.transform].kind
            for layer in ref.layers
            if layer.transform in self.model.transforms
        }
        if not kinds - {"grad"}:
            return  # a bare `grad` traces concretely: what it is given says nothing of other traces
        unmapped = _unmapped_names(target, ref)
        masks = {
            name: TRACED_MASK if is_mask(value) else TRACED_ARRAY
            for name, value in params.items()
            if (unmapped is not None and name not in unmapped)
            and not is_traced(value)
            and not is_container(value)
            and (is_jax_array(value) or is_numpy_array(value))
        }
        if masks and target.refine_params(masks):
            self.model.enqueue(target)

    def hand_containers(
        self, target: FunctionInfo, params: dict[str, Value], numbers: frozenset[str] = frozenset()
    ) -> None:
        """Eager code passing a list, tuple or dict it made to a parameter the transformation
        traces (``run([w1, w2])``): the function receives that pytree, each leaf a tracer, and
        its truth, length and indexing stay Python's (``ws[i]`` with a traced ``i`` raises)."""
        found = {
            name: traced_leaves(value)
            for name, value in params.items()
            if is_container(value)
            and not instance_classes(value)
            and (not _holds_static(value) or name in numbers)
            and target.params.get(name) == TRACED
        }
        if found and target.detail_params(found):
            self.model.enqueue(target)

    def hand_instances(self, target: FunctionInfo, params: dict[str, Value], ref: FunctionRef) -> None:
        """Eager code passing an object of a class of this module to a transformed function
        (``run(Clip(1.0), x)``): the function calls its methods in the trace. A pytree object
        (an equinox module, a registered dataclass) arrives with its fields traced as the
        transformation traces them; any other object, or one passed for a static parameter
        (``static_argnums``), is a static argument, as it was. A flax nnx module handed to
        ``nnx.jit`` arrives with the value of each of its variables traced."""
        found = {}
        nnx = any(layer.transform in NNX_TRACING_VARIABLES for layer in ref.layers)
        for name, value in params.items():
            classes = {ref.node for ref in refs(value) if isinstance(ref, InstanceRef)}
            if len(classes) != 1 or name not in target.scope.params:
                continue
            cls = classes.pop()
            variables = self.model.nnx_variables(cls) if nnx else None
            if variables and not is_static(target.params.get(name, UNKNOWN)):
                fields = [(attr, traced_variable(held)) for attr, held in sorted(variables.items())]
                found[name] = record(InstanceRef(cls), fields, False)
                continue
            pytree = self.model.pytree_class(cls)
            if is_static(target.params.get(name, UNKNOWN)):
                if is_static(value):  # a static object: its fields are the Python values it was made with
                    found[name] = value
                continue  # (one with a field not known stays a bare static value, never traced)
            found[name] = (
                traced_instance(self.model, pytree)
                if pytree is not None
                else referring([InstanceRef(cls)], static=False)
            )
        if found and target.detail_params(found):
            self.model.enqueue(target)

    def bind_arguments(
        self,
        target: FunctionInfo,
        offset: int,
        node: ast.Call,
        args: list[Value],
        keywords: dict[str, Value],
    ) -> dict[str, Value]:
        """Map a call's argument values onto ``target``'s parameters."""
        return bind_values(target, offset, _positional(node, args), keywords)

    def call_tree_map(self, node: ast.Call, args: list[Value], with_path: bool = False) -> Value:
        """``jax.tree.map(f, tree)``: ``f`` runs on the traced leaves; the result is the tree of
        what ``f`` returns (unknown when ``f`` is not a function of this module)."""
        found = self.model.resolve_function(node.args[0], self.scope) if node.args else None
        if found is None or self.info is None:
            return UNKNOWN
        target, offset = found
        if not (len(args) == 2 and is_jax_array(args[1])):  # a lone array is a tree of one leaf
            self.mapped_key_event(node, target)
        if self.level > NONE and any(is_traced(v) for v in args[1:]):
            positional = target.positional_names()[offset:]
            if with_path:  # the first parameter gets each leaf's key path: static
                positional = positional[1:]
            params = {name: _tree_leaf(value) for name, value in zip(positional, args[1:])}
            params = {name: value for name, value in params.items() if is_traced(value)}
            reason = (
                f"`{target.name}` is mapped over traced leaves in `{self.info.name}` at line {node.lineno}"
            )
            if params and target.apply(self.level, params, reason, self.runs):
                self.model.enqueue(target)
        target.callers.add(self.info)
        returned = target.returns if target.analyzed else UNKNOWN
        return TRACED if is_traced(returned) and self.level >= ABSTRACT else UNKNOWN

    def trace_predicate(self, qualname: str, node: ast.Call, iterable: Value) -> None:
        """``itertools.takewhile(pred, xs)`` in traced code: ``pred`` runs on each element of
        ``xs``, a tracer where ``xs`` holds them (the caller then takes the truth of its result)."""
        element = iterated(iterable)
        found = self.model.resolve_function(node.args[0], self.scope)
        if self.level == NONE or self.info is None or not is_traced(element) or found is None:
            return
        target, offset = found
        names = target.positional_names()[offset:]
        if not names or target is self.info:
            return
        reason = (
            f"`{target.name}` is called by `{qualname.removeprefix('builtins.')}` on each element of "
            f"traced `{ast.unparse(node.args[1])}` in `{self.info.name}` at line {node.lineno}"
        )
        target.callers.add(self.info)
        if target.apply(self.level, {names[0]: element}, reason, self.runs):
            self.model.enqueue(target)

    def mapped_key_event(self, node: ast.Call, target: FunctionInfo) -> None:
        """``jax.tree.map(f, tree)`` where ``f`` draws noise from a key it closes over: every
        leaf consumes that one key. A permutation, a choice or a mask is often meant to be the
        same for every leaf (a batch shuffled in step), and a fold with leaf data may differ."""
        if self.tracker is None or self.state is None or target is self.info:
            return
        for key, call in self.model.consumed_outside(target).items():
            drawn = self.resolver.qualname(call.func, target.scope)
            if not is_fold(key) and drawn in NOISE_DRAWS:
                text = _consumed_text(key, call)
                self.tracker.event(node, KeyEvent("leaves", text, call, target.name))
                self.tracker.consume(node, [key], text, "", self.state)
                return

    def mapped_draw_event(self, target: FunctionInfo, ref: FunctionRef, node: ast.Call) -> None:
        """``jax.vmap(add_noise)(xs)`` where ``add_noise`` draws noise shaped like its mapped
        argument (``normal(key, x.shape)``) from a key it closes over: that key is not mapped, so
        every example gets the same noise. A draw of a fixed shape (a random projection shared by
        the batch) may well be meant to be the same."""
        if self.tracker is None or self.state is None or target is self.info:
            return
        mapping = next((layer.transform for layer in ref.layers if layer.transform in MAPPING), None)
        if mapping is None:
            return
        names = target.positional_names()[ref.offset :]
        unmapped = _unmapped_positions(ref, mapping)
        if not self.model.may_use_keys(target):
            self.ignored_mapping_event(target, node, mapping, names, unmapped)
            return
        params = {name for index, name in enumerate(names) if index not in unmapped}
        for key, call in self.model.consumed_outside(target).items():
            drawn = self.resolver.qualname(call.func, target.scope)
            if is_fold(key):
                continue
            if drawn in MAPPED_DRAWS and _shaped_like(call, params):
                text = _key_text(call.args[0]) if call.args else _consumed_text(key, call)
                self.tracker.event(node, KeyEvent("mapped", text, call, target.name, via=mapping))
                return
            given = keyword_argument(call, "key")
            if (
                given is not None
                and _masks_input(call, params)
                and self.key_needing_layer(call.func, target.scope)
            ):
                # `drop(x, key=key)`, an equinox `Dropout`: its mask is shaped like `x`
                self.tracker.event(node, KeyEvent("mapped", _key_text(given), call, target.name, via=mapping))
                return
        for index in sorted(unmapped):  # `vmap(add_noise, in_axes=(0, None))(xs, key)`
            if (
                index >= len(names)
                or index >= len(node.args)
                or not key_ids(self.values.get(node.args[index], UNKNOWN))
            ):
                continue
            draw = self.unmapped_draw(target, names[index], params)
            if draw is not None:
                text = _key_text(node.args[index])
                event = KeyEvent("mapped", text, draw, target.name, via=mapping, passed_unmapped=True)
                self.tracker.event(node, event)
                return
        if self.mapped_copies_event(target, node, mapping, names, unmapped):
            return
        self.ignored_mapping_event(target, node, mapping, names, unmapped)

    def mapped_copies_event(
        self, target: FunctionInfo, node: ast.Call, mapping: str, names: list[str], unmapped: set[int]
    ) -> bool:
        """``jax.vmap(augment)(jnp.repeat(key[None], n, axis=0), images)``: the mapped keys are
        copies of one key, so every element that draws from its key draws the same numbers.
        Reported where the copies are made, when that is a call of this function."""
        tracker = self.tracker
        if tracker is None:
            return False
        for index, name in enumerate(names):
            if index in unmapped or index >= len(node.args):
                continue
            copied = [
                k for k in key_ids(self.values.get(node.args[index], UNKNOWN)) if copy_of(k) is not None
            ]
            site = copies_site(copied[0]) if copied else None
            if site is None or name not in self.model.consumed_params(target):
                continue  # (asked only of copies: asking analyses `target` now)
            here = isinstance(self.scope.node, ast.Module) or encloses(self.scope.node, site)  # pyright: ignore[reportArgumentType]
            where = site if isinstance(site, ast.Call) and here else node
            text = _key_text(node.args[index])
            made = ast.unparse(site)  # pyright: ignore[reportArgumentType]
            tracker.event(where, KeyEvent("mapped", text, node, target.name, via=mapping, copies=made))
            return True
        return False

    def ignored_mapping_event(
        self, target: FunctionInfo, node: ast.Call, mapping: str, names: list[str], unmapped: set[int]
    ) -> None:
        """``jax.vmap(lambda k, _: model.init(k, x), in_axes=(None, 0))(key, ids)``: a function
        that never reads what is mapped computes the same thing for every element; handed a key
        (unmapped, or closed over), every element is drawn from that one key, identically."""
        mapped = [name for index, name in enumerate(names) if index not in unmapped]
        if not mapped or len(names) < len(node.args) or any(isinstance(a, ast.Starred) for a in node.args):
            return
        if target.node.args.vararg is not None or target.node.args.kwarg is not None:
            return
        read = {
            n.id for n in ast.walk(target.node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }
        if read & set(mapped):
            return
        passed = {names[i]: node.args[i] for i in unmapped if i < len(names) and i < len(node.args)}
        body = target.node.body
        tracker = self.tracker
        if tracker is None:
            return
        for call in own_nodes(body if isinstance(body, list) else [ast.Expr(body)]):
            if not isinstance(call, ast.Call):
                continue
            for argument in [*call.args, *(k.value for k in call.keywords)]:
                if not isinstance(argument, ast.Name):
                    continue
                given = passed.get(argument.id)
                if given is not None and key_ids(self.values.get(given, UNKNOWN)):
                    text = _key_text(given)
                elif argument.id not in names and argument.id not in target.scope.bound:
                    if not key_ids(self.load(argument.id)):
                        continue
                    text = argument.id
                else:
                    continue
                event = KeyEvent("mapped", text, call, target.name, via=mapping, ignored=", ".join(mapped))
                tracker.event(node, event)
                return

    def unmapped_draw(self, target: FunctionInfo, name: str, mapped: set[str]) -> ast.Call | None:
        """A draw in ``target`` of noise shaped like a mapped parameter from parameter ``name``."""
        body = getattr(target.node, "body", [])
        for node in own_nodes(body if isinstance(body, list) else [body]):
            if not isinstance(node, ast.Call):
                continue
            if (
                node.args
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == name
                and self.resolver.qualname(node.func, target.scope) in MAPPED_DRAWS
                and _shaped_like(node, mapped)
            ):
                return node
            if self.layer_draw_shaped_like(node, target, name, mapped):
                return node
        return None

    def layer_draw_shaped_like(
        self, node: ast.Call, target: FunctionInfo, name: str, mapped: set[str]
    ) -> bool:
        """``drop(x, key=k)``: a dropout layer draws its mask shaped like its input ``x``."""
        key = keyword_argument(node, "key")
        return (
            isinstance(key, ast.Name)
            and key.id == name
            and bool(node.args)
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in mapped
            and not _mode_given(node)
            and self.key_needing_layer(node.func, target.scope) is not None
        )

    def call_transformed(
        self, func: ast.Call, node: ast.Call, args: list[Value], keywords: dict[str, Value]
    ) -> Value:
        """``jax.jit(f)(x)``, ``partial(f, a)(x)``: the arguments reach ``f``'s parameters."""
        every = [*args, *keywords.values()]
        traced = any(is_traced(v) for v in every)
        if self.level > NONE and traced:
            chain = self.model.resolve_chain(func, self.scope)
            if chain is not None and chain.external is not None and self.info is not None:
                reason = (
                    f"`{chain.external.rsplit('.', 1)[1]}` is called from traced `{self.info.name}` in "
                    f"`{self.model.project.module or 'its caller'}` at line {node.lineno}"
                )
                level = max([self.level, *(layer.transform.level for layer in chain.layers)])
                self.model.request_call(
                    chain.external, level, _positional(node, args), keywords, reason, chain.offset, self.info
                )
            elif chain is not None and chain.target is not None and self.info is not None:
                target = chain.target
                params = self.bind_arguments(target, chain.offset, node, args, keywords)
                params = {name: v for name, v in params.items() if is_traced(v)}
                reason = f"`{target.name}` is called from traced `{self.info.name}` at line {node.lineno}"
                if params and target.apply(self.level, params, reason, self.runs):
                    self.model.enqueue(target)
        gradient = self.gradient_result(func, args, every)
        if gradient is not None:
            return gradient
        # `jax.vmap(model)(x)` with `model` a module holding tracers: computed from its leaves
        transformed = self.values.get(func.args[0], UNKNOWN) if func.args else UNKNOWN
        return TRACED if self.staging([*every, transformed]) else UNKNOWN

    def gradient_result(self, func: ast.Call, args: list[Value], every: list[Value]) -> Value | None:
        """``jax.grad(f)(params, x)``: the gradient has the pytree of the argument it is taken
        with respect to (``argnums``, a literal), every leaf a JAX array; ``value_and_grad`` gives
        the value and it; ``has_aux`` adds data of unknown kind. None for other forms."""
        qualname = (
            self.resolver.qualname(func.func, self.scope)
            if isinstance(func.func, ast.Attribute | ast.Name)
            else None
        )
        if qualname not in GRADIENT_CALLS or len(func.args) != 1 or any(k.arg is None for k in func.keywords):
            return None
        argnums, has_aux = keyword_argument(func, "argnums"), keyword_argument(func, "has_aux")
        if argnums is not None and not (isinstance(argnums, ast.Constant) and type(argnums.value) is int):
            return None
        if has_aux is not None and not (
            isinstance(has_aux, ast.Constant) and isinstance(has_aux.value, bool)
        ):
            return None
        index = argnums.value if isinstance(argnums, ast.Constant) and isinstance(argnums.value, int) else 0
        if not 0 <= index < len(args):
            return None
        gradient = gradient_like(args[index], self.staging(every))
        if gradient is None:
            return None
        aux = isinstance(has_aux, ast.Constant) and has_aux.value is True
        if qualname == "jax.value_and_grad":
            value = array(self.staging(every))
            return sequence([sequence([value, UNKNOWN]) if aux else value, gradient])
        return sequence([gradient, UNKNOWN]) if aux else gradient


# attributes that are never a pytree's field: an array's static attributes, a container's methods
NOT_FIELDS = api.STATIC_ATTRIBUTES | api.CONTAINER_METHODS


def _may_be_pytree_node(value: Value) -> bool:
    """A traced value that may be a pytree of a class with fields (not an array or a dict)."""
    return is_traced(value) and not is_jax_array(value) and not is_mapping(value)


def _holds_static(value: Value, depth: int = 0) -> bool:
    """Whether a container may hold a Python value (a string, None, a number) among its parts:
    no tracer for ``jit`` (a string raises at the call), so its traced form is unknown."""
    if not is_container(value) or depth > 8:
        return is_static(value)
    parts = known_elements(value)
    if parts is None:
        found = entries(value)
        parts = None if found is None else tuple(v for _, v in found)
    if parts is None:
        return is_static(value)
    return any(_holds_static(part, depth + 1) for part in parts)


# nnx transformations that trace every variable of the modules they are given (measured with
# flax nnx: under `nnx.vmap` a module passed with `in_axes=None` keeps concrete values, and
# under `nnx.grad` Python control flow on them works)
NNX_TRACING_VARIABLES = frozenset({"flax.nnx.jit"})
# transformations whose call returns a gradient shaped like the argument it is taken for
GRADIENT_CALLS = frozenset({"jax.grad", "jax.value_and_grad"})
# mappings whose `in_axes` tuple leaves a position unmapped with `None`, as `jax.vmap`'s does
IN_AXES_MAPPINGS = frozenset({"jax.vmap", "jax.pmap", "flax.nnx.vmap"})


def _unmapped_names(target: FunctionInfo, ref: FunctionRef) -> set[str] | None:
    """The parameters of ``target`` that a mapping among ``ref``'s layers leaves unmapped
    (``in_axes=(0, None)``); None when one leaves every parameter unmapped (``in_axes=None``)."""
    names = target.positional_names()[ref.offset :]
    unmapped: set[str] = set()
    for layer in ref.layers:
        if layer.transform not in MAPPING or layer.call is None:
            continue
        in_axes = keyword_argument(layer.call, "in_axes")
        if isinstance(in_axes, ast.Constant) and in_axes.value is None:
            return None
        unmapped |= {names[i] for i in _unmapped_positions(ref, layer.transform) if i < len(names)}
    return unmapped


def _unmapped_positions(ref: FunctionRef, mapping: str) -> set[int]:
    """The positions ``jax.vmap(f, in_axes=(0, None))`` (or ``pmap``, ``nnx.vmap``) leaves
    unmapped (a literal tuple; ``vmap`` alone takes ``in_axes`` second by position)."""
    layer = next((layer for layer in ref.layers if layer.transform == mapping), None)
    if mapping not in IN_AXES_MAPPINGS or layer is None or layer.call is None:
        return set()
    in_axes = keyword_argument(layer.call, "in_axes")
    if in_axes is None and len(layer.call.args) > 1 and mapping == "jax.vmap":
        in_axes = layer.call.args[1]
    if not isinstance(in_axes, (ast.Tuple, ast.List)):
        return set()
    return {i for i, axis in enumerate(in_axes.elts) if isinstance(axis, ast.Constant) and axis.value is None}


def _tree_leaf(value: Value) -> Value:
    """What a function mapped over the leaves of ``value`` receives (a lone array is a tree of
    one leaf; a dict's leaves are its values, not its keys)."""
    if not is_container(value):
        return element(value)
    leaves = tree_leaves(value)
    if leaves:
        return join_all(leaves, UNKNOWN)
    return TRACED if is_traced(value) else UNKNOWN


def _mode_given(call: ast.Call) -> bool:
    """Whether a layer's construction or call sets its mode (``inference=``), or may (``**kw``)."""
    return any(k.arg is None or k.arg in api.LAYER_MODE_KEYWORDS for k in call.keywords)


def _global_named(node: ast.Subscript) -> str | None:
    """``CLIP`` for ``globals()["CLIP"]`` read."""
    call, index = node.value, node.slice
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and not call.args):
        return None
    if not (isinstance(index, ast.Constant) and isinstance(index.value, str) and index.value.isidentifier()):
        return None
    return index.value if isinstance(node.ctx, ast.Load) else None


def _numpy_array_function(qualname: str) -> bool:
    """A NumPy function of arrays that returns one (measured on tracers as the namesake of a
    ``jax.numpy`` function), not a query of shapes or dtypes (``np.shape``)."""
    return (
        qualname.startswith("numpy.")
        and measured.numpy_rejects_tracer(qualname) is not None
        and not measured.is_static_query(qualname)
        and not qualname.startswith(measured.host_only_modules())
    )


# The name given to what an initializer factory makes (`glorot_normal()`), after the factory's.
INITIALIZER = ".<initializer>"


def _masks_input(call: ast.Call, params: set[str]) -> bool:
    """Whether a layer's call is given one of ``params`` as its input (``drop(x, key=k)``)."""
    return bool(call.args) and isinstance(call.args[0], ast.Name) and call.args[0].id in params


def _shaped_like(call: ast.Call, params: set[str]) -> bool:
    """Whether a draw's shape is that of one of ``params`` (``normal(key, x.shape)``)."""
    for argument in [*call.args[1:], *(k.value for k in call.keywords if k.arg == "shape")]:
        if (
            isinstance(argument, ast.Attribute)
            and argument.attr == "shape"
            and isinstance(argument.value, ast.Name)
            and argument.value.id in params
        ):
            return True
    return False


# draws of values of a distribution: the same key on two leaves of one shape gives them
# identical noise (an index or a mask is often meant to be shared)
NOISE_DRAWS = frozenset(
    f"jax.random.{name}"
    for name in (
        "normal",
        "uniform",
        "truncated_normal",
        "laplace",
        "logistic",
        "gumbel",
        "cauchy",
        "exponential",
        "gamma",
        "beta",
        "dirichlet",
        "multivariate_normal",
        "t",
        "rademacher",
        "ball",
        "orthogonal",
        "poisson",
        "chisquare",
        "f",
        "pareto",
        "rayleigh",
        "wald",
        "weibull_min",
        "loggamma",
        "lognormal",
        "triangular",
        "double_sided_maxwell",
        "maxwell",
        "generalized_normal",
        "binomial",
        "geometric",
    )
)

# draws whose result is per example when shaped like one: noise, and a dropout mask
MAPPED_DRAWS = NOISE_DRAWS | {"jax.random.bernoulli"}

# NumPy functions that split their argument into a list (of tracers, for a tracer)
NUMPY_SPLITS = frozenset(
    f"numpy.{name}" for name in ("array_split", "split", "hsplit", "vsplit", "dsplit", "unstack")
)

# lax loops that return their final carry: which body parameter receives it
LOOP_CARRIES = {"jax.lax.fori_loop": 1, "jax.lax.while_loop": 0, "jax.lax.scan": 0}

# methods that copy a record with some fields replaced (a NamedTuple's, a flax struct's)
RECORD_REPLACES = frozenset({"_replace", "replace"})


def _split_count(node: ast.Call) -> int | None:
    """How many keys ``jax.random.split(key, num)`` makes, when it is a small literal."""
    argument = node.args[1] if len(node.args) > 1 else keyword_argument(node, "num")
    if argument is None:
        return 2
    if isinstance(argument, ast.Constant) and type(argument.value) is int and 0 < argument.value <= 8:
        return argument.value
    return None


def _display_items(expr: ast.expr) -> list[ast.expr]:
    """The items of a tuple or list display, nested ones flattened; any other expression itself."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return [item for elt in expr.elts for item in _display_items(elt)]
    return [expr]


def _root_name(expr: ast.expr) -> str:
    """The first name in ``expr``: the variable a key expression reads; ``state.['key']`` for
    ``state["key"]``, an item a loop may store a new key in (see ``store_key_item``)."""
    slot = _item_slot(expr) if isinstance(expr, ast.Subscript) else None
    return slot or next((n.id for n in ast.walk(expr) if isinstance(n, ast.Name)), "")


def _item_position(key: ast.expr | None, items: tuple[Value, ...] | None) -> int | None:
    """The position ``xs[key] = ...`` stores at, in a sequence whose items are known."""
    if items is None or not isinstance(key, ast.Constant) or type(key.value) is not int:
        return None
    return key.value % len(items) if -len(items) <= key.value < len(items) else None


def _array_leaf(value: Value) -> bool:
    """A value that ``jax.device_put`` makes a JAX array: an array, or a static Python or NumPy
    value that is no container and names no function or object."""
    if is_container(value) or refs(value):
        return False
    return is_jax_array(value) or is_static(value)


def _item_slot(node: ast.Subscript) -> str | None:
    """``state.['key']``: how the state names a constant item of a name (``state["key"]``,
    ``keys[0]``), beside its attributes (``state.key``)."""
    item = node.slice.value if isinstance(node.slice, ast.Constant) else None
    if not isinstance(node.value, ast.Name) or type(item) not in (int, str):
        return None
    return f"{node.value.id}.[{item!r}]"


def _key_text(argument: ast.expr) -> str:
    """How a consumed key is written, for messages."""
    text = ast.unparse(argument)
    return text if len(text) <= 40 else text[:37] + "..."


def _held_by_class_of(key: object, info: FunctionInfo, model: SemanticModel) -> bool:
    """A key held by an object of the class ``info`` is a method of (see ``_is_held``)."""
    if not isinstance(key, tuple) or not _is_held(key):
        return False
    return model.index.parents.get(info.node) is model.index.scopes.get(key[1])


def _is_held(key: object) -> bool:
    """A key an object holds from its ``__init__`` on (see ``SemanticModel.held_key``)."""
    return isinstance(key, tuple) and len(key) == 3 and key[0] == "held"


def _consumed_text(key: KeyId, call: ast.Call) -> str:
    """How a key a called function consumes is written: a fold as the draw passes it."""
    if is_fold(key) and call.args:
        return _key_text(call.args[0])
    return _key_name(key)


def default_key_text(function: str, parameter: str) -> str:
    """How a key a ``def`` makes as a parameter's default is named in findings."""
    return f"{function}(..., {parameter}=...)"


def _key_name(key: object) -> str:
    """The name a key identity was bound to, for messages about keys consumed elsewhere: an
    item of a carry or of an array of keys as ``carry[0]``."""
    if isinstance(key, tuple) and len(key) == 3 and key[0] == "item":
        index = key[2]
        return f"{_key_name(key[1])}[{index!r}]" if type(index) in (int, str) else _key_name(key[1])
    if is_fold(key):
        return f"fold_in({_key_name(key[1])}, ...)"  # pyright: ignore[reportIndexIssue]
    if _is_held(key):
        return f"self.{key[2]}"  # pyright: ignore[reportIndexIssue]
    if isinstance(key, tuple) and len(key) >= 2:
        if isinstance(key[1], ast.Name):
            return key[1].id
        if isinstance(key[-1], str):
            return key[-1]
        if isinstance(key[1], ast.AST):
            return _key_text(key[1])  # pyright: ignore[reportArgumentType]
    return "key"


def _method_name(expr: ast.expr | None) -> str | None:
    """The method ``apply(..., method=...)`` names: ``"encode"`` or ``Model.encode``."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return None


def _replaced_after(node: ast.Dict, position: int) -> frozenset[object]:
    """The constant keys a dict display writes after its item at ``position``."""
    return frozenset(
        key.value
        for key in node.keys[position + 1 :]
        if isinstance(key, ast.Constant) and type(key.value) in (str, int)
    )


def _number_displays(target: FunctionInfo, offset: int, node: ast.Call) -> frozenset[str]:
    """The parameters of ``target`` that ``node`` passes a list or tuple written with numbers
    only (``total([1.0, 2.0])``): under a transformation each number is a traced leaf."""
    positional = target.positional_names()[offset:]
    pairs = []
    for index, argument in enumerate(node.args):
        if isinstance(argument, ast.Starred):
            break
        if index < len(positional):
            pairs.append((positional[index], argument))
    pairs += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
    return frozenset(
        name
        for name, argument in pairs
        if isinstance(argument, (ast.List, ast.Tuple))
        and argument.elts
        and all(isinstance(e, ast.Constant) and type(e.value) in (int, float) for e in argument.elts)
    )


def _positional(node: ast.Call, args: list[Value]) -> list[Value]:
    """The values of the positional arguments, a ``*starred`` sequence's items where they are
    known (``scale(x, *args)``), up to the first whose are not."""
    found: list[Value] = []
    for argument, value in zip(node.args, args):
        if isinstance(argument, ast.Starred):
            items = known_elements(value)
            if items is None:
                break
            found.extend(items)
            continue
        found.append(value)
    return found


def attribute_value(value: Value, attr: str) -> Value:
    """The value of ``value.attr``."""
    if is_traced(value) or is_jax_array(value):
        if attr in api.STATIC_ATTRIBUTES:
            return STATIC
        if attr in api.ARRAY_ATTRIBUTES:
            return leaf_part(value, keep_mask=attr in ("T", "mT", "at", "flat"))
        return UNKNOWN
    if is_static(value):
        return STATIC
    return UNKNOWN


def _number(expr: ast.AST) -> bool:
    """An int or float constant (not a bool)."""
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)


def _float(expr: ast.AST) -> bool:
    return isinstance(expr, ast.Constant) and type(expr.value) is float


def _bool_display(qualname: str, node: ast.Call) -> bool:
    """``jnp.array([[True, False], [False, True]])``: an array of the booleans written out."""
    if qualname not in ("jax.numpy.array", "jax.numpy.asarray") or len(node.args) != 1 or node.keywords:
        return False
    leaves: list[ast.expr] = []
    pending = [node.args[0]]
    while pending:
        item = pending.pop()
        if isinstance(item, (ast.List, ast.Tuple)):
            pending.extend(item.elts)
        else:
            leaves.append(item)
    return bool(leaves) and all(
        isinstance(leaf, ast.Constant) and type(leaf.value) is bool for leaf in leaves
    )


def _bool_dtype(node: ast.Call) -> bool:
    """Whether a call asks for a boolean dtype (``dtype=bool``, ``.astype(jnp.bool_)``)."""
    candidates = [kw.value for kw in node.keywords if kw.arg == "dtype"]
    if isinstance(node.func, ast.Attribute) and node.func.attr == "astype" and node.args:
        candidates.append(node.args[0])
    for candidate in candidates:
        if isinstance(candidate, ast.Name) and candidate.id == "bool":
            return True
        if isinstance(candidate, ast.Attribute) and candidate.attr in ("bool_", "bool"):
            return True
        if isinstance(candidate, ast.Constant) and candidate.value == "bool":
            return True
    return False


_STATEMENTS: dict[type, Callable[[Interpreter, Any], None]] = {
    ast.Expr: Interpreter.s_expr,
    ast.Assign: Interpreter.s_assign,
    ast.AnnAssign: Interpreter.s_annassign,
    ast.AugAssign: Interpreter.s_augassign,
    ast.If: Interpreter.s_if,
    ast.For: Interpreter.s_for,
    ast.AsyncFor: Interpreter.s_for,
    ast.While: Interpreter.s_while,
    ast.Break: Interpreter.s_break,
    ast.Continue: Interpreter.s_continue,
    ast.Return: Interpreter.s_return,
    ast.Raise: Interpreter.s_raise,
    ast.Try: Interpreter.s_try,
    ast.With: Interpreter.s_with,
    ast.AsyncWith: Interpreter.s_with,
    ast.Assert: Interpreter.s_assert,
    ast.Delete: Interpreter.s_delete,
    ast.FunctionDef: Interpreter.s_function,
    ast.AsyncFunctionDef: Interpreter.s_function,
    ast.ClassDef: Interpreter.s_class,
    ast.Import: Interpreter.s_import,
    ast.ImportFrom: Interpreter.s_import,
    ast.Pass: Interpreter.s_pass,
    ast.Global: Interpreter.s_pass,
    ast.Nonlocal: Interpreter.s_pass,
    ast.Match: Interpreter.s_match,
}
if hasattr(ast, "TryStar"):
    _STATEMENTS[ast.TryStar] = Interpreter.s_try

_EXPRESSIONS: dict[type, Callable[[Interpreter, Any], Value]] = {
    ast.Name: Interpreter.e_name,
    ast.Constant: Interpreter.e_constant,
    ast.JoinedStr: Interpreter.e_joined_str,
    ast.FormattedValue: Interpreter.e_formatted,
    ast.Tuple: Interpreter.e_tuple,
    ast.List: Interpreter.e_list,
    ast.Set: Interpreter.e_list,
    ast.Dict: Interpreter.e_dict,
    ast.BinOp: Interpreter.e_binop,
    ast.UnaryOp: Interpreter.e_unary,
    ast.BoolOp: Interpreter.e_boolop,
    ast.Compare: Interpreter.e_compare,
    ast.IfExp: Interpreter.e_ifexp,
    ast.Lambda: Interpreter.e_lambda,
    ast.NamedExpr: Interpreter.e_named,
    ast.Starred: Interpreter.e_starred,
    ast.Slice: Interpreter.e_slice,
    ast.Attribute: Interpreter.e_attribute,
    ast.Subscript: Interpreter.e_subscript,
    ast.Call: Interpreter.e_call,
    ast.ListComp: Interpreter.e_comprehension,
    ast.SetComp: Interpreter.e_comprehension,
    ast.GeneratorExp: Interpreter.e_comprehension,
    ast.DictComp: Interpreter.e_dictcomp,
    ast.Await: Interpreter.e_await,
    ast.Yield: Interpreter.e_await,
    ast.YieldFrom: Interpreter.e_await,
}


def _constructs_object(qualname: str) -> bool:
    """``PytreeDeque()``, ``TrainState(...)``: a class of another module or library (CapWords,
    PEP 8) constructs an object, not an array; handed to a ``lax`` loop, it comes back a pytree
    of the same class, not a tracer. JAX's and NumPy's own names are known by name."""
    if qualname.startswith(("jax.", "jaxlib.", "numpy.", "builtins.")):
        return False
    name = qualname.rpartition(".")[2]
    return name[:1].isupper() and not name.isupper() and "_" not in name


# Differentiations whose eager result has the pytree of the differentiated argument.
EAGER_GRADIENTS = frozenset({"jax.grad", "jax.value_and_grad"})


# Methods a dataclass's generated `__init__` calls on the object it made: `__post_init__`, and
# equinox's `__check_init__` (each class's own, after the fields are set).
CONSTRUCTION_CHECKS = ("__post_init__", "__check_init__")
# What `partial(model.apply, rngs={...})` is known as: a flax module's `apply` holding keys.
LINEN_APPLY = "flax.linen.Module.apply"

# Operations that give the same PRNG key in another shape (or a copy of its data): consuming
# the result consumes the key (JAX's key-reuse checker follows them).
KEY_VIEW_METHODS = frozenset({"reshape", "squeeze", "ravel", "flatten", "transpose"})
# Operations that repeat a key into a batch of copies of it (`jnp.repeat(key[None], n, axis=0)`),
# and those that stack a list of copies into one (`jnp.stack([key] * n)`).
KEY_REPEATING_FUNCTIONS = frozenset({"jax.numpy.repeat", "jax.numpy.tile"})
KEY_STACKING_FUNCTIONS = frozenset(f"jax.numpy.{name}" for name in ("stack", "array", "concatenate"))


def copied_keys(value: Value, site: ast.AST | None = None) -> frozenset[object]:
    """The identities of ``value`` where it is a batch of copies of one key: ``[key] * n``,
    ``jnp.repeat(key[None], n)``, or a display of one key written twice or more (``[key, key]``,
    taken as copies made at ``site``)."""
    keys = key_ids(value)
    if keys and all(copy_of(k) is not None for k in keys):
        return keys
    items = known_elements(value)
    if items is None or len(items) < 2 or any(key_ids(i) != key_ids(items[0]) for i in items):
        return frozenset()
    if all(copy_of(k) is not None for k in key_ids(items[0])):
        return frozenset()  # `[copies, copies]`: not a batch of one key
    return frozenset(copies(k, site) for k in key_ids(items[0]))


def _repeated_keys(operand: ast.expr, value: Value, site: ast.AST) -> frozenset[object]:
    """``[key]`` in ``[key] * n`` (at ``site``): the copies of the key its one item is."""
    if not isinstance(operand, (ast.List, ast.Tuple)) or len(operand.elts) != 1:
        return frozenset()
    return frozenset(copies(k, site) for k in key_ids(element(value)))


KEY_VIEW_FUNCTIONS = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "reshape",
        "squeeze",
        "ravel",
        "expand_dims",
        "atleast_1d",
        "atleast_2d",
        "copy",
        "asarray",
        "broadcast_to",
    )
)


BRANCHING = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.Match)


def _known_item(node: ast.Subscript, base: Value) -> Value | None:
    """``base[i]`` for a constant ``i`` where ``base`` is known item by item (a display, a
    tuple of keys): that item."""
    index = node.slice.value if isinstance(node.slice, ast.Constant) else None
    return subscript(base, index) if type(index) in (int, str) else None


def _adds_axes(index: ast.expr) -> bool:
    """``x[None]``, ``x[..., None]``, ``x[jnp.newaxis]``: an index that only adds axes."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return any(_is_none(p) for p in parts) and all(
        _is_none(p) or (isinstance(p, ast.Constant) and p.value is Ellipsis) for p in parts
    )


def _is_none(expr: ast.expr) -> bool:
    return (isinstance(expr, ast.Constant) and expr.value is None) or (
        isinstance(expr, ast.Attribute) and expr.attr == "newaxis"
    )


def _names_functions(value: Value) -> bool:
    """Whether ``value`` is a function of this module (or holds one, transformed or not)."""
    return any(isinstance(ref, FunctionRef) for ref in refs(value))


def _custom_derivative_params(
    target: FunctionInfo, nondiff: frozenset[str], params: dict[str, Value]
) -> dict[str, Value]:
    """A ``jax.custom_jvp``/``custom_vjp`` function called in staged code: every argument but its
    ``nondiff_argnums``/``nondiff_argnames`` reaches it as a tracer, a static Python value included,
    and so does a default the call leaves out (JAX binds the defaults before it traces)."""
    found = {name: value if name in nondiff else traced_leaves(value) for name, value in params.items()}
    positional = set(target.positional_names())  # keyword-only defaults stay Python values
    for name in parameter_defaults(target.node.args):
        if name in positional and name not in found and name not in nondiff:
            found[name] = TRACED
    return found


# what a test decided by parameters and constants alone is made of (see `constant_value`)
_CONSTANT_TEST_NODES = (
    ast.Name,
    ast.Constant,
    ast.Compare,
    ast.BoolOp,
    ast.UnaryOp,
    ast.cmpop,
    ast.boolop,
    ast.unaryop,
    ast.Load,
)


def _passed_parameters(target: FunctionInfo, offset: int, node: ast.Call) -> set[str] | None:
    """The parameters of ``target`` a call passes (after ``offset`` bound ones); None where it
    passes ``*args`` or ``**kwargs`` (which may pass any)."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    passed = set(target.positional_names()[offset : offset + len(node.args)])
    return passed | {k.arg for k in node.keywords if k.arg is not None}


def _argument_expressions(
    target: FunctionInfo, offset: int, node: ast.Call, bound: frozenset[str]
) -> dict[str, ast.expr | None] | None:
    """What a call gives each parameter of ``target``: the argument, else the default of one it
    leaves out; None for those bound before the call (``self``, by ``partial``); None for all
    where ``*args``/``**kwargs`` are passed."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    positional = target.positional_names()
    given: dict[str, ast.expr | None] = dict(parameter_defaults(target.node.args))
    given |= dict.fromkeys([*positional[:offset], *bound], None)
    given |= dict(zip(positional[offset:], node.args))
    given |= {k.arg: k.value for k in node.keywords if k.arg is not None}
    return given


def _as_initialised(value: Value, module: ast.ClassDef | None = None) -> Value:
    """A key as the ``init`` of a flax module of class ``module`` draws from it (see
    :func:`initialised`): a value whose keys are the ones drawn; the value's own keys are not."""
    return with_keys(UNKNOWN, frozenset(initialised(key, module) for key in key_ids(value)))
