"""JAX104: a traced function writes state outside itself."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.api import (
    LIST_CHANGING_FUNCTIONS,
    MUTATING_METHODS,
    STATEFUL_OBJECT_METHODS,
    STATIC_ATTRIBUTES,
)
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.transforms import FILTER_KINDS, PARTIALS
from jaxlint.semantic.values import UNKNOWN, InstanceRef, is_numpy_array, is_traced, record_kind, refs

from ..support.arrays import used_as_container
from ..support.classes import self_static_at
from ..support.explain import function_name, holds_container, snippet, why_traced
from ..support.lifetimes import enclosing_method, is_self, outlives_trace, self_outlives_trace

# Methods that only lists and deques have: the receiver is a container whatever it was bound to.
SEQUENCE_METHODS = frozenset({"append", "appendleft", "extend", "extendleft", "popleft"})
LIST_CHANGING_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in LIST_CHANGING_FUNCTIONS)


# annotations of a field that holds a list, dict or set
CONTAINER_ANNOTATIONS = frozenset({"list", "dict", "set", "List", "Dict", "Set", "deque"})


# what a leaked tracer does once the trace is over
LEAKED = (
    "after the trace it holds a tracer, not a value (JAX operations on it raise "
    "`UnexpectedTracerError`, NumPy raises `TracerArrayConversionError`)"
)


class StateMutationInTracedFunction(Rule):
    """## What it does
    Finds a traced function changing state that outlives the call: assigning a `global` or
    `nonlocal` name, mutating a module-level or closed-over list/dict/set (`history.append(x)`,
    `cache[k] = v`) or a standard-library object that holds state (`stop.set()` on a
    `threading.Event`, `var.set(loss)` on a `contextvars.ContextVar`), changing an attribute of
    a module-level function, namespace (`types.SimpleNamespace`) or object of a plain class of
    the module (`step.calls += 1`, `counter.n = ...`) in a function that only runs traced,
    storing a traced value on `self`, putting one into a list, dict or set the object keeps
    (`self.losses.append(loss)` in a logger made before the trace), or changing a dict or list
    argument of a `jax.jit` function that never hands it back (`params[k] = ...`: `jit` rebuilds
    its arguments from their leaves, so only that copy changes). It also finds an attribute
    assigned on an equinox module (a library layer too, `linear.weight = ...`), a flax struct or
    a frozen dataclass (`state.params = ...`), which raises `FrozenInstanceError` wherever it
    runs, traced or not.

    ## Why is this bad?
    JAX runs the Python body once, while tracing; the compiled program has no Python side
    effects. A counter incremented inside `jax.jit` counts compilations, not calls. Anything
    stored is a tracer, not a value: using it after the trace has ended raises
    `jax.errors.UnexpectedTracerError` (a leaked tracer). A bare `jax.vmap`
    traces the function again on every call: there only storing a tracer is reported.

    Appending text about shapes and dtypes (`log.append(f"tracing {x.shape}")`) is not
    reported: like a `print` of shapes, it is a deliberate log of what JAX traces.

    ## Example
    ```python
    import jax

    loss_history = []

    @jax.jit
    def train_step(w, grad):
        loss_history.append(w.sum())
        return w - 0.1 * grad
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def train_step(w, grad):
        return w - 0.1 * grad, w.sum()
    ```

    ## Fix safety
    No automatic fix: the state has to become an input and an output of the function.

    ## References
    - [JAX: Common gotchas, pure functions](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions)
    - [jax.errors.UnexpectedTracerError](https://docs.jax.dev/en/latest/errors.html#jax.errors.UnexpectedTracerError)
    """

    code = "JAX104"
    traced_only = True
    # `history.append(x)`, `last = x` under a bare grad leak a JVP tracer
    visits_anywhere = frozenset({ast.Call, ast.Assign, ast.AugAssign, ast.AnnAssign})
    name = "state-mutation-in-traced-function"
    message = "A traced function writes state outside itself: it happens only at trace time"
    outcome = "the write happens once per compilation; stored tracers leak (UnexpectedTracerError)"
    severity = "warning"

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            self.check_store(target, node.value, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        self.check_store(node.target, node.value, ctx, accumulates=True)
        if isinstance(node.target, ast.Attribute) and not is_traced(ctx.value(node.value)):
            self.check_self_counter(node.target, ctx)

    def check_self_counter(self, target: ast.Attribute, ctx: Context) -> None:
        """``self.n += 1`` in a compiled method, or in a method traced code calls on an object made
        before the trace (``bar.update(1)`` in a ``scan`` body): it counts traces, not calls (the
        ``Counter`` of JAX's stateful-computations guide)."""
        if not (ctx.traced_to_run and ctx.trace_reused and is_self(target.value, ctx)):
            return
        method = enclosing_method(ctx)
        outer = method is not None and method.runs_on_outer_object  # `bar.update(1)`, module-level `bar`
        if not (self_outlives_trace(ctx) or outer) or not _self_kept(ctx) or counts_traces(target.attr):
            return
        ctx.report(
            target,
            f"updating `self.{target.attr}` in `{function_name(ctx)}` happens only while JAX traces "
            f"it (once per compilation), not on each call ({why_traced(ctx)}); return the new value instead",
        )

    def visit_AnnAssign(self, node: ast.AnnAssign, ctx: Context) -> None:
        if node.value is not None:
            self.check_store(node.target, node.value, ctx)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if callee_leaf(node) in ("setattr", "__setattr__"):
            store = _attribute_store_call(ctx, node)
            if store is not None and not (store[2] and self.check_unfrozen_store(node, store[0], ctx)):
                self.check_store(store[0], store[1], ctx, through_object=store[2])
            return
        if isinstance(func, ast.Attribute) and self.check_stateful_object(node, func, ctx):
            return
        if not ctx.traced_to_run and not (ctx.traced and not ctx.abstract):  # compiled, or under a bare grad
            return
        if callee_leaf(node) in LIST_CHANGING_LEAVES and ctx.qualname(func) in LIST_CHANGING_FUNCTIONS:
            self.check_list_function(node, ctx)
            return
        if not isinstance(func, ast.Attribute) or func.attr not in MUTATING_METHODS:
            return
        if isinstance(func.value, ast.Attribute) and is_self(func.value.value, ctx):
            self.check_self_container(node, func.value, ctx)
            return
        if not isinstance(func.value, ast.Name) or _own_method(ctx, func):
            return
        name = func.value.id
        if func.attr != "update" and self.check_argument_mutation(
            node, name, f"`{name}.{func.attr}(...)`", ctx
        ):
            return  # (`tx.update(...)`: an optimizer's method as often as a dict's)
        owner = outlives_trace(ctx, name)
        if owner is None or not (func.attr in SEQUENCE_METHODS or holds_container(ctx, owner, name)):
            return
        stored = [*node.args, *(k.value for k in node.keywords)]
        self.check_container_change(node, name, f"`{name}.{func.attr}(...)`", stored, owner, ctx)

    def check_list_function(self, node: ast.Call, ctx: Context) -> None:
        """``heapq.heappush(LEADERBOARD, item)``: a function of the standard library that changes
        the list it is given, as its methods do."""
        changed = node.args[0] if node.args else None
        if not isinstance(changed, ast.Name) or any(isinstance(a, ast.Starred) for a in node.args):
            return
        owner = outlives_trace(ctx, changed.id)
        what = f"`{ctx.qualname(node.func)}({changed.id}, ...)`"
        if owner is not None:
            self.check_container_change(node, changed.id, what, node.args[1:], owner, ctx)

    def check_container_change(
        self, node: ast.Call, name: str, what: str, stored: list[ast.expr], owner: Scope, ctx: Context
    ) -> None:
        effect = _effect(ctx, stored, name)
        if effect is None or (effect == ONCE_PER_TRACE and _logs_the_trace(stored)):
            return
        kind = "global" if owner.kind == "module" else "closed-over"
        ctx.report(
            node,
            f"{what} in `{function_name(ctx)}` mutates {kind} `{name}` {effect} "
            f"({why_traced(ctx)}); return the values instead",
        )

    def check_stateful_object(self, node: ast.Call, func: ast.Attribute, ctx: Context) -> bool:
        """``stop.set()`` on a module-level ``threading.Event``, ``last_loss.set(loss)`` on a
        ``contextvars.ContextVar``: state that outlives the trace, changed once per trace (a
        ``lax.cond`` branch: whichever branch runs), or given a tracer that leaks."""
        if not isinstance(func.value, ast.Name) or not (
            ctx.traced_to_run or (ctx.traced and not ctx.abstract)
        ):
            return False
        name = func.value.id
        owner = outlives_trace(ctx, name)
        made = owner.assigned.get(name) if owner is not None else None
        if owner is None or owner.bound.get(name) != 1 or not isinstance(made, ast.Call):
            return False
        kind = ctx.model.qualname(made.func, owner)
        if func.attr not in STATEFUL_OBJECT_METHODS.get(kind or "", ()):
            return False
        effect = _effect(ctx, [*node.args, *(k.value for k in node.keywords)], name)
        if effect is None:
            return False
        ctx.report(
            node,
            f"`{name}.{func.attr}(...)` in `{function_name(ctx)}` changes `{name}` (a `{kind}`, which "
            f"outlives the trace) {effect} ({why_traced(ctx)}); return the value and act on it "
            f"after the call",
        )
        return True

    def check_unfrozen_store(self, node: ast.Call, target: ast.Attribute, ctx: Context) -> bool:
        """``object.__setattr__(self, "calls", ...)`` in a compiled method of a frozen class (an
        equinox module, a flax struct, a frozen dataclass), outside its initialisers: it gets
        past the freezing, but runs only while JAX traces the method, and on the object JAX
        handed the trace (a copy rebuilt from the leaves, for an argument)."""
        frozen = _frozen_class_outside_init(ctx)
        if frozen is None or not ctx.traced_to_run or not is_self(target.value, ctx):
            return False
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` in `{function_name(ctx)}` of `{frozen[0]}`, {frozen[1]}, gets past "
            f"its freezing but runs only while JAX traces it ({why_traced(ctx)}), on the object the "
            f"trace was given (for an argument, a copy JAX rebuilt from its leaves): the object you "
            f"call keeps its old `{target.attr}`; return an updated object instead",
        )
        return True

    def check_argument_mutation(self, node: ast.AST, name: str, what: str, ctx: Context) -> bool:
        """``params[k] = ...`` on a dict or list argument of a function ``jax.jit`` compiles, never
        handed back: the function received a copy JAX rebuilt from the leaves, so the caller's
        container keeps its old values (it changed them when run eagerly)."""
        if not mutated_argument(ctx, name):
            return False
        ctx.report(
            node,
            f"{what} in `{function_name(ctx)}` changes only the copy of argument `{name}` that JAX "
            f"rebuilt from its leaves for the trace ({why_traced(ctx)}): the caller's `{name}` keeps "
            f"its old values; return `{name}` and rebind it at the call",
        )
        return True

    def check_self_container(self, node: ast.Call, held: ast.Attribute, ctx: Context) -> None:
        """``self.losses.append(loss)``: a tracer put into a container the object keeps, where
        the object outlives the trace (a logger made before the jitted step that calls it)."""
        stored = [*node.args, *(k.value for k in node.keywords)]
        if not any(is_traced(ctx.value(value)) for value in stored) or not self_outlives_trace(ctx):
            return
        if not _made_a_container(ctx, held.attr):
            return  # `self.tx.update(grads, state)`: an optimizer's method, not a dict's
        if _self_rebuilt(ctx) and not _static_field_of_self(ctx, held.attr):
            return  # a pytree `self` rebuilt from its leaves holds a new container, not the object's
        func = node.func
        assert isinstance(func, ast.Attribute)
        ctx.report(
            node,
            f"`self.{held.attr}.{func.attr}(...)` in `{function_name(ctx)}` puts a traced value into "
            f"`self.{held.attr}`, which outlives the trace: {LEAKED}; return the value instead",
        )

    def check_store(
        self,
        target: ast.expr,
        value: ast.expr,
        ctx: Context,
        accumulates: bool = False,
        through_object: bool = False,
    ) -> None:
        """``through_object``: ``object.__setattr__(self, name, value)``, which a frozen class allows."""
        if isinstance(target, ast.Attribute) and not through_object and self.check_frozen_store(target, ctx):
            return
        if not ctx.traced_to_run and not (ctx.traced and not ctx.abstract):  # compiled, or under a bare grad
            return
        if isinstance(target, ast.Name):
            self.check_name_store(target, value, ctx, accumulates)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            name = target.value.id
            if self.check_argument_mutation(target, name, f"`{name}[...] = ...`", ctx):
                return
            owner = outlives_trace(ctx, name)
            effect = _effect(ctx, [value], name)
            if effect is not None and not is_traced(ctx.value(value)) and _memoizes(ctx, name):
                return  # `if shape not in cache: cache[shape] = ...`: a trace-time cache
            if owner is not None and holds_container(ctx, owner, name) and effect is not None:
                ctx.report(
                    target,
                    f"`{name}[...] = ...` in `{function_name(ctx)}` mutates outer `{name}` {effect}; "
                    f"return the values instead",
                )
            elif owner is not None and effect == ONCE_PER_TRACE and is_numpy_array(ctx.value(target.value)):
                ctx.report(  # a tracer stored there raises instead: NumPy converts it
                    target,
                    f"`{name}[...] = ...` in `{function_name(ctx)}` mutates the outer NumPy array "
                    f"`{name}` {effect} ({why_traced(ctx)}); return the values instead",
                )
        elif isinstance(target, ast.Attribute) and is_self(target.value, ctx):
            cls = _traced_custom_pytree(ctx)
            linen = _linen_outside_setup(ctx)
            if linen is not None:
                ctx.report(
                    target,
                    f"assigning `self.{target.attr}` in `{function_name(ctx)}` of `{linen}`, a flax "
                    f"linen module, raises `SetAttributeFrozenModuleError`: a module's attributes are "
                    f"frozen outside `setup`; return the value (or `self.sow` it into a collection)",
                )
            elif cls is not None:
                ctx.report(
                    target,
                    f"assigning `self.{target.attr}` in `{function_name(ctx)}` changes the copy of "
                    f"`{cls}` that JAX rebuilt from its leaves for the trace: the object it was called "
                    f"on keeps its old `{target.attr}` ({why_traced(ctx)}); return the updated object",
                )
            elif is_traced(ctx.value(value)) and self_outlives_trace(ctx):
                ctx.report(
                    target,
                    f"storing a traced value on `self.{target.attr}` in `{function_name(ctx)}` leaks a "
                    f"tracer: {LEAKED}; return it instead",
                )
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            self.check_record_argument(target, target.value.id, ctx)
            self.check_module_object(target, target.value.id, value, ctx)
        elif isinstance(target, ast.Attribute) and _class_of_self(target.value, ctx):
            self.check_class_attribute(target, value, ctx)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.check_store(element, value, ctx, accumulates)

    def check_frozen_store(self, target: ast.Attribute, ctx: Context) -> bool:
        """``self.value = ...`` in a method of an equinox module, a flax struct or a frozen
        dataclass (not its ``__init__``), or ``state.params = ...`` on an object of one: the
        assignment raises ``FrozenInstanceError`` wherever it runs, traced or not."""
        if is_self(target.value, ctx):
            frozen = _frozen_class_outside_init(ctx)
            if frozen is None:
                return False
            ctx.report(
                target,
                f"assigning `self.{target.attr}` in `{function_name(ctx)}` of `{frozen[0]}`, "
                f"{frozen[1]}, raises `dataclasses.FrozenInstanceError`: its objects are frozen "
                f"once `__init__` ends; return the new value, or an updated object",
            )
            return True
        found = _frozen_instance(ctx, target.value)
        if found is None:
            return False
        what = snippet(ctx, target.value)
        ctx.report(
            target,
            f"assigning `{what}.{target.attr}` raises `dataclasses.FrozenInstanceError`: `{found[0]}` "
            f"is {found[1]}, whose objects are frozen; build an updated object "
            f"({REPLACERS[found[1]].format(what, target.attr)}) and use it instead",
        )
        return True

    def check_record_argument(self, target: ast.Attribute, name: str, ctx: Context) -> None:
        """``b.data = ...`` on a pytree object a compiled function received and never returns:
        JAX rebuilt that object from its leaves for the trace, so the caller's keeps its old
        field (a frozen class raises instead)."""
        named_tuple = _named_tuple_of(ctx, target.value)
        if named_tuple is not None:
            ctx.report(
                target,
                f"assigning `{name}.{target.attr}` in `{function_name(ctx)}` raises `AttributeError`: "
                f"`{named_tuple}` is a NamedTuple, whose fields cannot be assigned; build an updated "
                f"one, `{name} = {name}._replace({target.attr}=...)`, and return it",
            )
            return
        cls = _record_argument(ctx, name)
        if cls is None:
            return
        if _frozen_kind(ctx, cls) is not None:
            return  # it raises (check_frozen_store), when its class is known there
        ctx.report(
            target,
            f"assigning `{name}.{target.attr}` in `{function_name(ctx)}` changes only the copy of "
            f"argument `{name}` that JAX rebuilt from its leaves for the trace ({why_traced(ctx)}): "
            f"the caller's `{name}` keeps its old `{target.attr}`; return `{name}` and rebind it at the call",
        )

    def check_module_object(self, target: ast.Attribute, name: str, value: ast.expr, ctx: Context) -> None:
        """``step.calls += 1`` on a function of the module, or ``counter.n = ...`` on the one
        instance of a plain class of the module bound to a module name: state that outlives the
        trace, changed only while JAX traces (measured with JAX 0.10.2)."""
        owner = ctx.scope.lookup(name)  # (a `def` too: `outlives_trace` leaves functions out)
        if owner is None or owner.kind != "module" or owner is ctx.scope or name in owner.imports:
            return
        if not _plain_module_object(ctx, owner, name):
            return
        effect = _effect(ctx, [value], target.attr)
        if effect is None or ctx.function is None or not ctx.model.runs_only_traced(ctx.function):
            return  # (run eagerly too, it counts those calls)
        ctx.report(
            target,
            f"changing `{name}.{target.attr}` in `{function_name(ctx)}` changes module-level `{name}` "
            f"{effect} ({why_traced(ctx)}); return the value instead",
        )

    def check_class_attribute(self, target: ast.Attribute, value: ast.expr, ctx: Context) -> None:
        """``type(self).calls += 1`` (or ``self.__class__.calls``): an attribute of the class,
        shared by all its objects, changed only while JAX traces (measured with JAX 0.10.2)."""
        effect = _effect(ctx, [value], target.attr)
        function = ctx.function
        if effect is None or function is None or not ctx.model.runs_only_traced(function):
            return
        if effect == ONCE_PER_TRACE and not ctx.model.caches_trace(function):
            return  # traced afresh on every call (`jax.jit(self.score)(x)`): it counts calls
        ctx.report(
            target,
            f"changing `{snippet(ctx, target)}` in `{function_name(ctx)}` changes an attribute of "
            f"the class {effect} ({why_traced(ctx)}); return the value instead",
        )

    def check_name_store(self, target: ast.Name, value: ast.expr, ctx: Context, accumulates: bool) -> None:
        leaks = is_traced(ctx.value(value))
        if not ctx.trace_reused and not leaks:
            return  # traced afresh on every call (a bare vmap or grad): it counts calls
        if not leaks and not accumulates and _same_every_call(value, target.id):
            return  # `seen_shape = x.shape`: each call would store what the trace stored
        if not leaks and ctx.function is not None and ctx.model.called_eagerly(ctx.function):
            return  # it runs eagerly too (`setup()` at import): traced too, only maybe, lazily
        scope = ctx.scope.function
        if target.id in scope.globals:
            kind = "global"
        elif target.id in scope.nonlocals and outlives_trace(ctx, target.id) is not None:
            kind = "nonlocal"
        else:
            return
        if not ctx.trace_reused:  # a tracer of this call's trace escapes into outer state
            ctx.report(
                target,
                f"assigning a traced value to {kind} `{target.id}` in `{function_name(ctx)}` leaks a "
                f"tracer: {LEAKED} ({why_traced(ctx)}); return the value instead",
            )
            return
        if counts_traces(target.id):
            return
        ctx.report(
            target,
            f"assigning {kind} `{target.id}` in `{function_name(ctx)}` happens only while JAX traces "
            f"it (once per compilation), not on each call ({why_traced(ctx)}); return the new value instead",
        )


# plain objects whose attributes are set freely
NAMESPACES = frozenset({"types.SimpleNamespace", "argparse.Namespace"})


def _plain_module_object(ctx: Context, module: Scope, name: str) -> bool:
    """Whether module name ``name`` is bound once, by a ``def`` (a function's attributes), to a
    namespace (``types.SimpleNamespace``), or to an instance of a class of the module that is
    no pytree and no flax module."""
    if module.bound.get(name) != 1:
        return False
    defs = module.defs.get(name, [])
    if defs:  # a function's attributes, or a class's (`Tracker.calls += 1`: shared by all its objects)
        return all(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for d in defs)
    made = module.assigned.get(name)
    if isinstance(made, ast.Call) and ctx.model.qualname(made.func, module) in NAMESPACES:
        return True  # `debug = types.SimpleNamespace(last=None)`
    cls = ctx.model.class_named(made.func, module) if isinstance(made, ast.Call) else None
    return (
        cls is not None
        and ctx.model.pytree_class(cls) is None
        and not ctx.model.is_flax_module(cls)
        and not cls.bases
    )


def _class_of_self(expr: ast.expr, ctx: Context) -> bool:
    """``type(self)`` or ``self.__class__`` in a method."""
    if isinstance(expr, ast.Attribute) and expr.attr == "__class__":
        return is_self(expr.value, ctx)
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "type"
        and len(expr.args) == 1
        and not expr.keywords
        and is_self(expr.args[0], ctx)
    )


def mutated_argument(ctx: Context, name: str) -> bool:
    """Whether ``name`` is a parameter of the current function, which ``jax.jit`` or equinox's
    ``filter_jit`` compiles, that it uses as a container, never rebinds and never returns: what
    it changes there is lost."""
    function = _copied_argument(ctx, name)
    return (
        function is not None
        and used_as_container(ctx, function.node, name)
        and not _hands_back(function.node, name)
    )


def _copied_argument(ctx: Context, name: str) -> FunctionInfo | None:
    """The function being checked, when ``name`` is a parameter of it that it never rebinds and
    a copying jit compiles it (so the parameter holds a copy rebuilt from the leaves)."""
    function = ctx.function
    if function is None or not ctx.traced_to_run or name not in function.positional_names():
        return None
    if function.scope.bound.get(name) != 1:
        return None
    sites = [*function.static_jit_sites(), *getattr(function.node, "decorator_list", [])]
    return function if any(_copying_jit(ctx, site) for site in sites) else None


# compilers that hand the function a copy of each pytree argument (`flax.nnx.jit` writes the
# updates of its objects back)
FROZEN_FLAX = frozenset({"flax.struct.dataclass", "flax.struct.PyTreeNode"})
COPYING_JITS = frozenset({"jax.jit", "equinox.filter_jit"})


def _copying_jit(ctx: Context, site: ast.expr) -> bool:
    """Whether a jit site or decorator is one of ``COPYING_JITS`` (called, or under ``partial``)."""
    if isinstance(site, ast.Call):
        if ctx.qualname(site.func) in PARTIALS and site.args:
            return ctx.qualname(site.args[0]) in COPYING_JITS
        return ctx.qualname(site.func) in COPYING_JITS
    return ctx.qualname(site) in COPYING_JITS


def _named_tuple_of(ctx: Context, expr: ast.expr) -> str | None:
    """The NamedTuple class of this module ``expr`` is known to be an instance of."""
    found = refs(ctx.value(expr))
    classes = [ref.node for ref in found if isinstance(ref, InstanceRef)]
    if len(found) != 1 or len(classes) != 1:
        return None
    pytree = ctx.model.pytree_class(classes[0])
    return classes[0].name if pytree is not None and pytree.is_tuple else None


def _record_argument(ctx: Context, name: str) -> ast.ClassDef | None:
    """The pytree class of argument ``name`` of the compiled function being checked, when a
    copying jit compiles it and it never returns ``name`` itself."""
    function = _copied_argument(ctx, name)
    if function is None or _returns_name(function.node, name):
        return None
    classes = {
        ref.node
        for ref in refs(function.params.get(name, UNKNOWN))
        if isinstance(ref, InstanceRef)
        and (pytree := ctx.model.pytree_class(ref.node)) is not None
        and not pytree.is_tuple  # a NamedTuple's fields cannot be assigned at all
    }
    return classes.pop() if len(classes) == 1 else None


def _returns_name(function: ast.AST, name: str) -> bool:
    """Whether ``function`` returns ``name`` itself, alone or in a tuple, list or dict display."""
    for node in ast.walk(function):
        if not isinstance(node, ast.Return) or node.value is None:
            continue
        value = node.value
        parts = value.values if isinstance(value, ast.Dict) else _items(value)
        if any(isinstance(p, ast.Name) and p.id == name for p in parts):
            return True
    return False


def _items(value: ast.expr) -> list[ast.expr]:
    return value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]


def _hands_back(function: ast.AST, name: str) -> bool:
    """Whether ``function`` returns or yields something that holds ``name`` itself, not only
    items read from it (``return state["w"]`` hands back the weights, not the dict)."""
    return any(
        isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom))
        and node.value is not None
        and _holds_whole(node.value, name)
        for node in ast.walk(function)
    )


def _holds_whole(expr: ast.AST, name: str) -> bool:
    """Whether ``expr`` reads ``name`` other than as the container of an item (``name[k]``)."""
    if isinstance(expr, ast.Name):
        return expr.id == name
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and expr.value.id == name:
        return _holds_whole(expr.slice, name)
    return any(_holds_whole(child, name) for child in ast.iter_child_nodes(expr))


def _effect(ctx: Context, stored: list[ast.expr], name: str) -> str | None:
    """What mutating outer state ``name`` with ``stored`` does in traced code: leak a tracer (any
    trace), or happen once per trace (a compiled function, unless ``name`` counts traces); None
    when neither."""
    if any(is_traced(ctx.value(value)) for value in stored):
        return f"with tracers, which leak: {LEAKED}"
    if ctx.trace_reused and not counts_traces(name):
        return ONCE_PER_TRACE
    return None


ONCE_PER_TRACE = "only while JAX traces it (once per compilation), not on each call"


# calls whose result depends only on their arguments
PURE_BUILTINS = frozenset({"len", "tuple", "list", "dict", "set", "frozenset", "str", "int", "float", "bool"})


def _same_every_call(value: ast.expr, name: str) -> bool:
    """Whether storing ``value`` in ``name`` stores what every call with these shapes would:
    static data read without calls (a shape, a constant, a flag), not the old value of ``name``
    (a counter) and not a clock or a random number."""
    for node in ast.walk(value):
        if isinstance(node, ast.Name) and node.id == name:
            return False
        if isinstance(node, (ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Lambda)):
            return False
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in PURE_BUILTINS
        ):
            return False
    return True


def _logs_the_trace(stored: list[ast.expr]) -> bool:
    """Whether ``stored`` describes what JAX traces (``log.append(f"tracing {x.shape}")``): text
    and the shapes and dtypes of values, which every call with these shapes would store alike.
    A log of the traces is what it means to keep, as a ``print`` of shapes is (JAX101)."""
    return all(_trace_description(value) for value in stored) and any(
        isinstance(node, ast.Attribute) and node.attr in STATIC_ATTRIBUTES
        for value in stored
        for node in ast.walk(value)
    )


def _trace_description(expr: ast.expr) -> bool:
    """Whether ``expr`` is built only from constants and static attributes (``x.shape``,
    ``self.w.dtype``): no other name, so no counter or outer state."""
    if isinstance(expr, ast.Attribute) and expr.attr in STATIC_ATTRIBUTES:
        return _attribute_path(expr.value)
    if isinstance(expr, ast.Constant):
        return True
    if isinstance(expr, ast.FormattedValue):
        spec = expr.format_spec
        return _trace_description(expr.value) and (spec is None or _trace_description(spec))
    if isinstance(expr, (ast.JoinedStr, ast.Tuple, ast.List)):
        parts = expr.values if isinstance(expr, ast.JoinedStr) else expr.elts
        return all(_trace_description(part) for part in parts)
    if isinstance(expr, ast.Subscript):
        return _trace_description(expr.value) and _trace_description(expr.slice)
    if isinstance(expr, ast.BinOp):
        return _trace_description(expr.left) and _trace_description(expr.right)
    return False


def _attribute_path(expr: ast.expr) -> bool:
    """Whether ``expr`` is a name or a chain of attributes on one (``x``, ``self.w``)."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Name)


def _memoizes(ctx: Context, name: str) -> bool:
    """Whether the current statement is under ``if key not in <name>:`` (a memo: the entry is
    made once, and read by later traces)."""
    for ancestor in ctx.ancestors():
        if isinstance(ancestor, ast.If) and isinstance(ancestor.test, ast.Compare):
            test = ancestor.test
            if (
                len(test.ops) == 1
                and isinstance(test.ops[0], ast.NotIn)
                and isinstance(test.comparators[0], ast.Name)
                and test.comparators[0].id == name
            ):
                return True
    return False


def counts_traces(name: str) -> bool:
    """Whether state named ``name`` says it records traces or compilations (``traces``,
    ``trace_count``, ``n_compiles``): the test-suite idiom that wants the write to happen only
    while JAX traces, so saying so would tell its author nothing."""
    lowered = name.lower()
    return "trace" in lowered or "compil" in lowered


CONTAINER_MAKERS = frozenset({"list", "dict", "set", "collections.deque", "collections.defaultdict"})


def _made_a_container(ctx: Context, attr: str) -> bool:
    """Whether the class of the method stores ``self.<attr>`` only as a new list, dict or set
    (``self.losses = []``), at least once, or declares it a field of one of these types
    (``cache: list = eqx.field(static=True)``) and stores nothing else in it."""
    cls = _method_class(ctx)
    if cls is None:
        return False
    values = [
        statement.value
        for statement in ast.walk(cls.node)
        if isinstance(statement, ast.Assign)
        and any(
            isinstance(t, ast.Attribute)
            and t.attr == attr
            and isinstance(t.value, ast.Name)
            and t.value.id == "self"
            for t in statement.targets
        )
    ]
    declared = _declared_container(cls.node, attr)
    return (bool(values) or declared) and all(_container_display(ctx, value, cls) for value in values)


def _method_class(ctx: Context) -> Scope | None:
    method = enclosing_method(ctx)
    cls = ctx.model.index.parents.get(method.node) if method is not None else None
    return cls if cls is not None and isinstance(cls.node, ast.ClassDef) else None


def _declared_container(cls: ast.AST, attr: str) -> bool:
    """``attr: list`` (``dict``, ``set``, ``list[int]``, ``typing.List[...]``) in the class body."""
    for statement in getattr(cls, "body", []):
        if not (isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)):
            continue
        if statement.target.id == attr:
            annotation = statement.annotation
            if isinstance(annotation, ast.Subscript):
                annotation = annotation.value
            leaf = annotation.attr if isinstance(annotation, ast.Attribute) else getattr(annotation, "id", "")
            return leaf in CONTAINER_ANNOTATIONS
    return False


def _self_rebuilt(ctx: Context) -> bool:
    """Whether the method's ``self``, an instance of a pytree class, reaches the trace as a copy
    JAX rebuilt from its leaves: an equinox filter transformation flattens the callable it is
    given (``eqx.filter_jit(model)``), and a jitted method whose ``self`` is an argument traces
    a copy of it."""
    method = enclosing_method(ctx)
    cls = _method_class(ctx)
    if method is None or cls is None or ctx.model.pytree_class(cls.node) is None:  # pyright: ignore[reportArgumentType]
        return False
    return bool(method.transformed_by & FILTER_KINDS) or not _self_kept(ctx)


def _static_field_of_self(ctx: Context, attr: str) -> bool:
    """Whether ``attr`` is a static field of the method's pytree class (``eqx.field(static=True)``):
    every copy JAX rebuilds from the leaves shares that one object."""
    cls = _method_class(ctx)
    found = ctx.model.pytree_class(cls.node) if cls is not None else None  # pyright: ignore[reportArgumentType]
    return found is not None and attr in found.static


def _container_display(ctx: Context, value: ast.expr, scope: Scope) -> bool:
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    return (
        isinstance(value, ast.Call)
        and (ctx.model.qualname(value.func, scope) or "").removeprefix("builtins.") in CONTAINER_MAKERS
    )


def _self_kept(ctx: Context) -> bool:
    """Whether every ``jit`` of the current method keeps its ``self`` as it is: a bound method
    (``jax.jit(counter.count)``) or a static ``self``. A jitted method whose ``self`` is an
    argument traces a copy of it (a pytree), or raises (any other object)."""
    function = ctx.function
    if function is None or not function.positional_names():
        return False
    return all(self_static_at(function, site) is not False for site in function.jit_sites)


def _own_method(ctx: Context, func: ast.Attribute) -> bool:
    """``state.clear()`` where ``state`` is an object of a class of this module that defines
    ``clear``: its own method, not a container's."""
    return any(
        isinstance(ref, InstanceRef) and ctx.model.class_member(ref.node, func.attr) is not None
        for ref in refs(ctx.value(func.value))
    )


# how to build an updated object of each kind of frozen class
REPLACERS = {
    "an equinox module": "`eqx.tree_at(lambda m: m.{1}, {0}, new_value)`",
    "a flax struct dataclass": "`{0}.replace({1}=new_value)`",
    "a frozen dataclass": "`dataclasses.replace({0}, {1}=new_value)`",
}


def _frozen_instance(ctx: Context, expr: ast.expr) -> tuple[str, str] | None:
    """The frozen class of this module (an equinox module, a flax struct, a frozen dataclass)
    ``expr`` is known to be an object of, and what it is."""
    if record_kind(ctx.value(expr)) == "layer":  # `linear = eqx.nn.Linear(...)`
        return _layer_name(ctx, expr), "an equinox module"
    cls = _annotated_class(ctx, expr)
    if cls is None:
        found = refs(ctx.value(expr))
        classes = {ref.node for ref in found if isinstance(ref, InstanceRef)}
        if not found or len(classes) != 1 or len(found) != len(classes):
            return None
        cls = classes.pop()
    kind = _frozen_kind(ctx, cls)
    return None if kind is None else (cls.name, kind)


def _layer_name(ctx: Context, expr: ast.expr) -> str:
    """The library class of the layer ``expr`` holds, where it names it (``eqx.nn.Linear``)."""
    owner = ctx.scope.lookup(expr.id) if isinstance(expr, ast.Name) else None
    made = None if owner is None else owner.single_value(expr.id)  # pyright: ignore[reportAttributeAccessIssue]
    qualname = ctx.model.qualname(made.func, owner) if isinstance(made, ast.Call) and owner else None
    return qualname.replace("equinox.", "eqx.") if qualname else "this equinox layer"


def _annotated_class(ctx: Context, expr: ast.expr) -> ast.ClassDef | None:
    """The class of this module that annotates ``expr``, a parameter of the current function
    it never rebinds (``def bump(state: TrainState)``)."""
    function = ctx.function
    if not isinstance(expr, ast.Name) or function is None or function.scope.bound.get(expr.id) != 1:
        return None
    param = next((p for p in function.param_nodes() if p.arg == expr.id), None)
    if param is None or param.annotation is None:
        return None
    return ctx.model.class_named(param.annotation, ctx.model.index.parents.get(function.node, function.scope))


def _frozen_class_outside_init(ctx: Context) -> tuple[str, str] | None:
    """The class of the current method and what it is, when the class is a frozen dataclass (an
    equinox module, a flax struct) and the method is not one of its initialisers: assigning an
    attribute there raises (measured with JAX 0.10.2, eagerly, under ``jit`` and ``filter_jit``)."""
    function = ctx.function
    if function is None or not function.is_method or function.name in ("__init__", "__post_init__"):
        return None
    cls = ctx.model.index.parents[function.node].node
    if not isinstance(cls, ast.ClassDef):
        return None
    kind = _frozen_kind(ctx, cls)
    return None if kind is None else (cls.name, kind)


def _linen_outside_setup(ctx: Context) -> str | None:
    """The flax linen module class of the current method, when the method is not ``setup``
    (where submodules and attributes are assigned): assigning there raises."""
    function = ctx.function
    if function is None or not function.is_method or function.name in ("setup", "__post_init__"):
        return None
    cls = ctx.model.index.parents[function.node].node
    if not isinstance(cls, ast.ClassDef) or not ctx.model.is_flax_module(cls):
        return None
    return cls.name


def _frozen_kind(ctx: Context, cls: ast.ClassDef) -> str | None:
    """What frozen class ``cls`` is (an equinox module, a flax struct, a frozen dataclass),
    else None."""
    pytree = ctx.model.pytree_class(cls)
    if pytree is not None and pytree.only_arrays_traced:
        return "an equinox module"
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    named = {ctx.model.qualname(d, scope) for d in [*cls.decorator_list, *cls.bases]}
    if named & FROZEN_FLAX:
        return "a flax struct dataclass"
    for decorator in cls.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and ctx.model.qualname(decorator.func, scope) == "dataclasses.dataclass"
            and any(k.arg == "frozen" and not _false(k.value) for k in decorator.keywords)
        ):
            return "a frozen dataclass"
    return None


def _false(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and not expr.value


def _traced_custom_pytree(ctx: Context) -> str | None:
    """The class of the current method when it is compiled with ``self`` traced and the class
    is a pytree with its own flatten function (a plain, mutable object): JAX unflattens a new
    instance for the trace. None otherwise (other pytrees are frozen: assigning raises)."""
    function = ctx.function
    if function is None or not function.is_method or not ctx.traced_to_run or _self_kept(ctx):
        return None
    cls = ctx.model.index.parents[function.node].node
    if not isinstance(cls, ast.ClassDef) or cls not in ctx.model.pytree_fields.custom_classes:
        return None
    return cls.name


def _attribute_store_call(ctx: Context, call: ast.Call) -> tuple[ast.Attribute, ast.expr, bool] | None:
    """``setattr(obj, "name", value)`` or ``object.__setattr__(obj, "name", value)`` as the
    assignment ``obj.name = value`` it makes (located at the call), and whether it goes through
    ``object`` (which a frozen dataclass does not stop)."""
    if len(call.args) != 3 or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    owner, name, value = call.args
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value.isidentifier()):
        return None
    qualname = ctx.qualname(call.func)
    if qualname not in ("builtins.setattr", "builtins.object.__setattr__"):
        return None
    target = ast.Attribute(value=owner, attr=name.value, ctx=ast.Store())
    ast.copy_location(target, call)
    return target, value, qualname == "builtins.object.__setattr__"
