"""The semantic model of one module: which functions are traced, how, and what values they hold.

Built in four steps, each over data the previous one produced (never another walk of the tree):

1. :func:`build_index` binds every name in its scope and collects transform-like calls.
2. Discovery reads decorators and transform calls (``jax.jit(f, static_argnames=...)``,
   ``lax.scan(body, ...)``, ``jax.jit(jax.grad(f))``, flax ``__call__`` methods) and marks the
   functions they trace, with the parameters they trace.
3. A worklist runs the dataflow interpreter over traced functions; helpers called with traced
   arguments, bodies of transforms applied inside traced code, and nested functions become traced
   in turn, until nothing changes.
4. Everything else is analysed lazily, when a rule first asks about it.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter, deque
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from jaxlint.engine.astutil import (
    container_display,
    encloses,
    keyword_argument,
    never_run,
    room_to_recurse,
    without_not,
)
from jaxlint.semantic import api, measured
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.cross_module import LayerSpec, ProjectView, TraceRequest
from jaxlint.semantic.decorators import forwards_calls
from jaxlint.semantic.functions import FunctionInfo, FunctionNode
from jaxlint.semantic.imports import Resolver
from jaxlint.semantic.keys import KeyEvent, KeyId, origin
from jaxlint.semantic.measured import schedule_functions, schedule_parameters
from jaxlint.semantic.records import (
    EQUINOX_BASES,
    NAMED_TUPLES,
    PYTREE_BASES,
    Fields,
    PytreeClass,
    class_declaring,
    field_by_name,
    find_pytree_classes,
    is_dataclass,
    record_kind_of_field,
)
from jaxlint.semantic.scopes import (
    AMBIGUOUS,
    COMPREHENSION_NODES,
    FUNCTION_NODES,
    LOOP_NODES,
    ModuleIndex,
    Scope,
    ScopeCache,
    bound_rngs_keys,
    build_index,
    child_fields,
    init_keys,
    parameter_defaults,
    rngs_keys,
)
from jaxlint.semantic.transforms import (
    ABSTRACT,
    CACHING_KINDS,
    CALL_STAGING,
    CALL_TAILS,
    FLAX_LIFTED,
    FORWARDING,
    HOST,
    JITS_WITH_STATIC_ARGNAMES,
    MAPPING,
    NONE,
    PARTIALS,
    REPEATING,
    STAGED,
    TRACE_REUSING_KINDS,
    TRACED_FOR_SHAPES,
    TRANSFORMS,
    TREE_MAPS,
    Kind,
    Transform,
    body_operand,
    function_arguments,
    user_transform,
)
from jaxlint.semantic.values import (
    CONCRETE_ARRAY,
    STATIC,
    TRACED,
    UNKNOWN,
    ClassRef,
    FunctionRef,
    InstanceRef,
    LayerRef,
    LibraryRef,
    Value,
    instance_classes,
    is_jax_array,
    is_traced,
    known_elements,
    portable,
    referring,
    refs,
    untraced,
    whole,
)

if TYPE_CHECKING:
    from jaxlint.semantic.dataflow import Interpreter

MAX_RUNS = 6
# builtins that take a function without calling it
_NEVER_CALLING = frozenset(
    {"isinstance", "issubclass", "type", "len", "id", "callable", "hasattr", "getattr", "repr", "str"}
)
# calls that hand a function on to run it several times, or to be called later
_KEEPING_CALLS = frozenset({"map", "tree_map", "map_with_path", "tree_map_with_path", "partial"})
# the nodes whose body may run several times in one run of the function around them
_REPEATING_TYPES = frozenset({*LOOP_NODES, *COMPREHENSION_NODES})
_NESTED_TYPES = frozenset({*FUNCTION_NODES, ast.ClassDef})
# Libraries whose `split`, `normal`, `choice`... take no JAX key.
KEYLESS_LIBRARIES = frozenset(
    {"builtins", "numpy", "random", "scipy", "torch", "tensorflow", "re", "os", "string"}
)
WHILE_LOOP = "jax.lax.while_loop"
# lax primitives whose body JAX traces again on every eager call (it wraps the body in a new
# function each time; measured with JAX 0.10.2: a global changed between calls is re-read);
# `scan`, `fori_loop` and `while_loop` cache the trace of the same body function
RETRACED_WHEN_EAGER = frozenset(
    {
        "jax.lax.map",
        "jax.numpy.apply_along_axis",
        # measured: called eagerly, they trace their operator afresh on every call
        "jax.scipy.sparse.linalg.cg",
        "jax.scipy.sparse.linalg.gmres",
        "jax.scipy.sparse.linalg.bicgstab",
    }
)
# calls that trace a jitted function ahead of time: `jax.jit(f).lower(x)`, `export.export(jitted)`
LOWERING_CALLS = frozenset({"lower", "export"})
# Roots of imported names that are libraries, never functions of the project being checked.
# (The JAX ecosystem's own packages are not listed: checking flax itself routes its requests.)
LIBRARY_ROOTS = frozenset(sys.stdlib_module_names) | {
    "jax",
    "jaxlib",
    "numpy",
    "scipy",
    "torch",
    "tensorflow",
    "pandas",
    "ml_dtypes",
}
FLAX_MODULES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
# the methods of a linen module that run its methods (`__call__` unless `method=` says another)
LINEN_ENTRIES = frozenset({"apply", "init", "init_with_output"})
NNX_MODULES = frozenset({"flax.nnx.Module"})
# flax nnx's variable types: what an nnx transformation traces in a module it is given
NNX_VARIABLES = frozenset(
    f"flax.nnx.{name}" for name in ("Variable", "Param", "BatchStat", "Cache", "Intermediate", "Perturbation")
)

# methods that fill in an object's attributes before it is used
INITIALIZERS = frozenset({"__init__", "setup", "__post_init__"})
# library bases that define no attribute which could shadow a field of a subclass
FIELD_SAFE_BASES = FLAX_MODULES | EQUINOX_BASES | NAMED_TUPLES | PYTREE_BASES | {"object", "builtins.object"}
# lax functions that trace every branch they are given, whichever one runs
BRANCHING = frozenset({"jax.lax.cond", "jax.lax.switch"})
# methods that run an optax optimizer's update (and so its schedules)
UPDATING = frozenset({"update", "apply_gradients"})
JAX_ROOTS = ("jax", "flax", "equinox", "optax", "chex", "jaxtyping")
OTHER_ARRAY_LIBRARIES = ("numpy", "torch", "tensorflow", "cupy", "pandas", "scipy", "dask", "mlx")


@dataclass
class Layer:
    """One transformation applied to a function, below which ``offset`` positional parameters
    and the ``bound`` keyword parameters were already filled (by ``partial`` or ``self``)."""

    transform: Transform
    call: ast.Call | None
    site: ast.expr
    offset: int = 0
    bound: frozenset[str] = frozenset()
    # what the calls of the transformed function pass, where every call is in sight: how many
    # positional arguments at most, and which keywords
    passed: tuple[int, frozenset[str]] | None = None


@dataclass
class Chain:
    """A callable built from a function: ``jax.jit(partial(f, a), static_argnums=1)``. The
    function is ``target`` here, or ``external`` (module, name) in another project module."""

    target: FunctionInfo | None
    layers: list[Layer]
    offset: int = 0
    bound: frozenset[str] = frozenset()
    external: str | None = None


# `jax.custom_jvp`/`jax.custom_vjp`: called in staged code, the function gets every argument but
# its `nondiff_argnums` as a tracer, static Python values included (measured with JAX 0.10.2:
# `int(x)` in it raises under `jit` with `x` static in the caller, not under a bare `vmap`)
CUSTOM_DERIVATIVES = frozenset({"jax.custom_jvp", "jax.custom_vjp"})


# methods of a custom derivative that set its rules
DERIVATIVE_RULE_SETTERS = frozenset({"defvjp", "defjvp"})


def _targets(node: ast.Assign | ast.AugAssign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def _is_object(base: ast.expr) -> bool:
    return isinstance(base, ast.Name) and base.id == "object"


def _rewrapped(scope: Scope, name: str) -> bool:
    """Whether ``scope`` rebinds ``name`` to a call on itself (``step = jax.jit(step)``)."""
    value = scope.assigned.get(name)
    return isinstance(value, ast.Call) and any(isinstance(a, ast.Name) and a.id == name for a in value.args)


# transformations whose result takes the function's arguments in their places
PLACE_KEEPING = frozenset({"jit", "remat", "pmap", "vmap", "grad", "filter", "filter_vmap"})


def _differentiated(info: FunctionInfo, depth: int = 0, seen: set[FunctionInfo] | None = None) -> bool:
    """Whether a differentiation (``grad``, ``vjp``, ``jvp``...) reaches ``info``: applied to it,
    or to a function that calls it."""
    seen = set() if seen is None else seen
    if info in seen or depth > 8:
        return False
    seen.add(info)
    if "grad" in info.transformed_by or info.reverse_sites:
        return True
    return any(_differentiated(caller, depth + 1, seen) for caller in info.callers)


def _jits_bound_method(info: FunctionInfo, chain: Chain, name: str, site: ast.AST) -> bool:
    """Whether ``site`` is ``jax.jit(obj.method)`` (or ``nnx.jit``) of ``info``, a method bound to
    its object, seen for the first time."""
    return (
        info.is_method
        and len(chain.layers) == 1
        and name in JITS_WITH_STATIC_ARGNAMES
        and chain.offset == 1
        and not chain.bound
        and isinstance(site, ast.Call)
        and bool(site.args)
        and isinstance(site.args[0], ast.Attribute)
        and site not in info.bound_jit_sites
    )


def _nondiff_params(info: FunctionInfo, call: ast.Call | None) -> frozenset[str]:
    """The parameters ``jax.custom_vjp(f, nondiff_argnums=(1,), nondiff_argnames=(...))`` (or
    its ``partial``) leaves Python values; all of them when these are not literals (nothing is
    then claimed)."""
    from jaxlint.semantic.tracing import int_literals, str_literals

    positional = info.positional_names()
    numbers_expr = keyword_argument(call, "nondiff_argnums")
    names_expr = keyword_argument(call, "nondiff_argnames")
    numbers = set() if numbers_expr is None else int_literals(numbers_expr)
    names = set() if names_expr is None else str_literals(names_expr)
    if numbers is None or names is None:
        return frozenset(p.arg for p in info.param_nodes())
    return frozenset(names) | {positional[n] for n in numbers if -len(positional) <= n < len(positional)}


class SemanticModel:
    """Facts about one module for the rules: qualified names, traced functions, values."""

    def __init__(
        self,
        tree: ast.Module,
        traced_decorators: frozenset[str] = frozenset(),
        wanted: frozenset[type] = frozenset(),
        project: ProjectView | None = None,
        scope_cache: ScopeCache | None = None,
    ) -> None:
        self.tree = tree
        self.project = project if project is not None else ProjectView()
        self.outgoing: list[TraceRequest] = []  # functions of other modules this one traces
        self.index: ModuleIndex = build_index(
            tree,
            CALL_TAILS
            | DERIVATIVE_RULE_SETTERS
            | _tails(traced_decorators)
            | _tails(schedule_functions())
            | _tails(CUSTOM_TRANSFORMATIONS),
            wanted,
            scope_cache,
        )
        self.resolver = Resolver(self.index.module, self.project.package)
        self.resolver.learn_aliases(tree)
        self.transforms = dict(TRANSFORMS)
        for name in traced_decorators:
            self.transforms[name] = user_transform(name)
        self.values: dict[ast.AST, Value] = {}
        self.infos: dict[ast.AST, FunctionInfo] = {}
        for scope in self.index.functions:
            parent_scope = self.index.parents[scope.node]
            parent = self.infos.get(parent_scope.function.node)
            info = FunctionInfo(scope.node, scope, parent)  # pyright: ignore[reportArgumentType]
            info.is_method = parent_scope.kind == "class" and not isinstance(scope.node, ast.Lambda)
            self.infos[scope.node] = info
            if parent is not None:
                parent.children.append(info)
        self.module_summary: dict[str, Value] = {}
        self._queue: deque[FunctionInfo] = deque()
        self.module_key_events: dict[ast.Call, KeyEvent] = {}
        self.partial_calls: set[ast.Call] = set()  # calls consuming only a key an argument holds
        self.bound_key_calls: set[ast.Call] = set()  # calls consuming a key a `partial` or default holds
        self.invoked_at_once: set[ast.Call] = set()  # calls whose result is called right away: `jit(f)(x)`
        self._library_values: dict[str, Value] = {}
        self._unresolved: set[ast.AST] = set()
        # functions a class's methods store on `self` (`self.loss_fn = loss_fn`), and who reads them
        self._self_functions: dict[tuple[ast.ClassDef, str], Value] = {}
        self._property_reads: dict[ast.Attribute, ast.Call] = {}  # a call standing for each property read
        self._held_instances: dict[tuple[ast.ClassDef, str], ast.ClassDef | None] = {}
        self._held_arrays: dict[tuple[ast.ClassDef, str], Value | None] = {}
        self._dict_touching: dict[ast.ClassDef, bool] = {}
        self._drawing_once: dict[FunctionInfo, bool] = {}  # see _draws_once
        self.global_reads: set[str] = set()  # names imported from modules that may be the project's
        self._makes_objects: dict[ast.AST, bool] = {}
        self._makes_arrays: dict[ast.AST, bool] = {}
        self._runners_of: dict[FunctionInfo, set[str]] = {}  # see _info_runners
        self._bodies_passed_by: dict[Scope, set[str]] = {}  # see _bodies_passed
        self._retraced_bodies: set[FunctionInfo] = set()  # bodies of RETRACED_WHEN_EAGER calls
        # `jax.jit(tx.update)` -> the `update_fn` of the custom transformation `tx` it compiles
        self._transformed_updates: dict[ast.Call, ast.AST] = {}
        self._keys_of: dict[tuple[FunctionInfo, str], set[object] | None] = {}  # see _keys_read
        self._code_by_function: dict[ast.AST, tuple[BlockCode, set[ast.AST] | None]] = {}
        self._stores_by_class: dict[ast.ClassDef, dict[str, list[SelfStore]]] = {}
        self._self_function_readers: dict[tuple[ast.ClassDef, str], set[FunctionInfo]] = {}
        self._transformed_names: dict[ast.AST, frozenset[str]] = {}  # see transforms_param
        self._stored_names: dict[ast.AST, frozenset[str]] = {}  # see stored_on_self
        self._fields_by_name: dict[str, Value | None] = {}
        self._reuses_trace: dict[FunctionInfo, bool] = {}
        self._wrapped: dict[ast.expr, tuple[list[Scope], bool]] = {}  # see _wrapped_callees
        self._requested_reuse: set[FunctionInfo] = set()  # traced by cached callers in other modules
        # derivative rules traced (`_trace_rule`), each with the function it differentiates
        self._rule_primals: dict[FunctionInfo, FunctionInfo] = {}
        self._flax_modules: dict[ast.ClassDef, bool] = {}
        self._within_loop: dict[ast.Call, bool] = {}  # see _used_within_its_loop
        # functions made `jax.custom_jvp`/`jax.custom_vjp`, with their `nondiff_argnums`
        self.custom_derivatives: dict[FunctionInfo, frozenset[str]] = {}
        # of those, the `jax.custom_vjp` ones: forward-mode differentiation rejects them
        self.custom_vjps: set[FunctionInfo] = set()
        self._sighted_calls: dict[FunctionInfo, list[tuple[ast.Call, Scope]] | None] = {}
        self._only_traced: dict[tuple[FunctionInfo, bool, int], bool] = {}  # see runs_only_traced
        self.memo: dict[object, Any] = {}  # scratch space for what rules' support code derives
        # their rules (`f.defvjp(fwd, bwd)`, `@f.defjvp`): (the function, its rules, the site)
        self._derivative_rules: list[tuple[ast.expr, tuple[ast.expr, ...], Scope, ast.AST]] = []
        # the interpreters running now, by the function (or module) they run: a function called
        # from its enclosing one reads the enclosing names as they are at the call
        self._unreached: dict[ast.AST, tuple[tuple[tuple[str, bool | None], ...], frozenset[ast.AST]]] = {}
        self._live: dict[
            ast.AST, Interpreter
        ] = {}  # functions holding `jax.jit(<a name bound to a lambda>)`...
        # calls of a library function under a transformation (`jax.jit(jnp.zeros)(n)`): it runs
        # traced on every argument, so its parameters that must be static cannot be given here
        self.transformed_library_calls: dict[ast.Call, LibraryRef] = {}
        # a module that never names JAX still holds hazards when another module traces it
        self.uses_jax = self._names_jax(traced_decorators) or bool(self.project.seeds)
        if self.uses_jax:
            self._discover()
            self._apply_seeds()
            self._analyze_module()
            self._analyze_unresolved()
            self._drain()
            if self._trace_derivative_rules():
                self._drain()

    def release(self) -> None:
        """Break the model's reference cycles so the syntax tree is freed at once, without
        waiting for the cycle collector (which checking pauses)."""
        for info in self.infos.values():
            info.parent = None
            info.children = []
            info.callers = set()
            info.outer_reads = []
        self.values.clear()

    # ----------------------------------------------------------------- queries for rules

    def qualname(self, expr: ast.AST, scope: Scope) -> str | None:
        return self.resolver.qualname(expr, scope)

    def info(self, node: ast.AST) -> FunctionInfo | None:
        return self.infos.get(node)

    def value(self, expr: ast.AST, scope: Scope) -> Value:
        """What ``expr`` (appearing in ``scope``) holds; UNKNOWN when the model cannot tell."""
        info = self.infos.get(scope.function.node)
        if info is not None and not info.analyzed:
            self.ensure(info)
        return self.values.get(expr, UNKNOWN)

    def level(self, scope: Scope) -> int:
        info = self.infos.get(scope.function.node)
        return NONE if info is None else info.effective_level

    def function_of(self, scope: Scope) -> FunctionInfo | None:
        return self.infos.get(scope.function.node)

    @cached_property
    def array_libraries(self) -> frozenset[str]:
        """Root packages of the array libraries this module imports."""
        roots: set[str] = set()
        for scope in [self.index.module, *self.index.functions]:
            for qualname in scope.imports.values():
                root = qualname.split(".")[0]
                if qualname.startswith("jax.numpy") or root in OTHER_ARRAY_LIBRARIES:
                    roots.add("jax.numpy" if root == "jax" else root)
        return frozenset(roots)

    @property
    def jax_is_only_array_library(self) -> bool:
        return self.array_libraries == {"jax.numpy"}

    def reuses_trace(self, info: FunctionInfo) -> bool:
        """Whether the Python code of ``info`` runs once per trace rather than on every call:
        it is compiled or cached (``jit``, ``pmap``, ``filter_jit``, ``checkpoint``), a ``lax``
        body, a flax module method, or nested in or called from such a function. Under a bare
        ``vmap`` or ``grad`` it runs again on every call, and so do its side effects."""
        found = self._reuses_trace.get(info)
        if found is None:
            self._reuses_trace[info] = False  # a cycle of callers proves nothing
            found = self._reuses_trace[info] = self._find_trace_reuse(info)
        return found

    def caches_trace(self, info: FunctionInfo, seen: frozenset[FunctionInfo] = frozenset()) -> bool:
        """Whether JAX keeps the trace of ``info`` across calls (what it read stays frozen): as
        ``reuses_trace``, except a ``lax`` body that is a new function object on each call (see
        :meth:`_one_body_object`) or a ``lax.map`` body called from eager code, which JAX wraps
        anew and traces again on every call (it still runs once per trace, not once per row), and a
        function only ever jitted as a new function object made and called at once
        (``jax.jit(jax.grad(loss))(w)``, ``jax.jit(model.apply)(p, x)``: JAX's cache is keyed on
        that object); a function they call or enclose is cached only where another cached
        function traces it."""
        reusing = info.transformed_by & TRACE_REUSING_KINDS
        afresh = (reusing == {"body"} and not self._one_body_object(info)) or (
            reusing - {"flax"} == {"jit"} and all(self._jitted_afresh(call) for call in info.jit_calls)
        )
        if (reusing and not afresh) or info in self._requested_reuse:
            return True
        seen = seen | {info}
        primal = self._rule_primals.get(info)  # a derivative rule is traced with its function
        if primal is not None and primal not in seen and self.caches_trace(primal, seen):
            return True
        parent = info.parent
        if (
            parent is not None
            and parent not in seen
            and info.inherited > NONE
            and self.caches_trace(parent, seen)
        ):
            return True
        return any(
            caller not in seen and caller.effective_level > NONE and self.caches_trace(caller, seen)
            for caller in info.callers
        )

    def _jitted_afresh(self, call: ast.Call | None) -> bool:
        """``jax.jit(f)(x)`` where ``f`` is a new function object each time it runs (a lambda, a
        ``partial``, a bound method, what ``jax.grad`` or a factory returns) and the jitted
        function is called right away, never kept."""
        if call is None or not call.args:
            return False
        if call not in self.invoked_at_once and not self._used_within_its_loop(call):
            return False
        made = call.args[0]
        if isinstance(made, ast.Lambda):
            return True
        found = (
            refs(self.values.get(made, UNKNOWN))
            if isinstance(made, (ast.Call, ast.Attribute))
            else frozenset()
        )
        return bool(found) and all(isinstance(ref, FunctionRef) and self.made_anew(ref) for ref in found)

    def _used_within_its_loop(self, call: ast.Call) -> bool:
        """``f = jax.jit(lambda x: x * k)`` bound in a loop body and read only inside that loop:
        each iteration jits a new function and calls it before the next one replaces it."""
        loops = self._loop_binding_jits.get(call)
        if not loops:
            return False
        found = self._within_loop.get(call)
        if found is None:
            found = self._within_loop[call] = self._read_only_in(call, loops)
        return found

    def _read_only_in(self, call: ast.Call, loops: list[ast.For | ast.While | ast.AsyncFor]) -> bool:
        for loop in loops:
            bound = next(
                (
                    s.targets[0].id
                    for s in own_nodes(loop.body)
                    if isinstance(s, ast.Assign)
                    and s.value is call
                    and len(s.targets) == 1
                    and isinstance(s.targets[0], ast.Name)
                ),
                None,
            )
            if bound is not None:
                reads = [
                    n
                    for n in ast.walk(self.tree)
                    if isinstance(n, ast.Name) and n.id == bound and isinstance(n.ctx, ast.Load)
                ]
                return all(any(encloses(part, read) for part in loop.body) for read in reads)
        return False

    @cached_property
    def _loop_binding_jits(self) -> dict[ast.Call, list[ast.For | ast.While | ast.AsyncFor]]:
        """The loops whose body binds a name to each call (one walk of the module)."""
        found: dict[ast.Call, list[ast.For | ast.While | ast.AsyncFor]] = {}
        for loop in ast.walk(self.tree):
            if isinstance(loop, (ast.For, ast.While, ast.AsyncFor)):
                for statement in own_nodes(loop.body):
                    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
                        found.setdefault(statement.value, []).append(loop)
        return found

    def made_anew(self, ref: FunctionRef) -> bool:
        """Whether the expression that gave ``ref`` makes a new function object each time: a
        transformation's result, a ``partial``, a bound method, a lambda or a nested ``def``."""
        if ref.layers or ref.offset or ref.bound or ref.skip or isinstance(ref.node, ast.Lambda):
            return True
        parent = self.index.parents.get(ref.node)
        return parent is not None and parent.kind == "function"

    def _one_body_object(self, info: FunctionInfo) -> bool:
        """Whether ``lax`` loops and conditionals given ``info`` as a body get one function object
        on every call, whose trace they cache (keyed on the object: measured with JAX 0.10.2 for
        ``scan``, ``while_loop``, ``fori_loop``, ``cond`` and ``switch`` called eagerly): a
        function of the module, not a nested one, a lambda or a method (a new object or bound
        method per call, traced afresh), nor the body of ``lax.map`` (wrapped anew)."""
        if info.repeated_by in RETRACED_WHEN_EAGER or info in self._retraced_bodies:
            return False
        parent = info.scope.parent
        return parent is self.index.module and not isinstance(info.node, ast.Lambda)

    def compiled_root(
        self, info: FunctionInfo, seen: frozenset[FunctionInfo] = frozenset()
    ) -> FunctionInfo | None:
        """The function whose compilation runs ``info`` as part of its program: ``info`` itself
        when it is compiled (``jit``, ``pmap``, ``filter_jit``, ``checkpoint``), else a compiled
        caller or enclosing function that traces it. What ``info`` reads while tracing is a
        constant of that compiled program. Asked afresh each time: callers found later in the
        analysis count (a module's `init` may run the method eagerly before `apply` traces it)."""
        caching = info.transformed_by & CACHING_KINDS
        if caching and caching != {"remat"}:
            return info
        seen = seen | {info}
        if caching:  # `checkpoint` called in a jitted function is part of that function's program
            outer = next(
                (
                    root
                    for caller in sorted(info.callers, key=_node_position)
                    if caller not in seen
                    and caller.effective_level > NONE
                    and (root := self.compiled_root(caller, seen)) is not None
                ),
                None,
            )
            return outer or info
        primal = self._rule_primals.get(info)  # a derivative rule is traced in its function's program
        if primal is not None and primal not in seen:
            root = self.compiled_root(primal, seen)
            if root is not None:
                return root
        parent = info.parent
        if parent is not None and parent not in seen and info.inherited > NONE:
            root = self.compiled_root(parent, seen)
            if root is not None:
                return root
        for caller in sorted(info.callers, key=_node_position):  # in source order: deterministic
            if caller not in seen and caller.effective_level > NONE:
                root = self.compiled_root(caller, seen)
                if root is not None:
                    return root
        return None

    def _find_trace_reuse(self, info: FunctionInfo) -> bool:
        if info.transformed_by & TRACE_REUSING_KINDS or info in self._requested_reuse:
            return True
        primal = self._rule_primals.get(info)  # a derivative rule runs in its function's trace
        if primal is not None and self.reuses_trace(primal):
            return True
        parent = info.parent
        if parent is not None and info.inherited > NONE and self.reuses_trace(parent):
            return True
        return any(caller.effective_level > NONE and self.reuses_trace(caller) for caller in info.callers)

    def key_events(self, scope: Scope) -> dict[ast.Call, KeyEvent]:
        """Key reuse found in the function (or module body) that ``scope`` belongs to."""
        info = self.infos.get(scope.function.node)
        if info is None:
            return self.module_key_events
        if not self._tracks_keys or not self.may_use_keys(info):
            return {}
        if not info.analyzed and info.effective_level == NONE:
            once = self._drawing_once.get(info)
            if once is None:
                once = self._drawing_once[info] = self._draws_once(info)
            if once:
                return {}
        self.ensure(info)
        return info.key_events

    def _draws_once(self, info: FunctionInfo) -> bool:
        """Whether an eager function consumes keys at one call at most, and that call runs once:
        not in a loop, a comprehension or a lambda; no function that may draw nested in it,
        mapped over a tree or handed to a call whose result it keeps (``g = jax.jit(draw)``
        may be called twice); no key its object holds read. Such a function has no key event
        of its own to find (what it consumes, its callers' analyses ask for and get)."""
        node = info.node
        if isinstance(node, ast.Lambda):
            return False
        users, names = self._key_using_scopes, self._key_using_names
        direct = {id(call) for call in info.scope.random_calls}
        this = info.positional_names()[:1] if info.is_method else []
        site: ast.Call | None = None
        repeating: list[ast.AST] = []
        called_at_once: set[int] = set()  # `jax.jit(f)` in `jax.jit(f)(x)`
        for current in own_nodes(node.body):
            kind = type(current)
            if kind is ast.Call:
                call: ast.Call = current  # pyright: ignore[reportAssignmentType]
                called_at_once.add(id(call.func))
                draws = _draws_at(call, direct, names, info.scope)
                if draws == "kept" or (draws == "handed" and id(call) not in called_at_once):
                    return False
                if draws:
                    if site is not None:
                        return False
                    site = call
            elif kind in _NESTED_TYPES:
                scope = self.index.scopes.get(current)
                if scope is None or scope in users or kind is ast.Lambda:
                    return False
            elif kind in _REPEATING_TYPES:
                repeating.append(current)
            elif kind is ast.Attribute and _reads_held_key(self, info, current, this):
                return False
        return site is None or not any(encloses(loop, site) for loop in repeating)

    @cached_property
    def _key_using_names(self) -> frozenset[str]:
        """The names of the defs that may consume a key (see ``_key_using_scopes``)."""
        users = self._key_using_scopes
        defs = {
            scope.node.name
            for scope in users
            if isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        wrappers = {
            name
            for _, name, callees, draws in self._wrapper_calls
            if draws or any(c in users for c in callees)
        }
        # a flax module's `init`/`apply` run its `__call__`
        entries = api.FLAX_ENTRY_POINTS if "__call__" in defs else frozenset()
        return frozenset(defs | wrappers | entries)

    def consumed_params(self, info: FunctionInfo) -> set[str]:
        """Parameters of ``info`` that it consumes as PRNG keys."""
        if not self.may_use_keys(info):
            return set()
        self.ensure(info)
        return info.consumed_params

    def consumed_outside(self, info: FunctionInfo) -> dict[KeyId, ast.Call]:
        """Keys made outside ``info`` (closed over) that it consumes: calling it consumes them."""
        if not self.may_use_keys(info):
            return {}
        self.ensure(info)
        return info.consumed_outside

    def tracks_keys(self, scope: Scope) -> bool:
        """Whether the interpreter follows PRNG keys here: in a module that draws random numbers."""
        return self._tracks_keys

    def may_use_keys(self, info: FunctionInfo) -> bool:
        """Whether a function may consume a key: it calls a ``jax.random`` consumer, or a function
        of this module (by name) or a nested function that may (a cheap syntactic bound: the
        interpreter runs on a callee for its keys only when this holds)."""
        return info.scope in self._key_using_scopes

    @cached_property
    def _key_using_scopes(self) -> set[Scope]:
        """The scopes that may consume a key: those that call a consumer, and every scope that
        calls one of them by name or encloses one (one walk of the call graph, backwards)."""
        scopes = [self.index.module, *self.index.functions]
        users: dict[Scope, list[Scope]] = {}
        found: set[Scope] = set()
        for scope in scopes:
            for name in scope.called:
                for callee in self._scopes_defining(name):
                    users.setdefault(callee, []).append(scope)
            for inner in self._nested_scopes.get(scope.node, ()):
                users.setdefault(inner, []).append(scope)
        for scope, _, wrapped, draws in self._wrapper_calls:
            for callee in wrapped:
                users.setdefault(callee, []).append(scope)
            if draws:
                found.add(scope)
        found |= {scope for scope in scopes if self._calls_random(scope)}
        pending = list(found)
        while pending:
            for user in users.get(pending.pop(), ()):
                if user not in found:
                    found.add(user)
                    pending.append(user)
        return found

    @cached_property
    def _wrapper_calls(self) -> list[tuple[Scope, str, list[Scope], bool]]:
        """Each call of a name bound to a wrapped function (``noisy = jax.jit(noise)``): the
        calling scope, the name, the defs the wrapper names, and whether it names a ``jax.random``
        function."""
        found = []
        for scope in [self.index.module, *self.index.functions]:
            for name in scope.called:
                wrapped, draws = self._wrapped_callees(scope, name)
                if wrapped or draws:
                    found.append((scope, name, wrapped, draws))
        return found

    def _wrapped_callees(self, scope: Scope, name: str) -> tuple[list[Scope], bool]:
        """For a call of ``name`` bound once to a wrapped function (``noisy = jax.jit(noise)``,
        ``partial(noise, ...)``, ``jax.grad(lambda x: noise(k, x))``, ``jax.jit(jax.random.normal)``):
        the functions of this module the wrapper names, and whether it names a key consumer."""
        if name not in self._bound_by_assignment or self._scopes_defining(name):
            return [], False
        found = self._wrapper_value(scope, name)
        if found is None:
            return [], False
        value, owner = found
        known = self._wrapped.get(value)
        if known is None:
            known = self._wrapped[value] = self._named_by_wrapper(value, owner)
        return known

    @cached_property
    def _bound_by_assignment(self) -> frozenset[str]:
        """The names some ``name = value`` or ``obj.name = value`` binds in the module: the only
        ones that can name a wrapped function."""
        names = {name for scope in [self.index.module, *self.index.functions] for name in scope.assigned}
        return frozenset(names | set(self._attribute_stores))

    def _wrapper_value(self, scope: Scope, name: str) -> tuple[ast.expr, Scope] | None:
        """What ``name`` is bound to once, when that is a call or a lambda, and the scope binding
        it: a name in sight, or ``self.name`` that one method of the class stores."""
        owner = scope.lookup(name)
        if owner is not None:
            value = owner.single_value(name)
            return (value, owner) if isinstance(value, (ast.Call, ast.Lambda)) else None
        cls = scope.parent.node if scope.parent is not None else None
        if not isinstance(cls, ast.ClassDef) or name not in self._attribute_stores:
            return None
        stores = self.self_stores(cls).get(name, [])
        if len(stores) != 1 or not isinstance(stores[0].value, (ast.Call, ast.Lambda)):
            return None
        method = self.index.scopes.get(stores[0].method)
        return None if method is None else (stores[0].value, method)

    def _named_by_wrapper(self, value: ast.expr, owner: Scope) -> tuple[list[Scope], bool]:
        """The defs of this module a wrapper expression names, and whether it names a function
        of ``jax.random``."""
        callees: list[Scope] = []
        draws = False
        for node in ast.walk(value):
            if isinstance(node, ast.Name):
                callees += self._scopes_defining(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                callees += self._scopes_defining(node.attr)  # `self.noise`, a method
            tail = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
            if not draws and tail in api.RANDOM_CONSUMERS:
                draws = (self.resolver.qualname(node, owner) or "").rpartition(".")[0] == "jax.random"
        return callees, draws

    def _calls_random(self, scope: Scope) -> bool:
        """Whether ``scope`` may call a ``jax.random`` consumer: a call of a random-like name
        (``split``, ``normal``) that is not a method of some object (``line.split(",")``,
        ``rng.normal()`` of NumPy's generator) nor a function of a library without keys."""
        return (
            any(
                self._may_consume_key(call.func, scope)
                or rngs_keys(call)
                or bound_rngs_keys(call)
                or init_keys(call)
                or _called_with_key(call)
                for call in scope.random_calls
            )
            or any(self._may_consume_key(argument, scope, passed=True) for argument in scope.random_passes)
            or bool(scope.called & self._initializer_names)
            or bool(scope.called & _INITIALIZER_FACTORY_TAILS)  # `glorot_normal()(key, shape)`
        )

    @cached_property
    def _initializer_names(self) -> frozenset[str]:
        """Module names bound to an initializer that draws from its key
        (``init = jax.nn.initializers.glorot_normal()``): a call of one consumes a key."""
        module = self.index.module
        return frozenset(
            name
            for name, value in module.assigned.items()
            if isinstance(value, ast.Call)
            and self.resolver.qualname(value.func, module) in measured.key_consuming_initializers()
        )

    def _may_consume_key(self, function: ast.expr, scope: Scope, passed: bool = False) -> bool:
        """Whether ``function``, called (or ``passed`` on), may be a key consumer."""
        if isinstance(function, ast.Call):  # `jax.vmap(f)(key, xs)`
            return self.resolver.qualname(function.func, scope) in MAPPING
        qualname = self.resolver.qualname(function, scope)
        if qualname is None:
            # called: a local function or parameter of that name; passed: a variable (`t`,
            # `beta`), or a def whose calls the call graph follows
            return isinstance(function, ast.Name) and not passed
        root = qualname.partition(".")[0]
        # JAX's own functions of these names outside its random modules take no key (`jnp.split`)
        return root not in KEYLESS_LIBRARIES and (root != "jax" or "random" in qualname)

    def _scopes_defining(self, name: str) -> list[Scope]:
        return self._definitions.get(name, [])

    @cached_property
    def _definitions(self) -> dict[str, list[Scope]]:
        found: dict[str, list[Scope]] = {}
        for scope in self.index.functions:
            node = scope.node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.setdefault(node.name, []).append(scope)
                owner = scope.parent
                if node.name == "__call__" and owner is not None and owner.kind == "class":
                    # what constructs the class may call its instances
                    found.setdefault(owner.node.name, []).append(scope)  # pyright: ignore[reportAttributeAccessIssue]
        return found

    @cached_property
    def _nested_scopes(self) -> dict[ast.AST, list[Scope]]:
        found: dict[ast.AST, list[Scope]] = {}
        for scope in self.index.functions:
            found.setdefault(self.index.parents[scope.node].function.node, []).append(scope)
        return found

    @cached_property
    def _tracks_keys(self) -> bool:
        scopes = [self.index.module, *self.index.functions]
        return any(self._calls_random(scope) for scope in scopes) or any(
            qualname.startswith("jax.random") for scope in scopes for qualname in scope.imports.values()
        )

    def runs_once(self, info: FunctionInfo) -> bool:
        """Whether the program calls module function ``info`` exactly once: its name is read
        once, as the callee of a call in straight-line module code or in the entry point
        (``params = init_params()`` under ``if __name__ == "__main__":``), not in a loop."""
        node = info.node
        if (
            not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            or info.scope.parent is not self.index.module
        ):
            return False
        if self._name_reads.get(node.name) != 1:
            return False
        places = [(self.tree, c) for c, _ in self._module_level_code[0]]
        for entry in self._entry_points:
            places += [(entry, c) for c in own_nodes(entry.body) if isinstance(c, ast.Call)]  # pyright: ignore[reportAttributeAccessIssue]
        return any(
            isinstance(c.func, ast.Name) and c.func.id == node.name and not _in_loop(where, c)
            for where, c in places
        )

    def called_eagerly(self, info: FunctionInfo) -> bool:
        """Whether the body of module function ``info`` also runs outside any trace: a helper
        called by module code or by a function nothing traces (``setup()`` at import, besides a
        lazy call of it). Not a transformed function: its calls run the transformation."""
        node = info.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or info.transformed_by:
            return False
        if any(caller.effective_level == NONE for caller in info.callers):
            return True
        return info.scope.parent is self.index.module and any(
            _called_name(call) == node.name for call, _ in self._module_level_code[0]
        )

    @cached_property
    def _name_reads(self) -> Counter[str]:
        """How many times the module reads each name."""
        return Counter(
            n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        )

    def made_eagerly(self, key: object) -> bool:
        """Whether a key was made at module level or in a function nothing traces: inside a
        jitted function it is a constant of the compiled program."""
        made = origin(key)
        if made is None:
            return isinstance(key, tuple) and bool(key) and key[0] == "attr"
        enclosing = [info for info in self.infos.values() if encloses(info.node, made)]
        if not enclosing:
            return True
        innermost = max(enclosing, key=lambda info: info.node.lineno)
        return innermost.effective_level == NONE

    @cached_property
    def makes_functions(self) -> frozenset[ast.AST]:
        """Functions that define functions or lambdas (factories, closures): their results may be
        functions, so calling one runs the interpreter on it to know what it returns."""
        return frozenset(self.index.parents[scope.node].function.node for scope in self.index.functions)

    def makes_objects(self, info: FunctionInfo) -> bool:
        """Whether ``info`` returns a new object of a class of this module (``return
        Var(name)``): calling it runs the interpreter on it, so the caller knows whose methods it
        may call. One walk of the function, on its first call."""
        found = self._makes_objects.get(info.node)
        if found is None:
            body = getattr(info.node, "body", None)
            found = (
                bool(self.index.classes)
                and isinstance(body, list)
                and any(
                    isinstance(node, ast.Return)
                    and isinstance(node.value, ast.Call)
                    and self.class_named(node.value.func, info.scope) is not None
                    for node in own_nodes(body)
                )
            )
            self._makes_objects[info.node] = found
        return found

    def makes_arrays(self, info: FunctionInfo) -> bool:
        """Whether ``info`` returns what a call of ``jax`` makes, or a display of such values
        (``return {"w": jnp.zeros(n), "b": jnp.zeros(1)}``, an ``init``): an eager call of it runs
        the interpreter on it, so the caller knows the arrays it gets. One walk, on its first call."""
        found = self._makes_arrays.get(info.node)
        if found is None:
            body = getattr(info.node, "body", None)
            scope = self.index.scopes.get(info.node, self.index.module)
            found = isinstance(body, list) and any(
                isinstance(node, ast.Return)
                and node.value is not None
                and self._made_by_jax(node.value, scope)
                for node in own_nodes(body)
            )
            self._makes_arrays[info.node] = found
        return found

    def _made_by_jax(self, value: ast.expr, scope: Scope) -> bool:
        if isinstance(value, (ast.Tuple, ast.List)):
            return any(self._made_by_jax(e, scope) for e in value.elts)
        if isinstance(value, ast.Dict):
            return any(v is not None and self._made_by_jax(v, scope) for v in value.values)
        return isinstance(value, ast.Call) and (self.qualname(value.func, scope) or "").startswith("jax.")

    # ----------------------------------------------------------------- lazy analysis

    def ensure(self, info: FunctionInfo) -> None:
        """Analyse ``info`` unless it is up to date (again, a bounded number of times, when a
        function it depends on changed while it ran)."""
        for _ in range(MAX_RUNS):
            if info.analyzed or info.running:
                return
            self.run(info)

    def run(self, info: FunctionInfo) -> None:
        from jaxlint.semantic.dataflow import Interpreter

        info.running = True
        info.runs += 1
        consumed = (
            set(info.consumed_params),
            set(info.consumed_in_part),
            set(info.consumed_outside),
            dict(info.consumed_paths),
            set(info.consumed_by_init),
        )
        try:
            interpreter = self._live[info.node] = Interpreter(self, info)
            try:
                returns, summary = interpreter.run_function()
            except RecursionError:
                if not room_to_recurse():
                    raise  # the linter builds the model again on a thread with room
                returns, summary = UNKNOWN, {}
        finally:
            info.running = False
            self._live.pop(info.node, None)
        info.analyzed = not info.stale  # a callee it read changed during the run: not final
        info.stale = False
        now = (
            info.consumed_params,
            info.consumed_in_part,
            set(info.consumed_outside),
            info.consumed_paths,
            info.consumed_by_init,
        )
        if returns != info.returns or consumed != now:
            info.returns = returns
            for caller in info.callers:
                self._invalidate(caller)
        if summary != info.summary:
            info.summary = summary
            for child in info.children:
                self._invalidate(child)

    def _invalidate(self, info: FunctionInfo) -> None:
        if info.effective_level > NONE:
            self.enqueue(info)
        elif not info.running:
            info.analyzed = False
        else:
            info.stale = True

    def enqueue(self, info: FunctionInfo) -> None:
        if not info.queued and info.runs < MAX_RUNS:
            info.queued = True
            self._queue.append(info)

    def _drain(self) -> None:
        while self._queue:
            info = self._queue.popleft()
            info.queued = False
            self.run(info)

    def _analyze_unresolved(self) -> None:
        """Run the interpreter on the functions holding a transformation of a function the syntax
        does not name (the function values it computes say which function is transformed), and on
        those calling a library function a module-level name holds transformed (``step =
        jax.jit(jnp.unique)``): the rules of that function apply at the call."""
        transformed_library = {
            name
            for name, value in self.module_summary.items()
            if any(isinstance(ref, LibraryRef) and ref.layers for ref in refs(value))
        }
        callers = (
            [s.node for s in self.index.functions if s.called & transformed_library]
            if transformed_library
            else []
        )
        handers = [*self._function_handers(), *self._value_handers()]
        for node in [*self._unresolved, *callers, *handers]:
            info = self.infos.get(node)
            if info is not None:
                self.ensure(info)

    def _function_handers(self) -> list[ast.AST]:
        """Functions of this module calling, by its name, a traced function that calls one of its
        own parameters (``train_step(state, batch, lr_fn)`` with ``lr_fn`` static and called
        inside): the functions they hand it are traced with its values."""
        names = {
            info.name
            for info in self.infos.values()
            if info.level > NONE
            and isinstance(info.node, ast.FunctionDef)
            and info.scope.called & {p.arg for p in info.param_nodes()}
        }
        return self._scopes_calling(names)

    def _value_handers(self) -> list[ast.AST]:
        """Functions of this module calling, or transforming, by its name a function that a
        transformation traces: what they hand it says more of its parameters than the
        transformation does (equinox's ``filter_jit`` traces only the arrays it is given; a
        boolean mask handed to a vmapped function is a traced mask there)."""
        names = {
            info.name
            for info in self.infos.values()
            if info.transformed_by and isinstance(info.node, ast.FunctionDef)
        }
        return self._scopes_calling(names)

    def _scopes_calling(self, names: set[str]) -> list[ast.AST]:
        """The functions of this module that call, or pass on, one of ``names``."""
        if not names:
            return []
        return [scope.node for scope in self.index.functions if scope.called & names]

    def _analyze_module(self) -> None:
        from jaxlint.semantic.dataflow import Interpreter

        interpreter = self._live[self.tree] = Interpreter(self, None)
        try:
            self.module_summary = interpreter.run_module(self.tree)
        except RecursionError:
            if not room_to_recurse():
                raise
            self.module_summary = {}
        finally:
            self._live.pop(self.tree, None)
        if interpreter.tracker is not None:
            self.module_key_events = interpreter.tracker.events
            self.partial_calls |= interpreter.tracker.partial_calls

    # ----------------------------------------------------------------- values across scopes

    def outer_value(self, scope: Scope, name: str) -> Value:
        """The value of a free variable ``name`` read in ``scope``."""
        owner = scope.lookup(name)
        if owner is None:
            qualname = self.resolver.name(name, scope)
            if qualname is None or qualname.startswith("builtins."):
                return UNKNOWN if qualname is None else STATIC
            return self.library_value(qualname)  # bound by the module's one `from m import *`
        if owner.function is scope.function:
            return UNKNOWN  # local, but not bound on this path
        imported = owner.imports.get(name)
        if imported is not None:
            if imported == AMBIGUOUS:
                return STATIC
            value = self.library_value(imported)
            # a project module's value, unless the name is bound here again (`X = float(X)`)
            return value if refs(value) or owner.only_imported(name) else UNKNOWN
        live = self._live.get(owner.function.node)
        if live is not None and not (owner.kind == "module" and name in self.runtime_rebound):
            return live.current(name)  # read while the owner runs: its value at this point
        if owner.kind == "module":
            if name in self.runtime_rebound and name not in self.rewrapped_at_run_time:
                return UNKNOWN
            return self.module_summary.get(name, UNKNOWN)
        info = self.infos.get(owner.function.node)
        if info is None:
            return UNKNOWN
        self.ensure(info)
        return info.summary.get(name, UNKNOWN)

    @property
    def constant_tests(self) -> dict[ast.expr, bool]:
        """Conditions of ``if`` statements whose truth is fixed: a module flag (``DEBUG = False``
        bound once at the top of the module) or ``TYPE_CHECKING``, read where no local name
        shadows it, and ``not`` of one."""
        return self._constant_branches[0]

    def fixed_flag(self, info: FunctionInfo, name: str) -> bool | None:
        """The truth of parameter ``name`` wherever ``info`` is traced, when every traced call
        fixes it with a constant (``helper(x, check=False)``) and the function never rebinds
        it; None otherwise."""
        if info.scope.bound.get(name) != 1:
            return None
        return info.flag(name)

    def unreached_when_traced(self, info: FunctionInfo) -> frozenset[ast.AST]:
        """Every node of a branch of ``info`` that no trace of it runs: ``if check:`` where each
        traced call passes ``check=False`` (eager calls may still run it)."""
        if info.flags is None or info.flags_open:
            return frozenset()
        key = tuple(sorted(info.flags.items()))
        cached = self._unreached.get(info.node)
        if cached is not None and cached[0] == key:
            return cached[1]
        dead: set[ast.AST] = set()
        body = info.node.body
        for node in own_nodes(body) if isinstance(body, list) else ():
            if isinstance(node, ast.If):
                test = without_not(node.test)[0]
                truth = self.fixed_flag(info, test.id) if isinstance(test, ast.Name) else None
                if truth is not None:
                    for never in never_run(node, truth):
                        dead.update(ast.walk(never))
        found = frozenset(dead)
        self._unreached[info.node] = (key, found)
        return found

    @property
    def dead_nodes(self) -> frozenset[ast.AST]:
        """Every node of a branch that never runs (under ``if TYPE_CHECKING:``, ``if DEBUG:``)."""
        return self._constant_branches[1]

    @cached_property
    def _constant_branches(self) -> tuple[dict[ast.expr, bool], frozenset[ast.AST]]:
        flags = self.module_flags
        tests: dict[ast.expr, bool] = {}
        dead: set[ast.AST] = set()
        if not flags and "typing" not in self.index.module.imports.values():
            return tests, frozenset(dead)  # no flag, and no `typing.TYPE_CHECKING` to read
        stack: list[tuple[list[ast.AST], Scope]] = [(list(self.tree.body), self.index.module)]
        while stack:  # statements only: the walk skips expressions
            body, scope = stack.pop()
            for stmt in body:
                inner = self.index.scopes.get(stmt, scope)
                if isinstance(stmt, ast.If):
                    test, negated = without_not(stmt.test)
                    truth = self._flag(test, scope, flags)
                    if truth is not None:
                        tests[test] = truth
                        tests[stmt.test] = truth != negated
                        for never in never_run(stmt, truth):
                            dead.update(ast.walk(never))
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    block = getattr(stmt, field, None)
                    if block:
                        stack.append((block, inner))
        return tests, frozenset(dead)

    def _flag(self, test: ast.expr, scope: Scope, flags: dict[str, bool]) -> bool | None:
        if isinstance(test, ast.Name) and test.id in flags and scope.lookup(test.id) is self.index.module:
            return flags[test.id]
        if (
            isinstance(test, ast.Attribute)
            and test.attr == "TYPE_CHECKING"
            and self.resolver.qualname(test, scope) == "typing.TYPE_CHECKING"
        ):
            return False
        return None

    @cached_property
    def module_flags(self) -> dict[str, bool]:
        """Module names that are constant truth values: ``DEBUG = False`` bound once in the
        module and never rebound at run time, and ``TYPE_CHECKING`` (false when the code runs)."""
        module = self.index.module
        flags: dict[str, bool] = {}
        for name, value in module.assigned.items():
            if (
                module.bound.get(name) == 1
                and isinstance(value, ast.Constant)
                and isinstance(value.value, (bool, type(None)))
                and name not in self.runtime_rebound
            ):
                flags[name] = bool(value.value)
        for name, qualname in module.imports.items():
            if qualname == "typing.TYPE_CHECKING" and module.bound.get(name) == 1:
                flags[name] = False
        return flags

    @cached_property
    def runtime_rebound(self) -> dict[str, list[ast.AST]]:
        """Module names rebound at run time: assigned under ``global`` in a function, or the
        target of a module-level ``for`` loop. (Mutating a registry dict from a function is too
        common at import time to count.)"""
        sites: dict[str, list[ast.AST]] = {}
        for name, writes in self._global_writes.items():
            sites.setdefault(name, []).extend(store for _, store in writes)
        for stmt in self.tree.body:
            if isinstance(stmt, (ast.For, ast.AsyncFor)):
                for target in ast.walk(stmt.target):
                    if isinstance(target, ast.Name):
                        sites.setdefault(target.id, []).append(stmt)
        return sites

    @cached_property
    def _global_writes(self) -> dict[str, list[tuple[Scope, ast.AST]]]:
        """Module name -> each assignment to it under ``global`` in a function, with the function."""
        module = self.index.module
        found: dict[str, list[tuple[Scope, ast.AST]]] = {}
        for scope in self.index.functions:
            for name in scope.globals:
                if name in scope.bound or name in module.bound:
                    found.setdefault(name, []).extend((scope, node) for node in _stores_of(scope, name))
        return found

    def stale_rebinding(self, name: str, info: FunctionInfo) -> ast.AST | None:
        """Where the program rebinds module name ``name`` after a trace of ``info`` may have
        read it, so that later calls compute with the old value: a module-level loop over it, a
        ``global`` assignment in a function (not one that then clears the jit caches, nor the
        configuration an entry point sets before it runs anything of the module), or module code
        that rebinds it between two calls of ``info``."""
        writes = self._global_writes.get(name, [])
        runners = self._info_runners(info) if writes else set()
        for scope, store in writes:
            # `f.clear_cache()` after the write: the next call traces again
            if not scope.called & {"clear_cache", "clear_caches"} and not self._configures_before_running(
                scope, store, runners
            ):
                return store
        loops = [s for s in self.runtime_rebound.get(name, []) if isinstance(s, (ast.For, ast.AsyncFor))]
        if loops:
            return loops[0]
        return self._rebound_between_calls(name, info) or self._rebound_after_lowering(name, info)

    def _rebound_after_lowering(self, name: str, info: FunctionInfo) -> ast.AST | None:
        """A store of module name ``name`` between ``compiled = jax.jit(f).lower(x).compile()``
        (JAX traces ``f`` at ``lower``) and a call of ``compiled``, which runs the program
        traced then, with the value ``name`` had: in module-level code, or in the body of an
        eager function of the module."""
        lowering = self._lowering_functions
        if not lowering and not self.index.module.called & LOWERING_CALLS:
            return None  # (asked for every global a traced function reads: nothing lowers here)
        traced = self._traced_with(info)
        codes = [(self._module_level_code, self._caches_cleared)]
        codes += [self._function_code(node) for node in lowering]
        for (calls, stores), cleared in codes:
            lowered = self._lowered_names(calls, traced)
            if not lowered or cleared is None or cleared & traced:
                continue  # (JAX's caches cleared, or jit disabled: see `_rebound_in`)
            runs = [(c, held) for c, _ in calls if (held := _runs_lowered(c, lowered)) is not None]
            for store, _, _ in stores:
                if store.id != name:
                    continue
                for run, held in runs:
                    if _position(lowered[held]) < _position(store) < _position(run):
                        return store
        return None

    @cached_property
    def _lowering_functions(self) -> list[ast.FunctionDef]:
        """The functions of the module that call a ``lower`` (ahead-of-time compilation)."""
        return [
            scope.node
            for scope in self.index.functions
            if isinstance(scope.node, ast.FunctionDef) and scope.called & LOWERING_CALLS
        ]

    def _exports_traced(self, call: ast.Call, traced: set[ast.AST]) -> bool:
        """``jax.export.export(jitted)``, ``jitted`` a compiled function of ``traced``."""
        module = self.index.module
        return (
            self.resolver.qualname(call.func, module) == "jax.export.export"
            and bool(call.args)
            and any(
                isinstance(ref, FunctionRef) and ref.node in traced and ref.layers
                for ref in refs(self.values.get(call.args[0], UNKNOWN))
            )
        )

    def _lowered_names(
        self, calls: list[tuple[ast.Call, ast.AST | None]], traced: set[ast.AST]
    ) -> dict[str, ast.Call]:
        """The names ``calls`` bind to a compiled program of a function of ``traced``
        (``compiled = jax.jit(f).lower(x).compile()``, or ``lowered.compile()`` of a name bound
        to the ``lower`` call), each with the ``lower`` call that traced it."""
        found: dict[str, ast.Call] = {}
        for call, _ in calls:
            func = call.func
            if isinstance(func, ast.Call) and self._exports_traced(func, traced):
                lower = call  # `export.export(jax.jit(f))(spec)`: traced at the export
            elif not isinstance(func, ast.Attribute):
                continue
            elif func.attr == "lower" and any(
                isinstance(ref, FunctionRef) and ref.node in traced and ref.layers
                for ref in refs(self.values.get(func.value, UNKNOWN))
            ):
                lower = call
            elif func.attr == "compile" and isinstance(func.value, ast.Name) and func.value.id in found:
                lower = found[func.value.id]
            else:
                continue
            holder = self.parent_map.get(call)
            compiled = self.parent_map.get(holder) if isinstance(holder, ast.Attribute) else None
            if isinstance(holder, ast.Attribute) and holder.attr == "compile" and compiled is not None:
                holder = self.parent_map.get(compiled)  # `...lower(x).compile()`
            if (
                isinstance(holder, ast.Assign)
                and len(holder.targets) == 1
                and isinstance(holder.targets[0], ast.Name)
            ):
                found[holder.targets[0].id] = lower
        return found

    def stale_callee_rebinding(self, name: str, info: FunctionInfo) -> ast.AST | None:
        """Where code rebinds module name ``name``, which ``info`` calls (``ACTIVATION(x)``),
        between two calls of ``info`` that reuse one trace: later calls run the function traced
        first. Only there (a ``global`` write may be the lazy set-up of a function before any trace)."""
        return self._rebound_between_calls(name, info, rebinding_only=True)

    def _keys_read(self, info: FunctionInfo, name: str) -> set[object] | None:
        """:func:`_keys_read` of ``info``, walked once per function and name, on first need."""
        key = (info, name)
        if key not in self._keys_of:
            self._keys_of[key] = _keys_read(info.node, name)
        return self._keys_of[key]

    def _traced_with(self, info: FunctionInfo) -> set[ast.AST]:
        """``info`` and the jitted function that traces it (a helper or a lambda is traced when
        that function is)."""
        root = self.compiled_root(info)
        return {info.node} if root is None else {info.node, root.node}

    def _info_runners(self, info: FunctionInfo) -> set[str]:
        """Module names whose call may trace ``info`` (see :meth:`_traced_with`), once per function."""
        found = self._runners_of.get(info)
        if found is None:
            found = self._runners_of[info] = self._runner_names(self._traced_with(info))
        return found

    def _configures_before_running(self, scope: Scope, store: ast.AST, runners: Collection[str]) -> bool:
        """A write that happens before the function reading it is traced: in the entry point
        (``main``, which module code runs once) or in a configuration function (``configure()``)
        that the entry point or straight-line module code calls, each before it runs anything
        that may trace that function (``runners``: the module names whose call may; a class or
        a method may too) (``HIDDEN = args.hidden`` after parsing flags; ``set_scale(...)``
        after another jitted function ran)."""
        node = scope.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        if node in self._entry_points:
            return self._set_before_tracing(node.body, store, runners)
        if scope.parent is not self.index.module or not self._set_before_tracing(node.body, store, runners):
            return False
        sites = self._configuration_calls(node.name, runners) + self._lazy_calls(node.name, scope.globals)
        return bool(sites) and self._name_reads.get(node.name) == len(sites)

    def _lazy_calls(self, name: str, written: Collection[str]) -> list[ast.Call]:
        """Calls of ``name`` under ``if X is None:`` (or ``if not X:``) where ``X`` is a global
        that ``name`` sets: a lazy initialisation, which sets it once, before its first use."""
        found = []
        for test, body in self._unset_tests:
            unset = _unset_name(test)
            if unset in written:
                found += [c for stmt in body for c in ast.walk(stmt) if _called_name(c) == name]
        return found  # pyright: ignore[reportReturnType]

    @cached_property
    def _unset_tests(self) -> list[tuple[ast.expr, list[ast.stmt]]]:
        """Every ``if`` of the module that tests whether a name is unset, with its body."""
        return [
            (node.test, node.body)
            for node in ast.walk(self.tree)
            if isinstance(node, ast.If) and _unset_name(node.test) is not None
        ]

    def _configuration_calls(self, name: str, runners: Collection[str]) -> list[ast.Call]:
        """The calls of module function ``name`` that run before anything may trace: in the
        entry point or in straight-line module code, each before any call that may trace."""
        found = []
        for entry in self._entry_points:
            for call in own_nodes(entry.body):  # pyright: ignore[reportAttributeAccessIssue]
                if _called_name(call) == name and self._set_before_tracing(entry.body, call, runners):  # pyright: ignore[reportAttributeAccessIssue]
                    found.append(call)
        module_calls = self._module_level_code[0]
        for call, loop in module_calls:
            if _called_name(call) == name and loop is None:
                earlier = [c for c, _ in module_calls if _position(c) < _position(call)]
                if not any(self._may_trace(c, runners) for c in earlier):
                    found.append(call)
        return found

    def _set_before_tracing(self, body: list[ast.stmt], target: ast.AST, runners: Collection[str]) -> bool:
        """Whether ``target`` is in a statement of ``body`` of its own (an assignment or a call)
        that runs before any call that may trace (``runners``: see :meth:`_may_trace`)."""
        for stmt in body:
            calls = [c for c in ast.walk(stmt) if isinstance(c, ast.Call)]
            if target in ast.walk(stmt):
                return isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)) and not any(
                    self._may_trace(c, runners) for c in calls if c is not target
                )
            if any(self._may_trace(call, runners) for call in calls):
                return False
        return False

    def _may_trace(self, call: ast.Call, runners: Collection[str] | None = None) -> bool:
        """Whether ``call`` may run traced code of the module: a function named in ``runners``
        (default: any traced function or one that calls it), a class or a method of the module
        (``parser.parse_args()`` does not)."""
        name = _called_name(call)
        if name is not None and name in self.index.module.defs:
            nodes = self.index.module.defs[name]
            names = self._tracing_runners if runners is None else runners
            return name in names or any(isinstance(n, ast.ClassDef) for n in nodes)
        return self._calls_module_function(call) and not (
            isinstance(call.func, ast.Name) and call.func.id not in self.index.module.bound
        )

    @cached_property
    def _tracing_runners(self) -> set[str]:
        """Module names whose call may start a trace: transformed functions (a helper they trace
        does not trace when called eagerly) and the functions calling them."""
        traced = {info.node for info in self.infos.values() if info.transformed_by}
        return self._runner_names(traced)

    def _calls_module_function(self, call: ast.Call) -> bool:
        """Whether ``call`` may run code of this module: it names one of its functions, classes
        or methods (``train(...)``, ``trainer.fit()``; not ``parser.parse_args()``)."""
        func = call.func
        name = (
            func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        )
        return name is None or name in self.index.module.defs or bool(self._scopes_defining(name))

    @cached_property
    def _entry_points(self) -> frozenset[ast.AST]:
        """Module functions that module code runs once (``main()``, ``app.run(main)``, in the
        ``if __name__ == "__main__":`` block or not), no function calls, and that nothing of the
        module runs before."""
        calls = [c for c, loop in self._module_level_code[0] if loop is None]
        runs: dict[str, list[ast.Call]] = {}
        for call in calls:
            for name in {a.id for a in [call.func, *call.args] if isinstance(a, ast.Name)}:
                runs.setdefault(name, []).append(call)
        found = set()
        for name, sites in runs.items():
            nodes = self.index.module.defs.get(name, [])
            if len(nodes) != 1 or len(sites) != 1 or any(name in s.called for s in self.index.functions):
                continue
            earlier = [c for c in calls if _position(c) < _position(sites[0]) and self._may_trace(c)]
            if not earlier:
                found.add(nodes[0])
        return frozenset(found)

    @cached_property
    def _module_level_code(self) -> BlockCode:
        """The calls and the name stores of module-level code (see :meth:`_code_of`)."""
        return self._code_of(self.tree.body)

    def _code_of(self, body: list[ast.stmt]) -> BlockCode:
        """The calls and the name stores of ``body`` (not in a def or class in it), each with
        the outermost loop of ``body`` around it (None: straight-line code); a store into an
        item or attribute counts as a store of the name it is reached through, with the key or
        attribute it stores (None: the name itself, or a key not known)."""
        calls: list[tuple[ast.Call, ast.AST | None]] = []
        stores: list[tuple[ast.Name, ast.AST | None, object]] = []
        stack: list[tuple[ast.AST, ast.AST | None]] = [(stmt, None) for stmt in reversed(body)]
        while stack:
            node, loop = stack.pop()
            if isinstance(node, (*FUNCTION_NODES, ast.ClassDef)):
                continue
            if isinstance(node, ast.Call):
                calls.append((node, loop))
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores.append((node, loop, None))
            elif isinstance(node, (ast.Subscript, ast.Attribute)) and not isinstance(node.ctx, ast.Load):
                key, root = _accessed_key(node), node.value
                while isinstance(root, (ast.Subscript, ast.Attribute)):
                    key, root = _accessed_key(root), root.value
                if isinstance(root, ast.Name):  # `CONFIG["lr"] = 0.0` changes what `CONFIG` holds
                    stores.append((root, loop, key))
            inner = node if loop is None and isinstance(node, (ast.For, ast.AsyncFor, ast.While)) else loop
            stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))
        for call, loop in calls:  # `set_lr(0.0)`, whose body stores `CONFIG["lr"]`: at the call
            for root, key in [*self._module_items_stored(call), *self._container_mutation(call)]:
                stores.append((ast.copy_location(ast.Name(id=root, ctx=ast.Store()), call), loop, key))
        stores.sort(key=lambda entry: _position(entry[0]))
        return calls, stores

    def _container_mutation(self, call: ast.Call) -> list[tuple[str, object]]:
        """``CONFIG.update(lr=0.0)``, ``HISTORY.append(x)`` on a module dict, list or set: the
        name changed, with each key it changes (None: any)."""
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr in CONTAINER_MUTATORS
            and isinstance(func.value, ast.Name)
            and container_display(self.index.module.assigned.get(func.value.id))
        ):
            return []
        return [(func.value.id, key) for key in _mutated_keys(call)]

    def _module_items_stored(self, call: ast.Call) -> list[tuple[str, object]]:
        """The items and attributes of module names that the module function ``call`` calls
        stores into, directly in its body: ``(name, key)``."""
        found: list[tuple[str, object]] = []
        for ref in refs(self.values.get(call.func, UNKNOWN)):
            if not isinstance(ref, FunctionRef) or ref.layers:
                continue
            scope = self.index.scopes.get(ref.node)
            if scope is None or not isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue  # (a lambda stores nothing)
            for node in own_nodes(scope.node.body):
                if not isinstance(node, (ast.Subscript, ast.Attribute)) or isinstance(node.ctx, ast.Load):
                    continue
                key, root = _accessed_key(node), node.value
                while isinstance(root, (ast.Subscript, ast.Attribute)):
                    key, root = _accessed_key(root), root.value
                if isinstance(root, ast.Name) and scope.lookup(root.id) is self.index.module:
                    found.append((root.id, key))
        return found

    def bound_object_changed(self, name: str, info: FunctionInfo, param: str) -> ast.AST | None:
        """Where module code changes in place (an item, an attribute, a mutating method) the
        module object ``name`` that a jit site binds to ``info``'s parameter ``param`` through
        ``functools.partial``, between two calls that run the same compiled program (see
        :meth:`_rebound_between_calls`). Rebinding ``name`` changes nothing the partial holds."""
        return self._rebound_between_calls(name, info, read_as=param)

    def _rebound_between_calls(
        self, name: str, info: FunctionInfo, read_as: str | None = None, rebinding_only: bool = False
    ) -> ast.AST | None:
        """A store of module name ``name`` (or of the item or attribute of it that ``info``
        reads) between two calls of ``info`` that pass the same arguments to the same function
        (call, rebind, call), or in a loop that calls it with arguments the loop leaves alone:
        in module-level code, or in the body of an eager function of the module (a ``main``, a
        ``train``) where ``name`` is not a local name. Not where that code clears JAX's caches
        or disables jit, or a call may trace anew (other arguments: other shapes, other static
        values). ``rebinding_only``: stores that bind the name anew, not changes in place
        (``Cls.method = f`` leaves ``Cls`` the same object)."""
        found = self._rebound_in(
            self._module_level_code, self._caches_cleared, name, info, read_as, rebinding_only
        )
        if found is not None:
            return found
        runners = self._info_runners(info)
        for scope in self.index.functions:
            if not scope.called & runners or scope.lookup(name) is not self.index.module:
                continue
            function = self.infos.get(scope.node)
            if function is None or function.abstract or not isinstance(scope.node, ast.FunctionDef):
                continue
            code, cleared = self._function_code(scope.node)
            found = self._rebound_in(code, cleared, name, info, read_as, rebinding_only)
            if found is not None:
                return found
        return None

    def _function_code(self, node: ast.FunctionDef) -> tuple[BlockCode, set[ast.AST] | None]:
        """:meth:`_code_of` the function's body and the caches it clears, once per function."""
        found = self._code_by_function.get(node)
        if found is None:
            code = self._code_of(node.body)
            found = self._code_by_function[node] = (code, _cleared_by(self, code[0]))
        return found

    def _rebound_in(
        self,
        code: BlockCode,
        cleared: set[ast.AST] | None,
        name: str,
        info: FunctionInfo,
        read_as: str | None,
        rebinding_only: bool = False,
    ) -> ast.AST | None:
        """:meth:`_rebound_between_calls` in the calls and stores of one block of code; with
        ``read_as``, only changes in place of what ``info`` reads as that parameter."""
        calls, stores = code
        traced = self._traced_with(info)
        if cleared is None or cleared & traced:
            return None
        runners = self._info_runners(info)
        mine = [
            (c, loop)
            for c, loop in calls
            if self._calls_function(c, traced)
            or (isinstance(c.func, ast.Name) and c.func.id in runners)
            or self._hands_body(c, traced)
        ]
        ran = {c for c, _ in mine}
        changes = [
            (s, loop) for s, loop, key in stores if key is not None or self._module_results.get(s) not in ran
        ]
        for store, loop, key in stores:
            if store.id != name or (
                rebinding_only and (key is not None or not isinstance(store.ctx, ast.Store))
            ):
                continue
            if read_as is not None and isinstance(store.ctx, ast.Store) and store in self.parent_map:
                continue  # `cfg = {...}` rebinds the name: a partial keeps the object it was given
            read = None if key is None else self._keys_read(info, read_as or name)
            if key is GROWN and read is not None and all(isinstance(k, int) and k >= 0 for k in read):
                continue  # `HISTORY.append(x)` where the function reads only `HISTORY[0]`
            if read is not None and key is not GROWN and key not in read:
                continue  # `CONFIG["lr"] = ...` where the function reads only `CONFIG["wd"]`
            if loop is not None:
                changed = {s.id for s, other in changes if other is loop} - {name}
                if any(other is loop and not _reads_any(c, changed) for c, other in mine):
                    return store
            for first, _ in mine:  # a call before the store (or its loop) and one after it
                for later, _ in mine:
                    if _position(first) < _position(store) < _position(later) and self._same_call(
                        first, later, name, changes
                    ):
                        return store
        return None

    def _hands_body(self, call: ast.Call, nodes: Collection[ast.AST]) -> bool:
        """Whether ``call`` hands a ``lax`` loop or conditional a function of the module among
        ``nodes`` as a body (``lax.scan(discount_step, ...)`` in module code): it runs it."""
        module = self.index.module
        return any(
            isinstance(argument, ast.Name) and any(d in nodes for d in module.defs.get(argument.id, ()))
            for argument in self._body_arguments(call, module)
        )

    def _body_arguments(self, call: ast.Call, scope: Scope) -> list[ast.expr]:
        """The functions ``call`` hands a ``lax`` loop or conditional as its bodies (none where it
        is another call)."""
        qualname = self.resolver.qualname(call.func, scope) if call.args else None
        transform = None if qualname is None else self.transforms.get(qualname)
        if transform is None or transform.kind != "body":
            return []
        return function_arguments(call, transform)

    def _runner_names(self, nodes: Collection[ast.AST]) -> set[str]:
        """Module names whose call runs one of ``nodes``: a module name bound to it, or a module
        function whose body calls one such name (``train_epoch()``, which calls the jitted
        ``step``), found again through the functions that call those."""
        module = self.index.module
        names = {
            name
            for name, value in self.module_summary.items()
            if any(isinstance(ref, FunctionRef) and ref.node in nodes for ref in refs(value))
        }
        names |= {  # `update = jax.jit(tx.update)`
            name
            for name, value in module.assigned.items()
            if isinstance(value, ast.Call) and self._transformed_updates.get(value) in nodes
        }
        functions = [
            (scope.node.name, scope)
            for scope in self.index.functions
            if scope.parent is module
            and isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and len(module.defs.get(scope.node.name, [])) == 1
        ]
        grown = True
        while grown:
            grown = False
            for function, scope in functions:
                if function in names:
                    continue
                if (scope.called & names and self._calls_by_name(scope, names)) or self._passes_body(
                    scope, names, nodes
                ):
                    names.add(function)
                    grown = True
        return names

    def _passes_body(self, scope: Scope, names: set[str], nodes: Collection[ast.AST]) -> bool:
        """Whether the function of ``scope`` hands a ``lax`` loop or conditional one of the module
        ``names``, or a def of its own among ``nodes``, as a body: its call runs that body."""
        for passed in self._bodies_passed(scope):
            if passed not in scope.bound:
                if passed in names:
                    return True
            elif any(node in nodes for node in scope.defs.get(passed, ())):
                return True
        return False

    def _bodies_passed(self, scope: Scope) -> set[str]:
        """The names the function of ``scope`` hands to a ``lax`` loop or conditional as a body
        (``lax.scan(discount_step, ...)``): its call runs them. Once per function."""
        found = self._bodies_passed_by.get(scope)
        if found is None:
            found = self._bodies_passed_by[scope] = set()
            for node in own_nodes(scope.node.body):  # pyright: ignore[reportAttributeAccessIssue]
                if isinstance(node, ast.Call):
                    found |= {a.id for a in self._body_arguments(node, scope) if isinstance(a, ast.Name)}
        return found

    @staticmethod
    def _calls_by_name(scope: Scope, names: set[str]) -> bool:
        """Whether the function of ``scope`` calls one of the module ``names`` (not a local)."""
        return any(
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in names
            and node.func.id not in scope.bound
            for node in own_nodes(scope.node.body)  # pyright: ignore[reportAttributeAccessIssue]
        )

    @cached_property
    def _module_results(self) -> dict[ast.Name, ast.expr]:
        """Each name a module-level assignment stores, with the value assigned to it. A name
        assigned what a call of the jitted function returned (``w = step(w)``, ``params, loss =
        update(params, batch)``) is no change for it: fed back, it keeps the shapes the function
        returns, so passing it again does not trace it anew."""
        found: dict[ast.Name, ast.expr] = {}
        stack: list[ast.AST] = list(self.tree.body)
        while stack:  # module-level code only: not into a def or class
            stmt = stack.pop()
            if isinstance(stmt, (*FUNCTION_NODES, ast.ClassDef)):
                continue
            if isinstance(stmt, ast.Assign):
                found |= {n: stmt.value for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            stack.extend(ast.iter_child_nodes(stmt))
        return found

    @cached_property
    def _caches_cleared(self) -> set[ast.AST] | None:
        """The functions whose cache module code clears (see :func:`_cleared_by`)."""
        return _cleared_by(self, self._module_level_code[0])

    def _same_call(self, first: ast.Call, later: ast.Call, name: str, changes: list) -> bool:
        """Whether two calls pass the same arguments to the same function: written alike, or
        arrays written out with the same shape and kind of numbers (``jnp.array([0, 1])`` and
        ``jnp.array([0, 2])``: one compiled program serves both), and no name they read (but
        ``name``) changed between them."""
        if ast.dump(first) != ast.dump(later) and not self._same_signature(first, later):
            return False
        between = {s.id for s, _ in changes if _position(first) < _position(s) < _position(later)} - {name}
        return not _reads_any(first, between)

    def _same_signature(self, first: ast.Call, later: ast.Call) -> bool:
        """Calls alike but for arrays written out with the same shape and kind of numbers."""
        if ast.dump(first.func) != ast.dump(later.func) or len(first.args) != len(later.args):
            return False
        if [k.arg for k in first.keywords] != [k.arg for k in later.keywords]:
            return False
        pairs = [
            *zip(first.args, later.args),
            *((a.value, b.value) for a, b in zip(first.keywords, later.keywords)),
        ]
        return all(
            ast.dump(a) == ast.dump(b) or self._same_literal_array(a, b) or self._sibling_keys(a, b)
            for a, b in pairs
        )

    def _sibling_keys(self, a: ast.expr, b: ast.expr) -> bool:
        """``k_train`` and ``k_eval`` of ``k_train, k_eval = jax.random.split(key)`` at module
        level, or ``jax.random.key(0)`` and ``jax.random.key(1)``: keys of the same shape and
        type, so the same trace."""
        if isinstance(a, ast.Call) and isinstance(b, ast.Call):
            return (
                ast.dump(a.func) == ast.dump(b.func)
                and not a.keywords
                and not b.keywords
                and all(_int_literal(x) for x in (*a.args, *b.args))
                and len(a.args) == len(b.args) == 1
                and self.resolver.qualname(a.func, self.index.module) in api.SEEDED_KEY_MAKERS
            )
        if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)):
            return False
        module = self.index.module
        made = self._unpacked_at_module_level.get(a.id)
        if made is None or made is not self._unpacked_at_module_level.get(b.id):
            return False
        once = module.bound.get(a.id) == module.bound.get(b.id) == 1
        return once and self.resolver.qualname(made.func, module) == "jax.random.split"

    @cached_property
    def _unpacked_at_module_level(self) -> dict[str, ast.Call]:
        """The call each module-level name is unpacked from (``a, b = f(x)``)."""
        found: dict[str, ast.Call] = {}
        for node in own_nodes(self.tree.body):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                for target in node.targets:
                    if isinstance(target, ast.Tuple):
                        found.update((e.id, node.value) for e in target.elts if isinstance(e, ast.Name))
        return found

    def _same_literal_array(self, a: ast.expr, b: ast.expr) -> bool:
        """``jnp.array([0, 1])`` and ``jnp.array([0, 2])``: an array (never a static argument)
        of the same shape and dtype, so the same trace."""
        if not (isinstance(a, ast.Call) and isinstance(b, ast.Call) and len(a.args) == len(b.args) == 1):
            return False
        qualname = self.resolver.qualname(a.func, self.index.module)
        if qualname not in LITERAL_ARRAYS or ast.dump(a.func) != ast.dump(b.func):
            return False
        if [ast.dump(k) for k in a.keywords] != [ast.dump(k) for k in b.keywords]:
            return False
        return _literal_layout(a.args[0]) == _literal_layout(b.args[0]) is not None

    def _calls_function(self, call: ast.Call, nodes: Collection[ast.AST]) -> bool:
        return any(
            isinstance(ref, FunctionRef) and ref.node in nodes
            for ref in refs(self.values.get(call.func, UNKNOWN))
        )

    @cached_property
    def rewrapped_at_run_time(self) -> frozenset[str]:
        """Module names that functions only ever rebind to a transformation of themselves
        (``global init; init = jax.jit(init)``): whatever the name holds, it runs the function
        the module bound to it (so a read of it sees that function, not an unknown value)."""
        wrapped: set[str] = set()
        rebound = self.runtime_rebound
        for scope in self.index.functions:
            for name in scope.globals & rebound.keys():
                stores = _stores_of(scope, name)
                wraps = [s for s in own_nodes(getattr(scope.node, "body", [])) if self._wraps(s, name, scope)]
                if stores and len(wraps) == len(stores):
                    wrapped.add(name)
        return frozenset(n for n in wrapped if all(not isinstance(s, ast.For) for s in rebound[n]))

    def _wraps(self, statement: ast.AST, name: str, scope: Scope) -> bool:
        """``name = <transformation>(name, ...)``."""
        if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
            return False
        target, value = statement.targets[0], statement.value
        return (
            isinstance(target, ast.Name)
            and target.id == name
            and isinstance(value, ast.Call)
            and bool(value.args)
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id == name
            and self.transform_of(value.func, scope) is not None
        )

    def closure_rebinding(self, owner: Scope, name: str, function: ast.AST) -> int | None:
        """The line where closure variable ``name`` of ``owner`` is rebound after ``function``
        (defined inside ``owner``) captured it, or by a ``nonlocal`` elsewhere; else None."""
        start, end = function.lineno, function.end_lineno or function.lineno  # pyright: ignore[reportAttributeAccessIssue]
        stores = _stores_of(owner, name)
        before = name in owner.params or any(s.lineno < start for s in stores)  # pyright: ignore[reportAttributeAccessIssue]
        after = [s for s in stores if s.lineno > end]  # pyright: ignore[reportAttributeAccessIssue]
        ran = [s.lineno for s in after if self._may_run_before(owner, function, s)]  # pyright: ignore[reportAttributeAccessIssue]
        if before and ran:
            return ran[0]
        for scope in self.index.functions:
            if name in scope.nonlocals and scope.node is not function:
                rebinds = _stores_of(scope, name)
                if rebinds and scope.parent is not None and scope.parent.lookup(name) is owner:
                    return rebinds[0].lineno  # pyright: ignore[reportAttributeAccessIssue]
        return None

    def _may_run_before(self, owner: Scope, function: ast.AST, store: ast.AST) -> bool:
        """Whether ``owner`` may trace ``function`` before ``store`` rebinds what it closes over:
        it names the function earlier (a call, or handing it on), or in a loop around the store.
        A factory that rebinds and then returns the function has every trace see the last value."""
        name = getattr(function, "name", None)
        body = getattr(owner.node, "body", None)
        if name is None or not isinstance(body, list):
            return True  # a lambda: not followed
        uses = [
            n
            for n in own_nodes(body)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        ]
        if any(use.lineno < store.lineno for use in uses):  # pyright: ignore[reportAttributeAccessIssue]
            return True
        loops = [n for n in own_nodes(body) if isinstance(n, LOOP_NODES) and encloses(n, store)]
        return any(encloses(loop, use) for loop in loops for use in uses)

    # ----------------------------------------------------------------- discovery

    def _names_jax(self, traced_decorators: frozenset[str]) -> bool:
        roots = {name.split(".")[0] for name in traced_decorators} | set(JAX_ROOTS)
        for scope in [self.index.module, *self.index.functions]:
            for qualname in scope.imports.values():
                if qualname.split(".")[0] in roots:
                    return True
        return False

    def _discover(self) -> None:
        schedules: list[tuple[ast.Call, Scope]] = []
        transformations: list[tuple[ast.Call, Scope]] = []
        transformed_updates: list[tuple[ast.Call, Transform]] = []
        for node, scope in self.index.decorated:
            self._discover_decorators(node, scope)  # pyright: ignore[reportArgumentType]
        for call, scope in self.index.calls:
            qualname = self.resolver.qualname(call.func, scope)
            transform = None if qualname is None else self.transforms.get(qualname)
            if transform is not None and transform.kind != "wrapper":
                self.apply_call(call, scope, transform, NONE)
                if _transforms_an_update(call, transform):  # `jax.jit(tx.update)`
                    transformed_updates.append((call, transform))
            elif qualname in CUSTOM_DERIVATIVES and call.args:  # `f = jax.custom_jvp(g, ...)`
                self._note_custom_derivative(call.args[0], scope, call, qualname)
            elif qualname in FLAX_LIFTED:
                self._discover_lifted_module(call, scope, FLAX_LIFTED[qualname])
            elif qualname in schedule_functions() or self._injected_optimizer(call.func, scope):
                schedules.append((call, scope))
            elif qualname in CUSTOM_TRANSFORMATIONS:
                transformations.append((call, scope))
            elif isinstance(call.func, ast.Attribute) and call.func.attr in DERIVATIVE_RULE_SETTERS:
                self._note_derivative_rules(call.func.value, call.args, call.func.attr, scope, call)
        self._discover_schedules(schedules, transformed_updates)
        self._discover_custom_transformations(transformations, transformed_updates)
        for cls, scope in self.index.classes:
            if self._is_flax_module(cls, scope):
                self._discover_flax_methods(cls)

    def _note_derivative_rules(
        self, owner: ast.expr, rules: list[ast.expr], setter: str, scope: Scope, site: ast.AST
    ) -> None:
        """``f.defvjp(fwd, bwd)``, ``f.defjvp(jvp)`` (or ``@f.defjvp``): remembered until the
        model knows how ``f`` is traced (see :meth:`_trace_derivative_rules`)."""
        if len(rules) == (2 if setter == "defvjp" else 1):
            self._derivative_rules.append((owner, tuple(rules), scope, site))

    def _trace_derivative_rules(self) -> bool:
        """JAX runs the rules of a custom derivative with the tracers of the transformation that
        differentiates the function: abstract under ``jit(grad(f))`` or ``vmap(grad(f))``
        (measured with JAX 0.10.2: an ``if`` in the rule raises), concrete under a bare ``grad``.
        A rule is traced where its function is both traced abstractly and differentiated. The
        ``nondiff_argnums`` stay Python values, and so do the residuals ``fwd`` hands ``bwd``
        that are (``x.shape``: measured)."""
        changed = False
        for owner, rules, scope, site in self._derivative_rules:
            primal = self.resolve_function(owner, scope)
            found = [self.resolve_function(rule, scope) for rule in rules]
            if primal is None or primal[0] not in self.custom_derivatives:
                continue
            function = primal[0]
            if function.effective_level < ABSTRACT or not _differentiated(function):
                continue
            nondiff = len(self.custom_derivatives[function])
            level = function.effective_level
            first = found[0]
            if first is not None and not first[1]:  # fwd takes the function's arguments, jvp the
                names = first[0].positional_names()  # nondiff ones first, then primals, tangents
                static = set(self.custom_derivatives[function]) if len(rules) == 2 else set(names[:nondiff])
                changed |= self._trace_rule(
                    first[0], level, {n: TRACED for n in names if n not in static}, function, site
                )
            second = found[1] if len(found) == 2 else None
            if second is None or second[1] or first is None:
                continue
            self._drain()
            names = second[0].positional_names()[nondiff:]  # bwd(nondiff..., residuals, cotangent)
            returned = known_elements(first[0].returns) if first[0].analyzed else None
            residual = returned[1] if returned is not None and len(returned) == 2 else UNKNOWN
            params = dict(zip(names, [residual, TRACED])) if len(names) == 2 else {}
            params = {name: value for name, value in params.items() if is_traced(value)}
            changed |= self._trace_rule(second[0], level, params, function, site)
        return changed

    def _trace_rule(
        self, rule: FunctionInfo, level: int, params: dict[str, Value], function: FunctionInfo, site: ast.AST
    ) -> bool:
        reason = (
            f"`{rule.name}` is a derivative rule of `{function.name}` (line {site.lineno}), which JAX "  # pyright: ignore[reportAttributeAccessIssue]
            f"runs with the tracers of the transformation differentiating `{function.name}`"
        )
        self._rule_primals[rule] = function
        if params and rule.apply(level, params, reason):
            self.enqueue(rule)
            return True
        return False

    def _note_custom_derivative(self, expr: ast.expr, scope: Scope, call: ast.Call, qualname: str) -> None:
        info = self.wrapped_in_place(expr, scope)
        found = self.resolve_function(expr, scope) if isinstance(expr, ast.Name) else None
        if info is not None or found is not None:
            self._note_custom(info or found[0], call, qualname)  # pyright: ignore[reportOptionalSubscript]

    def wrapped_in_place(self, expr: ast.expr, scope: Scope) -> FunctionInfo | None:
        """The def that the name ``expr`` reads, where the name is bound to it and then to a
        wrapper of it (``f = jax.custom_vjp(f)``)."""
        owner = scope.lookup(expr.id) if isinstance(expr, ast.Name) else None
        node = None if owner is None else owner.rewrapped_def(expr.id)  # pyright: ignore[reportAttributeAccessIssue]
        return None if node is None else self.infos.get(node)

    def _note_custom(self, info: FunctionInfo, call: ast.Call | None, qualname: str) -> None:
        self.custom_derivatives[info] = _nondiff_params(info, call)
        if qualname == "jax.custom_vjp":
            self.custom_vjps.add(info)

    def transform_of(self, expr: ast.AST, scope: Scope) -> Transform | None:
        qualname = self.resolver.qualname(expr, scope)
        return None if qualname is None else self.transforms.get(qualname)

    def _discover_decorators(self, node: ast.FunctionDef, scope: Scope) -> None:
        info = self.infos[node]
        for decorator in node.decorator_list:  # `@soft_abs.defjvp`
            if isinstance(decorator, ast.Attribute) and decorator.attr == "defjvp":
                self._note_derivative_rules(
                    decorator.value, [ast.Name(node.name)], "defjvp", scope, decorator
                )
        layers: list[Layer] = []
        for decorator in reversed(node.decorator_list):
            layer = self._decorator_layer(decorator, scope)
            if layer is None:
                break
            if layer.transform.name in CUSTOM_DERIVATIVES:
                self._note_custom(info, layer.call, layer.transform.name)
            if layer.transform.kind != "wrapper":
                layers.append(layer)
        if layers:
            if layers[-1].transform.kind in CALL_STAGING and parameter_defaults(info.node.args):
                # `@jax.jit def f(x, n=15)` called `f(x, n=30)` here: what these calls pass
                # (calls from other modules stay out of sight: a parameter they alone pass is
                # missed, never claimed)
                layers[-1].passed = self._passed_by_calls_of(node.name, scope)
            self.apply_chain(Chain(info, layers), NONE)

    def _decorator_layer(self, decorator: ast.expr, scope: Scope) -> Layer | None:
        transform = self.transform_of(decorator, scope)
        if transform is not None:
            return Layer(transform, None, decorator)
        if self._forwarding(decorator, scope):  # `def logged(fn): ... return wrapper`
            return Layer(FORWARDING, None, decorator)
        if isinstance(decorator, ast.Name):  # `my_jit = partial(jax.jit, static_argnames=...)`
            owner = scope.lookup(decorator.id)
            bound_once = owner is not None and owner.bound.get(decorator.id) == 1
            value = owner.assigned.get(decorator.id) if owner is not None and bound_once else None
            layer = self._decorator_layer(value, owner) if isinstance(value, ast.Call) and owner else None
            # the site is the decorator: a fix must not edit the alias, which others share
            if layer is not None:
                layer.site = decorator
            return layer
        if not isinstance(decorator, ast.Call):
            return None
        qualname = self.resolver.qualname(decorator.func, scope)
        if qualname in PARTIALS and decorator.args:
            transform = self.transform_of(decorator.args[0], scope)
            return None if transform is None else Layer(transform, decorator, decorator)
        transform = None if qualname is None else self.transforms.get(qualname)
        if transform is not None and (not decorator.args or transform.kind == "wrapper"):
            return Layer(transform, decorator, decorator)
        return None

    def _forwarding(self, expr: ast.AST, scope: Scope) -> bool:
        """Whether ``expr`` names a decorator of this module that forwards every call to the
        function it decorates."""
        if not isinstance(expr, ast.Name):
            return False
        found = self.resolve_function(expr, scope)
        return found is not None and found[1] == 0 and forwards_calls(found[0].node)

    def apply_call(self, call: ast.Call, scope: Scope, transform: Transform, context: int) -> None:
        """Apply ``transform`` called as ``call`` to each function it receives. A function the
        syntax does not name (a lambda bound to a name, a rebound name, a factory's result) is
        found by the interpreter, which runs on the function holding the call before any rule."""
        if transform.kind == "body" and context == NONE and self._feeds_names(call, transform):
            self._unresolved.add(scope.function.node)  # the interpreter says what the carry holds
        for target in self.branch_tables(function_arguments(call, transform), scope, transform):
            chain = self.resolve_chain(target, scope) or self._rejitted_def(target, scope, call)
            if chain is None:
                if not isinstance(target, (ast.Constant, ast.Lambda)):
                    self._unresolved.add(scope.function.node)
                continue
            layer = Layer(transform, call, call, chain.offset, chain.bound)
            if transform.kind in CALL_STAGING and not chain.layers and _may_take_defaults(chain.target):
                layer.passed = self.passed_by_calls(call, scope)
            chain.layers.append(layer)
            self.apply_chain(chain, context)
            if chain.target is not None and transform.name == WHILE_LOOP and target is _loop_condition(call):
                chain.target.loop_condition = True
            caller = self.infos.get(scope.function.node)
            if (
                chain.target is not None
                and caller is not None
                and (transform.name in RETRACED_WHEN_EAGER or (transform.kind == "body" and context > NONE))
            ):
                # runs the body: its trace is cached if the caller's is, and under a trace of the
                # caller it is part of the caller's program (a module-level branch of a `switch`)
                chain.target.callers.add(caller)

    def _passed_by_calls_of(self, name: str, scope: Scope) -> tuple[int, frozenset[str]] | None:
        """What the calls of ``name`` (bound in ``scope``) made in this module pass: at most how
        many positional arguments, and which keywords."""
        calls: list[ast.Call] = []
        for caller in [self.index.module, *self.index.functions]:
            body = getattr(caller.node, "body", None)
            if name not in caller.called or not isinstance(body, list) or caller.lookup(name) is not scope:
                continue
            for node in own_nodes(body):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == name
                    and not any(isinstance(a, ast.Starred) for a in node.args)
                ):
                    expanded = _unpacked_keywords(node, caller)
                    if expanded is not None:
                        calls.append(expanded)
        return _passing(calls) if calls else None

    def branch_tables(self, targets: list[ast.expr], scope: Scope, transform: Transform) -> list[ast.expr]:
        """``lax.switch(i, branches)`` with ``branches = [f, g]`` bound once and never changed in
        place (no item stored, no ``append``): its functions."""
        if transform.kind != "body":
            return targets
        found: list[ast.expr] = []
        for target in targets:
            name = target.id if isinstance(target, ast.Name) else None
            owner = None if name is None else scope.lookup(name)
            table = None
            if name is not None and owner is not None and not self._changed_in_place(name):
                table = owner.single_value(name)
            found.extend(table.elts if isinstance(table, (ast.List, ast.Tuple)) else [target])
        return found

    def _changed_in_place(self, name: str) -> bool:
        """Whether the module changes ``name`` in place: an item stored, ``append``, ``+=`` (the
        mutations the scope walk collected)."""
        return any(base == name for _, _, base in self.index.mutations)

    def _rejitted_def(self, target: ast.expr, scope: Scope, call: ast.Call) -> Chain | None:
        """``f = jax.jit(f)``: the ``def`` that the name held before the call rebinds it."""
        if not isinstance(target, ast.Name) or scope.assigned.get(target.id) is not call:
            return None
        nodes = scope.defs.get(target.id)
        if not nodes or len(nodes) != 1 or scope.bound.get(target.id) != 2:
            return None
        node = nodes[0]
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.lineno > call.lineno:
            return None
        return Chain(self.infos[node], [])

    def passed_by_calls(self, site: ast.Call, scope: Scope) -> tuple[int, frozenset[str]] | None:
        """What the calls of ``jax.jit(f)`` made at ``site`` pass (at most how many positional
        arguments, and which keywords): called on the spot, or bound once to a name whose every
        use is a call. None when some use is not a call in sight (it is handed on, returned)."""
        calls = self._calls_of_site(site, scope)
        if calls is None:
            return None
        if any(
            any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)
            for call in calls
        ):
            return None
        return _passing(calls)

    def _calls_of_site(self, site: ast.Call, scope: Scope) -> list[ast.Call] | None:
        parents = self.parent_map
        parent = parents.get(site)
        if isinstance(parent, ast.Call) and parent.func is site:
            return [parent]
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                return self._calls_of_self_attribute(target, scope)
        name = next((n for n, v in scope.assigned.items() if v is site), None)
        # `f = jax.jit(f)`: the name is bound by its `def` and again by the jitted function
        rebound = any(isinstance(a, ast.Name) and a.id == name for a in site.args)
        if name is None or scope.bound.get(name) != (2 if rebound else 1):
            return None
        calls: list[ast.Call] = []
        for use in self._loads.get(name, []):
            if not self._resolves_to(use, scope) or (rebound and parents.get(use) is site):
                continue  # another variable of that name, or the function jitted
            holder = parents.get(use)
            if not isinstance(holder, ast.Call) or holder.func is not use:
                return None  # handed on, returned, stored: its calls are out of sight
            calls.append(holder)
        if scope is self.index.module and not calls:
            return None  # other modules may import the jitted function and call it
        return calls

    def calls_in_sight(self, info: FunctionInfo) -> list[tuple[ast.Call, Scope]] | None:
        """Every call of the plain function ``info`` (no decorator, not a method), each passing
        its arguments in their places: called by name, or through transformations that keep
        them (``jax.grad(loss)(params, x)``, ``step = jax.jit(step)``, ``g = jax.grad(f)``
        then ``g(...)``), each with the scope it is made in. None when some use is not such a
        call in sight (handed on, stored, returned, or in a module others may import it from
        and call)."""
        if info not in self._sighted_calls:
            self._sighted_calls[info] = self._find_calls_in_sight(info)
        return self._sighted_calls[info]

    def _find_calls_in_sight(self, info: FunctionInfo) -> list[tuple[ast.Call, Scope]] | None:
        """Search for :meth:`calls_in_sight`."""
        node = info.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or info.is_method:
            return None
        scope = self.index.parents.get(node)
        if scope is None or scope.bound.get(node.name) != (2 if _rewrapped(scope, node.name) else 1):
            return None
        if not all(self._keeps_places(decorator, scope) for decorator in node.decorator_list):
            return None
        calls: list[tuple[ast.Call, Scope]] = []
        for use in self._loads.get(node.name, []):
            if not self._resolves_to(use, scope):
                continue
            found = self._calls_through(use)
            if found is None:
                return None
            calls.extend((call, self._call_scope(call, use)) for call in found)
        return calls or None

    def runs_only_traced(self, info: FunctionInfo, level: int = ABSTRACT) -> bool:
        """Whether every run of ``info`` this module shows is traced, not merely differentiated:
        a transformation that traces it decorates it, or the function it is nested in runs only
        traced, or its name is read only where a transformation or ``lax`` primitive is given it
        (``jax.jit(f)``, ``step = jax.jit(step)``, ``lax.scan(body, ...)``, ``jax.jit(model.apply)``,
        ``jax.tree.map(f, ...)`` in traced code) or called by functions that run only traced. Code
        of it that fails on a tracer then failed on every run in sight: a fix making it compute
        what eager Python would breaks nothing that worked. Other modules' calls are out of sight,
        as everywhere in this model. ``level``: how abstract every run must be (``CONCRETE``
        counts ``grad`` too, under which NumPy conversion and item assignment fail)."""
        return self._only_traced_memo(info, False, level)

    def entered_only_by_transforms(self, info: FunctionInfo, level: int = ABSTRACT) -> bool:
        """Whether every run of ``info`` this module shows is entered through a transformation
        that traces it (as :meth:`runs_only_traced`, without direct calls from traced code): its
        arguments are then pytrees the transformation rebuilt, which no caller holds."""
        return self._only_traced_memo(info, True, level)

    def _only_traced_memo(self, info: FunctionInfo, fresh: bool, level: int) -> bool:
        key = (info, fresh, level)
        if key not in self._only_traced:
            self._only_traced[key] = False  # a recursion through itself proves nothing
            self._only_traced[key] = self._find_only_traced(info, fresh, level)
        return self._only_traced[key]

    def _find_only_traced(self, info: FunctionInfo, fresh: bool, level: int) -> bool:
        """Search for :meth:`runs_only_traced` (``fresh``: :meth:`entered_only_by_transforms`)."""
        if info.effective_level < level or info.host:
            return False
        if level < ABSTRACT and info in self.custom_derivatives:
            return self.runs_only_traced(info, ABSTRACT)  # a bare `grad` runs its rules, on concrete values
        node = info.node
        owner = self.index.parents.get(node)
        if owner is None:
            return False
        if isinstance(node, ast.Lambda):
            holder = self.parent_map.get(node)
            if isinstance(holder, ast.Call) and self._traces_argument(holder, node, owner, level):
                return True
            name = next((n for n, v in owner.assigned.items() if v is node), None)
            return (
                name is not None
                and owner.bound.get(name) == 1
                and self._names_only_traced(name, owner, fresh, level)
            )
        if any(self._decorator_traces(decorator, owner, level) for decorator in node.decorator_list):
            return True
        if not all(self._transparent(decorator, owner) for decorator in node.decorator_list):
            return False  # (`@nn.compact`, `@functools.wraps(f)` change nothing: its reads decide)
        parent = info.parent
        if (
            not fresh
            and parent is not None
            and info.inherited >= level
            and self.runs_only_traced(parent, level)
        ):
            return True
        if info.is_method and node.name == "__call__" and isinstance(owner.node, ast.ClassDef):
            return not fresh and self._instances_called_traced(owner.node, level)
        if info.is_method and node.name == "__init__" and isinstance(owner.node, ast.ClassDef):
            return not fresh and self._constructed_only_traced(owner, level)
        if info.is_method:  # read as `obj.method` or `self.method`: not other dunders, their calls unseen
            uses = self._site_index[3].get(node.name, [])
            return (
                not node.name.startswith("__")
                and bool(uses)
                and all(
                    isinstance(use.value, ast.Name)
                    and self._use_only_traced(use, self.scope_of_load(use.value), fresh, level)
                    for use in uses
                )
            )
        if _rewrapped(owner, node.name):
            wrapper = owner.assigned[node.name]
            transform = self.transform_of(wrapper.func, owner)  # pyright: ignore[reportAttributeAccessIssue]
            return (
                owner.rewrapped_def(node.name) is node and transform is not None and transform.level >= level
            )
        return owner.bound.get(node.name) == 1 and self._names_only_traced(node.name, owner, fresh, level)

    def _transparent(self, decorator: ast.expr, scope: Scope) -> bool:
        layer = self._decorator_layer(decorator, scope)
        return layer is not None and layer.transform.kind == "wrapper"

    def _constructed_only_traced(self, class_scope: Scope, level: int) -> bool:
        """Whether every read of a class's name constructs it (``Normalizer(x)``) in code that
        runs only traced, so its ``__init__`` does too (a subclass, an ``isinstance`` test or a
        classmethod call read it otherwise, and run ``__init__`` out of sight: not so). A plain
        class only: a decorated one may be a pytree, whose unflattening calls ``__init__`` on the
        concrete outputs of a jitted call, and a base's ``__init__`` is also a subclass's."""
        owner = class_scope.parent
        cls = class_scope.node
        if owner is None or not isinstance(cls, ast.ClassDef) or owner.bound.get(cls.name) != 1:
            return False
        if cls.decorator_list or cls.keywords or not all(_is_object(base) for base in cls.bases):
            return False
        uses = [use for use in self._loads.get(cls.name, []) if self._resolves_to(use, owner)]
        return bool(uses) and all(
            self._is_callee(use) and self._use_only_traced(use, self.scope_of_load(use), False, level)
            for use in uses
        )

    def _is_callee(self, use: ast.expr) -> bool:
        holder = self.parent_map.get(use)
        return isinstance(holder, ast.Call) and holder.func is use

    def _instances_called_traced(self, cls: ast.ClassDef, level: int) -> bool:
        """Whether every read of the name of ``cls`` constructs an instance bound once to a name
        that is only called (``layer(x)``) or given to a tracing transformation, from code that
        runs only traced (a subclass names it as a base, not a construction: not so)."""
        inner = self.index.scopes.get(cls)
        owner = inner.parent if inner is not None else None
        if owner is None or owner.bound.get(cls.name) != 1:
            return False
        constructions = [use for use in self._loads.get(cls.name, []) if self._resolves_to(use, owner)]
        if not constructions:
            return False
        for use in constructions:
            call = self.parent_map.get(use)
            bound = self.parent_map.get(call) if isinstance(call, ast.Call) and call.func is use else None
            if not (isinstance(bound, ast.Assign) and len(bound.targets) == 1):
                return False
            target = bound.targets[0]
            where = self.scope_of_load(use)
            if not isinstance(target, ast.Name) or where.bound.get(target.id) != 1:
                return False
            if self.is_flax_module(cls):
                if not self._applied_only_traced(target.id, where, level):
                    return False
            elif not self._names_only_traced(target.id, where, False, level):
                return False
        return True

    def _applied_only_traced(self, name: str, owner: Scope, level: int) -> bool:
        """Whether every read of ``name``, a flax linen module bound once in ``owner``, runs its
        methods traced: ``name.apply(...)``/``name.init(...)`` called in code that runs only
        traced, or given to a tracing transformation (``jax.jit(name.apply)``)."""
        uses = [use for use in self._loads.get(name, []) if self._resolves_to(use, owner)]
        for use in uses:
            where = self.scope_of_load(use)
            holder = self.parent_map.get(use)
            if not (isinstance(holder, ast.Attribute) and holder.attr in LINEN_ENTRIES):
                return False
            call = self.parent_map.get(holder)
            if not isinstance(call, ast.Call):
                return False
            if call.func is holder:
                caller = self.function_of(where)
                if caller is None or not self.runs_only_traced(caller, level):
                    return False
            elif not self._traces_argument(call, holder, where, level):
                return False
        return bool(uses)

    def _decorator_traces(self, decorator: ast.expr, scope: Scope, level: int) -> bool:
        """Whether a decorator makes the function traced on every call: a tracing transformation
        (``@jax.jit``, ``@partial(jax.jit, ...)``, an alias of one), or a decorator of this module
        that returns one of its argument (``def compiled(fn): return jax.jit(fn)``)."""
        layer = self._decorator_layer(decorator, scope)
        if layer is not None:
            return layer.transform.level >= level
        found = self.resolve_function(decorator, scope) if isinstance(decorator, ast.Name) else None
        node = None if found is None or found[1] != 0 else found[0].node
        if not isinstance(node, ast.FunctionDef) or len(node.body) != 1 or not node.args.args:
            return False
        result = getattr(node.body[0], "value", None)
        if not isinstance(node.body[0], ast.Return) or not isinstance(result, ast.Call) or not result.args:
            return False
        transform = self.transform_of(result.func, self.index.scopes.get(node, scope))
        first = result.args[0]
        return (
            transform is not None
            and transform.level >= level
            and isinstance(first, ast.Name)
            and first.id == node.args.args[0].arg
        )

    def _names_only_traced(self, name: str, owner: Scope, fresh: bool, level: int) -> bool:
        """Whether every read of the function ``owner`` binds to ``name`` hands it to a tracing
        transformation or (not ``fresh``) calls it from a function that runs only traced (and
        there is one)."""
        uses = [use for use in self._loads.get(name, []) if self._resolves_to(use, owner)]
        return bool(uses) and all(
            self._use_only_traced(use, self.scope_of_load(use), fresh, level) for use in uses
        )

    def _use_only_traced(self, use: ast.expr, where: Scope, fresh: bool, level: int) -> bool:
        """Whether one read of a function runs it traced: it is the function a tracing
        transformation is given, or (not ``fresh``) the callee of a call in code that runs only
        traced."""
        holder = self.parent_map.get(use)
        if isinstance(holder, (ast.List, ast.Tuple)):  # `lax.switch(i, [f, g], x)`
            branches = self.parent_map.get(holder)
            return isinstance(branches, ast.Call) and self._traces_argument(branches, holder, where, level)
        if isinstance(holder, ast.Return):  # `return step` from a factory
            factory = self.function_of(where)
            return factory is not None and self._results_run_traced(factory, level)
        if isinstance(holder, ast.Attribute) and holder.attr in DERIVATIVE_RULE_SETTERS:
            return True  # `f.defvjp(fwd, bwd)` gives `f` its rules and runs nothing
        if isinstance(holder, ast.Attribute) and not self._called_attribute(holder):
            return True  # `f.calls = 0`, `f.calls`: an attribute of the function, which runs nothing
        if not isinstance(holder, ast.Call):
            return False
        if holder.func is not use:
            return self._traces_argument(holder, use, where, level)
        caller = self.function_of(where)
        if caller is None or fresh:
            return False
        return self.runs_only_traced(caller, level) or self._rule_calling_its_function(caller, use, where)

    def _called_attribute(self, attribute: ast.Attribute) -> bool:
        """Whether ``attribute`` of a function may run it: a method called on it (``f.lower(x)``)
        or a dunder (``f.__call__``, ``f.__wrapped__``), not a data attribute (``f.calls``)."""
        holder = self.parent_map.get(attribute)
        called = isinstance(holder, ast.Call) and holder.func is attribute
        return called or attribute.attr.startswith("__")

    def _rule_calling_its_function(self, rule: FunctionInfo, use: ast.expr, where: Scope) -> bool:
        """Whether ``rule`` is a derivative rule of the function ``use`` names (``fwd`` calling
        ``f`` in ``f.defvjp(fwd, bwd)``): JAX runs it where ``f`` is differentiated, inside the
        transformations that trace ``f``, so the call runs traced wherever ``f``'s other reads do
        (asked abstractly: see :meth:`_find_only_traced`)."""
        called = self.resolve_function(use, where)
        if called is None:
            return False
        for owner, rules, scope, _ in self._derivative_rules:
            primal = self.resolve_function(owner, scope)
            if primal is None or primal[0] is not called[0]:
                continue
            for rule_expr in rules:
                found = self.resolve_function(rule_expr, scope)
                if found is not None and found[0] is rule:
                    return True
        return False

    def _results_run_traced(self, factory: FunctionInfo, level: int) -> bool:
        """Whether every call of ``factory`` this module makes hands its result to a tracing
        transformation (``step = jax.jit(make_step(0.1))``), or calls it in traced code."""
        node = factory.node
        owner = self.index.parents.get(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or owner is None:
            return False
        if node.decorator_list or owner.bound.get(node.name) != 1:
            return False
        uses = [use for use in self._loads.get(node.name, []) if self._resolves_to(use, owner)]
        calls = [self.parent_map.get(use) for use in uses]
        return bool(uses) and all(
            isinstance(call, ast.Call)
            and call.func is use
            and self._result_runs_traced(call, self.scope_of_load(use), level)
            for use, call in zip(uses, calls, strict=True)
        )

    def _traces_argument(self, call: ast.Call, argument: ast.AST, where: Scope, level: int) -> bool:
        """Whether ``call`` runs the function ``argument`` traced: a tracing transformation or
        ``lax`` primitive given it (directly or in a ``partial`` it is given), or a tree map
        called from code that runs only traced."""
        qualname = self.resolver.qualname(call.func, where)
        if qualname in PARTIALS and call.args and call.args[0] is argument:
            return self._result_runs_traced(call, where, level)
        transform = None if qualname is None else self.transforms.get(qualname)
        if transform is not None and transform.level >= level:
            return True
        if transform is not None and transform.level >= NONE:  # `jax.jit(jax.grad(f))`
            return self._result_runs_traced(call, where, level)
        if qualname in TREE_MAPS:
            caller = self.function_of(where)
            return caller is not None and self.runs_only_traced(caller, level)
        return False

    def _result_runs_traced(self, call: ast.Call, where: Scope, level: int) -> bool:
        """Whether the function ``call`` makes of its argument (``jax.grad(f)``, ``partial(f,
        k)``) runs traced: given to a tracing transformation, or called in code that runs only
        traced."""
        outer = self.parent_map.get(call)
        if not isinstance(outer, ast.Call):
            return False
        if outer.func is call:
            caller = self.function_of(where)
            return caller is not None and self.runs_only_traced(caller, level)
        return self._traces_argument(outer, call, where, level)

    def differentiated(self, info: FunctionInfo) -> bool:
        """Whether a differentiation reaches ``info``: applied to it or to a function calling it."""
        return _differentiated(info)

    def _keeps_places(self, decorator: ast.expr, scope: Scope) -> bool:
        """Whether a decorator is a transformation that passes each argument in its place
        (``@jax.jit``, ``@partial(jax.jit, static_argnames=...)``, ``@nnx.jit``)."""
        layer = self._decorator_layer(decorator, scope)
        return layer is not None and layer.transform.kind in PLACE_KEEPING and not layer.transform.evaluates

    def _call_scope(self, call: ast.Call, use: ast.Name) -> Scope:
        """The scope ``call`` is made in: that of the name it calls (``g`` in ``g(x)``, ``self``
        in ``self.step(x)``), else that of ``use`` (``jax.grad(f)(x)``)."""
        func = call.func
        named = func.value if isinstance(func, ast.Attribute) else func
        return self.scope_of_load(named if isinstance(named, ast.Name) else use)

    def calls_within(self, info: FunctionInfo, name: str) -> bool:
        """Whether ``info`` calls ``name``, itself or in a function nested in it that does not
        bind ``name`` itself (``on_step(i, loss)`` in a loop body ``fit`` defines)."""
        pending = [info.scope]
        while pending:
            scope = pending.pop()
            if name in scope.called:
                return True
            pending.extend(
                inner for inner in self._nested_scopes.get(scope.node, ()) if name not in inner.bound
            )
        return False

    def stored_attributes(self) -> frozenset[str]:
        """Every attribute name the module stores (``x.name = ...``)."""
        return frozenset(self._attribute_stores)

    def scope_of_load(self, use: ast.Name) -> Scope:
        """The scope whose code reads the name ``use``."""
        return self._scope_of_node.get(use, self.index.module)

    def _calls_through(self, use: ast.Name) -> list[ast.Call] | None:
        """The calls passing their arguments, in their places, to the function ``use`` names:
        the call of ``use``, or those of a transformation of it that keeps the places."""
        holder = self.parent_map.get(use)
        if isinstance(holder, ast.Call) and holder.func is use:
            return [holder]
        if not isinstance(holder, ast.Call) or not holder.args or holder.args[0] is not use:
            return None
        where = self._scope_of_node.get(use, self.index.module)
        transform = self.transform_of(holder.func, where)
        if transform is None or transform.kind not in PLACE_KEEPING or transform.evaluates:
            return None
        return self._calls_of_site(holder, where)

    def _calls_of_self_attribute(self, target: ast.Attribute, scope: Scope) -> list[ast.Call] | None:
        """``self.step = jax.jit(self._step)`` in a method: the calls ``self.step(...)`` made
        by the class's methods. None when the attribute is stored elsewhere too, or read in
        any other way (handed on, or called on another object: calls out of sight)."""
        cls = self.class_of_self(scope, target.value.id)  # pyright: ignore[reportAttributeAccessIssue]
        stores = self._attribute_stores.get(target.attr, [])
        if cls is None or "*" in self._attribute_stores:
            return None
        if any(store is not target and not self._other_class_store(cls, store) for store in stores):
            return None
        calls: list[ast.Call] = []
        for use in self._site_index[3].get(target.attr, []):
            holder = self.parent_map.get(use)
            receiver = use.value
            if not isinstance(receiver, ast.Name):
                return None
            where = self._scope_of_node.get(receiver, self.index.module)  # the receiver's name load
            owner = self.class_of_self(where, receiver.id) or self._instance_class(receiver, where)
            if (
                owner is not cls
                and owner is not None
                and any(self._other_class_store(cls, s) for s in stores)
            ):
                continue  # the attribute of another class of this module that stores its own
            if owner is not cls or not isinstance(holder, ast.Call) or holder.func is not use:
                return None
            calls.append(holder)
        return calls or None

    def _instance_class(self, name: ast.Name, scope: Scope) -> ast.ClassDef | None:
        """The class of this module whose instance ``name`` holds: bound once to ``Cls(...)``."""
        owner = scope.lookup(name.id)
        value = None if owner is None else owner.single_value(name.id)
        if not isinstance(value, ast.Call) or owner is None:
            return None
        return self.class_named(value.func, owner)

    def _resolves_to(self, use: ast.Name, scope: Scope) -> bool:
        """Whether ``use`` reads the name ``scope`` binds (not a homonym elsewhere)."""
        inner = self._scope_of_node.get(use, self.index.module)
        return inner.lookup(use.id) is scope

    @cached_property
    def _site_index(
        self,
    ) -> tuple[
        dict[ast.AST, ast.AST],
        dict[str, list[ast.Name]],
        dict[ast.AST, Scope],
        dict[str, list[ast.Attribute]],
    ]:
        """One walk of the module: each node's parent, the loads of each name, each name
        load's innermost scope, and the loads of each attribute name."""
        parents: dict[ast.AST, ast.AST] = {}
        loads: dict[str, list[ast.Name]] = {}
        scopes: dict[ast.AST, Scope] = {}
        attributes: dict[str, list[ast.Attribute]] = {}
        stack: list[tuple[ast.AST, Scope]] = [(self.tree, self.index.module)]
        pop, push, scope_of, node_class = stack.pop, stack.append, self.index.scopes.get, ast.AST
        name_class, attribute_class, load = ast.Name, ast.Attribute, ast.Load
        while stack:
            node, scope = pop()
            inner = scope_of(node, scope)
            for field_name in child_fields(type(node)):
                value: Any = getattr(node, field_name, None)
                for child in value if value.__class__ is list else (value,):
                    if not isinstance(child, node_class):
                        continue
                    parents[child] = node
                    kind = type(child)
                    if kind is name_class:
                        if type(child.ctx) is load:  # pyright: ignore[reportAttributeAccessIssue]
                            loads.setdefault(child.id, []).append(child)  # pyright: ignore[reportAttributeAccessIssue, reportArgumentType]
                            scopes[child] = inner
                        continue
                    if kind is attribute_class and type(child.ctx) is load:  # pyright: ignore[reportAttributeAccessIssue]
                        attributes.setdefault(child.attr, []).append(child)  # pyright: ignore[reportAttributeAccessIssue, reportArgumentType]
                    push((child, inner))
        return parents, loads, scopes, attributes

    @property
    def parent_map(self) -> dict[ast.AST, ast.AST]:
        """Each node of the module (but its contexts and operators) and the node it is a child of."""
        return self._site_index[0]

    @property
    def _loads(self) -> dict[str, list[ast.Name]]:
        return self._site_index[1]

    def loads_of(self, name: str) -> list[ast.Name]:
        """Every read of a name ``name`` in the module, in any scope (one index for all)."""
        return self._loads.get(name, [])

    @property
    def _scope_of_node(self) -> dict[ast.AST, Scope]:
        return self._site_index[2]

    @staticmethod
    def _feeds_names(call: ast.Call, transform: Transform) -> bool:
        """Whether a body's parameters receive operands whose structure the syntax does not show."""
        from jaxlint.semantic.tracing import is_display

        operands = [body_operand(call, transform, position) for position in range(4)]
        return any(operand is not None and not is_display(operand) for operand in operands)

    def apply_chain(self, chain: Chain, context: int, reason: str | None = None) -> None:
        """Mark the chain's target as traced by its layers (inside code of level ``context``);
        a function of another module gets a trace request instead."""
        from jaxlint.semantic.tracing import trace_params

        outermost = chain.layers[-1]
        transform = outermost.transform
        where = f"line {outermost.site.lineno}"
        if chain.external is not None:
            self._request_transform(chain, context, where)
            return
        info = chain.target
        assert info is not None
        level, params = trace_params(self, info, chain.layers, context)
        if reason is None:
            reason = f"`{info.name}` is traced by `{transform.name}` at {where}"
            if transform.kind == "body":
                reason = f"`{info.name}` is traced as a body of `{transform.name}` at {where}"
        if transform.name in BRANCHING and level > NONE and isinstance(outermost.site, ast.Call):
            info.branch_of = info.branch_of or outermost.site
        if transform.name in RETRACED_WHEN_EAGER:
            self._retraced_bodies.add(info)
        if transform.name in REPEATING and level > NONE:
            info.repeated_by = transform.name
            info.body_offset = outermost.offset
            info.body_bound = outermost.bound
        if level != HOST:
            kinds: set[Kind] = {layer.transform.kind for layer in chain.layers}
            if "remat" in kinds and not _lives_across_calls(info, chain):
                kinds.discard("remat")
                kinds.add("fresh_remat")
            info.transformed_by.update(kinds)
            if "jit" in kinds:
                jit = next(layer for layer in chain.layers if layer.transform.kind == "jit")
                info.jit_calls.append(jit.call if jit.call is jit.site else None)
        if (
            # a gradient keeps the positions and names of the parameters (`jax.jit(jax.grad(f),
            # static_argnums=2)` makes `f`'s third parameter static)
            all(layer.transform.kind == "grad" for layer in chain.layers[:-1])
            and transform.name in JITS_WITH_STATIC_ARGNAMES
            and not chain.offset
            and not chain.bound
            and outermost.call in (None, outermost.site)  # not an alias: `my_jit = partial(jax.jit, ...)`
            and outermost.site not in info.jit_sites
            and hasattr(outermost.site, "lineno")
            and outermost.site.lineno > 0
            and not self._jits_a_parameter(outermost.site)
        ):
            info.jit_sites.append(outermost.site)
        if _jits_bound_method(info, chain, transform.name, outermost.site):
            info.bound_jit_sites.append(outermost.site)  # pyright: ignore[reportArgumentType]
        for layer in chain.layers:
            name = layer.transform.name
            if name in api.REVERSE_MODE and all(
                site is not layer.site for _, site, _, _ in info.reverse_sites
            ):
                info.reverse_sites.append((name, layer.site, layer.call, layer.offset))
        if info.apply(level, params, reason, runs=transform.name not in TRACED_FOR_SHAPES):
            self.enqueue(info)

    # ----------------------------------------------------------------- other project modules

    def _jits_a_parameter(self, site: ast.AST) -> bool:
        """Whether ``site`` is ``jax.jit(fn)`` of a parameter ``fn`` (a decorator's, a factory's):
        every function passed in shares it, so it is no one function's to give static arguments."""
        if not isinstance(site, ast.Call) or not site.args or not isinstance(site.args[0], ast.Name):
            return False
        owner = self.scope_of_load(site.args[0]).lookup(site.args[0].id)
        return owner is not None and owner.kind == "function" and site.args[0].id in owner.params

    def external_function(self, expr: ast.AST, scope: Scope) -> str | None:
        """The qualified name of an imported function that may belong to the project (not a
        library's): the project routes requests about it, or drops them."""
        if not isinstance(expr, (ast.Name, ast.Attribute)):
            return None
        qualname = self.resolver.qualname(expr, scope)
        if qualname is None or qualname.split(".")[0] in LIBRARY_ROOTS or "." not in qualname:
            return None
        return qualname

    def _request_transform(self, chain: Chain, context: int, where: str) -> None:
        assert chain.external is not None
        specs = tuple(_layer_spec(layer) for layer in chain.layers)
        name = chain.external.rsplit(".", 1)[1]
        outermost = chain.layers[-1].transform.name
        reason = f"`{name}` is traced by `{outermost}` in `{self.project.module or 'its caller'}` at {where}"
        self.outgoing.append(TraceRequest(chain.external, context, reason, layers=specs, offset=chain.offset))

    def request_call(
        self,
        target: str,
        level: int,
        positional: list[Value],
        keywords: dict[str, Value],
        reason: str,
        offset: int = 0,
        caller: FunctionInfo | None = None,
    ) -> None:
        """A call from traced code (in ``caller``) into another module's function, with these
        argument values."""
        reused = caller is not None and self.reuses_trace(caller)
        self._reuses_trace.clear()  # asked mid-analysis: more callers may come
        self.outgoing.append(
            TraceRequest(
                target,
                level,
                reason,
                positional=tuple(portable(v) for v in positional),
                keywords=tuple(sorted((name, portable(v)) for name, v in keywords.items())),
                offset=offset,
                reused=reused,
            )
        )

    def _apply_seeds(self) -> None:
        """Trace this module's functions as other modules' requests say."""
        from jaxlint.semantic.tracing import bind_values

        for seed in self.project.seeds:
            info = self._function_named(seed.target)
            if info is None:
                continue
            if seed.layers:
                layers = [
                    Layer(
                        self.transforms[s.transform],
                        s.call(),
                        s.call(),
                        s.offset,
                        frozenset(s.bound),
                        None if s.passed is None else (s.passed[0], frozenset(s.passed[1])),
                    )
                    for s in seed.layers
                    if s.transform in self.transforms
                ]
                if layers:
                    self.apply_chain(Chain(info, layers, seed.offset), seed.level, seed.reason)
                continue
            params = bind_values(info, seed.offset, list(seed.positional), dict(seed.keywords))
            if seed.reused:
                self._requested_reuse.add(info)
            if params and info.apply(seed.level, params, seed.reason):
                self.enqueue(info)

    def exported_globals(self) -> dict[str, Value]:
        """The module-level names bound once, and never changed here, that hold concrete JAX
        arrays, as the modules importing them see them."""
        module = self.index.module
        mutated = {name for _, _, name in self.index.mutations}
        found: dict[str, Value] = {}
        for name, value in self.module_summary.items():
            if module.bound.get(name) != 1 or name in self.runtime_rebound or name in mutated:
                continue
            if is_jax_array(value) and not is_traced(value):  # immutable: what it is, it stays
                found[name] = portable(value)
        return found

    @cached_property
    def global_writes(self) -> frozenset[str]:
        """Names of other modules this module assigns (``C.SCALE = 3``, ``C.TABLE[0] = 1``):
        their values are not the ones their module gave them."""
        found: set[str] = set()
        for target, scope, _ in self.index.mutations:
            while isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Attribute):
                qualname = self.resolver.qualname(target, scope)
                if qualname is not None and qualname.split(".")[0] not in LIBRARY_ROOTS:
                    found.add(qualname)
        return frozenset(found)

    def seeded_returns(self) -> dict[str, Value]:
        """What each function other modules trace returns (for their next round)."""
        found: dict[str, Value] = {}
        for seed in self.project.seeds:
            info = self._function_named(seed.target)
            if info is not None and info.analyzed:
                found[seed.target] = portable(info.returns)
        return found

    def _function_named(self, path: str) -> FunctionInfo | None:
        scope = self.index.module
        node: ast.AST | None = None
        for part in path.split("."):
            node = scope.single_def(part)
            if node is None:
                return None
            scope = self.index.scopes.get(node, scope)
        return self.infos.get(node) if node is not None else None

    def resolve_function(self, expr: ast.AST, scope: Scope) -> tuple[FunctionInfo, int] | None:
        """The function a callee expression names, and how many leading parameters it binds."""
        if isinstance(expr, ast.Lambda):
            return self.infos[expr], 0
        if isinstance(expr, ast.Name):
            owner = scope.lookup(expr.id)
            node = None if owner is None else owner.single_def(expr.id)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return self.infos[node], 0
            value = None if owner is None else owner.single_value(expr.id)
            if isinstance(value, ast.Lambda):  # `f = lambda x: ...`, bound once
                return self.infos[value], 0
            return None
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            method = self._method_of_self(expr, scope)
            if method is not None:
                return method, 1
        return None

    def factory_result(self, call: ast.Call, scope: Scope) -> tuple[FunctionInfo, int] | None:
        """The function a call of a factory of this module returns: every ``return`` of the
        factory hands back one nested function (``return learning_rate_fn``, a lambda)."""
        factory = self.resolve_function(call.func, scope)
        if factory is None or factory[1] or isinstance(factory[0].node, ast.Lambda):
            return None
        info = factory[0]
        body = info.node.body
        returned = {
            None if found is None else found[0]
            for node in own_nodes(body if isinstance(body, list) else [])
            if isinstance(node, ast.Return) and node.value is not None
            for found in [self.resolve_function(node.value, info.scope)]
        }
        if len(returned) != 1:
            return None
        result = returned.pop()
        return None if result is None or result.parent is not info else (result, 0)

    def held_key(self, info: FunctionInfo, expr: ast.Attribute) -> KeyId | None:
        """``self.key`` read in a method of a plain class whose ``__init__`` is the only code that
        stores it: the same key on every call of the method (its identity, else None). So is
        ``self.key.value`` of an nnx module that wraps it in an ``nnx.Variable`` nothing writes."""
        if expr.attr == "value" and isinstance(expr.value, ast.Attribute):
            return self._held_variable_key(info, expr.value)
        if not isinstance(expr.value, ast.Name) or not info.is_method or info.name == "__init__":
            return None
        if not info.positional_names() or info.positional_names()[0] != expr.value.id:
            return None
        cls = self.index.parents[info.node].node
        if not isinstance(cls, ast.ClassDef) or self.pytree_class(cls) or self.is_flax_module(cls):
            return None
        if self.class_member(cls, expr.attr) is not None:
            return None  # a method or property: it may hand out a new key on each read
        init = cls and self.index.scopes[cls].single_def("__init__")
        stores = self._attribute_stores.get(expr.attr, [])
        if not isinstance(init, ast.FunctionDef) or not stores or "*" in self._attribute_stores:
            return None
        if any(not encloses(init, store) and not self._other_class_store(cls, store) for store in stores):
            return None  # replaced somewhere (a split stored back, another object's attribute)
        return ("held", cls, expr.attr)

    def declared_key_layer(self, cls: ast.ClassDef, attr: str) -> ast.expr | None:
        """The annotation of a field of the equinox module ``cls`` declared as a layer whose call
        draws from its ``key`` (``drop: eqx.nn.Dropout``), when nothing in the module may switch a
        layer to inference (no ``inference=``/``deterministic=`` keyword, no
        ``eqx.nn.inference_mode``): the objects the module is built with are out of sight."""
        found = self.pytree_class(cls)
        if found is None or not found.only_arrays_traced or self._mode_switched:
            return None
        annotation = dict(found.annotations).get(attr)
        scope = self._class_scope(cls)
        if (
            annotation is None
            or self.resolver.qualname(annotation, scope) not in measured.layers_needing_a_key_to_call()
        ):
            return None
        return annotation

    @cached_property
    def _mode_switched(self) -> bool:
        """Whether some code of the module may set a layer's mode (see :meth:`declared_key_layer`)."""
        return any(
            (isinstance(node, ast.keyword) and (node.arg is None or node.arg in api.LAYER_MODE_KEYWORDS))
            or (isinstance(node, ast.Attribute) and node.attr in ("inference_mode", "inference"))
            or (isinstance(node, ast.Name) and node.id == "inference_mode")
            for node in ast.walk(self.tree)
        )

    def _held_variable_key(self, info: FunctionInfo, held: ast.Attribute) -> KeyId | None:
        """``self.key`` of an nnx module whose ``__init__`` alone stores it, as an
        ``nnx.Variable``, when no code of the module writes into that variable (see
        :meth:`_variable_written`): the same key on every call."""
        if not isinstance(held.value, ast.Name) or not info.is_method or info.name == "__init__":
            return None
        if info.positional_names()[:1] != [held.value.id]:
            return None
        cls = self.index.parents[info.node].node
        variables = self.nnx_variables(cls) if isinstance(cls, ast.ClassDef) else None
        if variables is None or held.attr not in variables or variables[held.attr] is not None:
            return None
        if self.class_member(cls, held.attr) is not None or self._variable_written(cls, held.attr):  # pyright: ignore[reportArgumentType]
            return None
        return ("held", cls, held.attr)

    def _variable_written(self, cls: ast.ClassDef, attr: str) -> bool:
        """Whether some code of the module may write into the nnx variable ``self.attr`` of an
        object of ``cls`` holds (``self.attr.value = `` in a method of ``cls``; ``x.attr.value =
        ``, ``x.attr[...] = ``, ``x.attr.set_value(...)`` anywhere else), or into every variable
        of a module (``nnx.update``)."""
        written = self._written_variables
        return (cls, attr) in written or (None, attr) in written or (None, "*") in written

    @cached_property
    def _written_variables(self) -> frozenset[tuple[ast.ClassDef | None, str]]:
        """The attributes whose nnx variables some code writes in place, each with the class
        whose method writes it on ``self`` (None: through another object, so any class)."""
        written: set[tuple[ast.ClassDef | None, str]] = set()
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                for target in _targets(node):
                    for part in ast.walk(target):
                        inner = part.value if isinstance(part, (ast.Attribute, ast.Subscript)) else None
                        stored = isinstance(part, ast.Subscript) or getattr(part, "attr", "") == "value"
                        if stored and isinstance(inner, ast.Attribute):
                            written.add((self._self_class(inner.value, node), inner.attr))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                method, receiver = node.func.attr, node.func.value
                if method in ("set_value", "update", "replace") and isinstance(receiver, ast.Attribute):
                    written.add((self._self_class(receiver.value, node), receiver.attr))
                elif method == "update" and isinstance(receiver, ast.Name):
                    written.add((None, "*"))  # `nnx.update(model, state)`, or a dict's: say nothing
        return frozenset(written)

    def _self_class(self, receiver: ast.expr, site: ast.AST) -> ast.ClassDef | None:
        """The class whose method ``site`` is in, where ``receiver`` is that method's ``self``."""
        method = self.parent_map.get(site)
        while method is not None and not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            method = self.parent_map.get(method)
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            return None
        cls = self.parent_map.get(method)
        named_self = isinstance(receiver, ast.Name) and method.args.args[0].arg == receiver.id
        return cls if isinstance(cls, ast.ClassDef) and named_self else None

    def fixed_field(self, scope: Scope, expr: ast.Attribute) -> bool:
        """``self.attr`` read in a method (or a function nested in one) of a class of this module
        that declares ``attr`` (an annotated field, or an attribute only its initializers store)
        and has no method or property of that name: one call reads the same value every time."""
        if not isinstance(expr.value, ast.Name):
            return False
        cls = self.class_of_self(scope, expr.value.id)
        if cls is None or "*" in self._attribute_stores or self.class_member(cls, expr.attr) is not None:
            return False
        inner = scope.function.node
        method = next(
            (s for s in cls.body if isinstance(s, ast.FunctionDef) and (s is inner or encloses(s, inner))),
            None,
        )
        if method is None or method.name in INITIALIZERS:
            return False
        stores = self._attribute_stores.get(expr.attr, [])
        if any(
            not self._initializer_store(cls, store) and not self._other_class_store(cls, store)
            for store in stores
        ):
            return False  # replaced after construction: a call between two reads may change it
        declared = expr.attr in self._annotated_names(cls) or any(encloses(cls, store) for store in stores)
        return declared and self._bases_known(cls)

    def _initializer_store(self, cls: ast.ClassDef, store: ast.Attribute) -> bool:
        return any(
            isinstance(stmt, ast.FunctionDef) and stmt.name in INITIALIZERS and encloses(stmt, store)
            for stmt in cls.body
        )

    def _annotated_names(self, cls: ast.ClassDef, depth: int = 0) -> set[str]:
        """The names annotated in the body of ``cls`` and of its bases of this module."""
        names = {
            stmt.target.id
            for stmt in cls.body
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
        }
        owner = self._class_scope(cls)
        for base in cls.bases:
            base_class = self.class_named(base, owner)
            if base_class is not None and depth < 8:
                names |= self._annotated_names(base_class, depth + 1)
        return names

    def _bases_known(self, cls: ast.ClassDef, depth: int = 0) -> bool:
        """Whether every base of ``cls`` is a class of this module (itself so) or a library base
        known to define no attribute that could shadow a field (flax, equinox, NamedTuple)."""
        owner = self._class_scope(cls)
        for base in cls.bases:
            base_class = self.class_named(base, owner)
            if base_class is not None:
                if depth >= 8 or not self._bases_known(base_class, depth + 1):
                    return False
            elif self.resolver.qualname(base, owner) not in FIELD_SAFE_BASES:
                return False
        return True

    def _other_class_store(self, cls: ast.ClassDef, store: ast.Attribute) -> bool:
        """``self.attr = ...`` in a class unrelated to ``cls`` (neither names the other as a base)."""
        if not isinstance(store.value, ast.Name) or store.value.id != "self":
            return False
        owner = next((c for c, _ in self.index.classes if c is not cls and encloses(c, store)), None)
        if owner is None or encloses(owner, cls) or encloses(cls, owner):
            return False
        names = {cls.name, owner.name}
        bases = [b for c in (cls, owner) for b in c.bases]
        return not any(isinstance(b, (ast.Name, ast.Attribute)) and _last_name(b) in names for b in bases)

    @cached_property
    def _attribute_stores(self) -> dict[str, list[ast.Attribute]]:
        """Every ``x.name = ...`` (also unpacked, augmented, deleted) in the module, by attribute
        name (from the scope walk); ``"*"`` when the module calls ``setattr``."""
        found = {attr: [node for node, _ in sites] for attr, sites in self._attribute_store_sites.items()}
        if any("setattr" in scope.called for scope in [self.index.module, *self.index.functions]):
            found["*"] = []
        return found

    def _method_of_self(self, expr: ast.Attribute, scope: Scope) -> FunctionInfo | None:
        cls = self.class_of_self(scope, expr.value.id)  # pyright: ignore[reportAttributeAccessIssue]
        if cls is None:
            return None
        class_scope = self.index.scopes[cls]
        node = class_scope.single_def(expr.attr)
        if node is None and expr.attr not in class_scope.bound:
            # inherited from a base of this module, else defined by the one subclass that has it
            node = self.class_member(cls, expr.attr) or self._only_subclass_member(cls, expr.attr)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _is_staticmethod(node):
            return self.infos[node]
        return None

    def _only_subclass_member(self, cls: ast.ClassDef, name: str) -> ast.AST | None:
        """The def ``name`` of the one class of this module that derives from ``cls`` and has it
        (``self.forward`` in a base's ``__call__``); None when none or several do."""
        found = [
            member
            for other in self._descendants(cls)
            for member in [self.index.scopes[other].single_def(name)]
            if member is not None
        ]
        return found[0] if len(found) == 1 else None

    def _descendants(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """The classes of this module that derive from ``cls``, directly or not."""
        found: list[ast.ClassDef] = []
        stack = list(self._subclasses.get(cls, ()))
        while stack:
            other = stack.pop()
            if other not in found and other is not cls:
                found.append(other)
                stack.extend(self._subclasses.get(other, ()))
        return found

    @cached_property
    def _subclasses(self) -> dict[ast.ClassDef, list[ast.ClassDef]]:
        """Each class of this module, and the classes of this module naming it as a base."""
        found: dict[ast.ClassDef, list[ast.ClassDef]] = {}
        for cls, scope in self.index.classes:
            for base in cls.bases:
                parent = self.class_named(base, scope)
                if parent is not None:
                    found.setdefault(parent, []).append(cls)
        return found

    def resolve_chain(self, expr: ast.AST, scope: Scope, depth: int = 0) -> Chain | None:
        """Follow ``partial`` and nested transforms down to the function they wrap."""
        if depth > 8:
            return None
        found = self.resolve_function(expr, scope)
        if found is not None:
            return Chain(found[0], [], found[1])
        external = self.external_function(expr, scope)
        if external is not None:
            return Chain(None, [], 0, external=external)
        if not isinstance(expr, ast.Call):
            return None
        if len(expr.args) == 1 and not expr.keywords and self._forwarding(expr.func, scope):
            return self.resolve_chain(expr.args[0], scope, depth + 1)  # `jax.jit(logged(f))`
        qualname = self.resolver.qualname(expr.func, scope)
        if qualname is None or not expr.args:
            return None
        if qualname in PARTIALS:
            chain = self.resolve_chain(expr.args[0], scope, depth + 1)
            if chain is None or any(isinstance(a, ast.Starred) for a in expr.args):
                return None
            chain.offset += len(expr.args) - 1
            chain.bound |= {kw.arg for kw in expr.keywords if kw.arg}
            return chain
        transform = self.transforms.get(qualname)
        if transform is None or transform.kind in ("callback", "body"):
            return None
        chain = self.resolve_chain(expr.args[0], scope, depth + 1)
        if chain is not None and transform.kind != "wrapper":
            chain.layers.append(Layer(transform, expr, expr, chain.offset, chain.bound))
        return chain

    # ----------------------------------------------------------------- function values

    def function_value(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> Value:
        """What the name a ``def`` binds holds: the function, with the transformations its
        decorators apply; static but unknown when a decorator is not a known transformation."""
        layers: list[LayerRef] = []
        for decorator in reversed(node.decorator_list):
            layer = self._decorator_layer(decorator, scope)
            if layer is None:
                return STATIC
            if layer.transform.kind != "wrapper":
                layers.append(LayerRef(layer.transform.name, layer.call, layer.site))
        return referring([FunctionRef(node, layers=tuple(layers))])

    def library_value(self, qualname: str) -> Value:
        """An imported name: a function JAX code may transform (``jax.numpy.zeros``), a plain
        value of another library (``math.pi``, ``numpy.float32``), or, from the project's own
        modules, anything (a table may be a list or an array)."""
        if not qualname.startswith(("jax.", "flax.", "equinox.")):
            if qualname.split(".")[0] in LIBRARY_ROOTS:
                return STATIC
            self.global_reads.add(qualname)  # perhaps a module of the project: ask it
            found = self.project.global_value(qualname)
            return UNKNOWN if found is None else found
        found = self._library_values.get(qualname)
        if found is None:
            found = self._library_values[qualname] = referring([LibraryRef(qualname)])
        return found

    def defines_method(self, name: str) -> bool:
        """Whether a class of this module defines a method ``name``."""
        return name in self._method_names

    @cached_property
    def _method_names(self) -> frozenset[str]:
        return frozenset(
            statement.name
            for cls, _ in self.index.classes
            for statement in cls.body
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        )

    def class_member(self, cls: ast.ClassDef, name: str, depth: int = 0) -> ast.AST | None:
        """The def named ``name`` in ``cls`` or the first of its bases (of this module) that has one."""
        scope = self.index.scopes.get(cls)
        if scope is None or depth > 8:
            return None
        found = scope.single_def(name)
        if found is not None or name in scope.bound:
            return found
        owner = self._class_scope(cls)
        for base in cls.bases:
            base_class = self.class_named(base, owner)
            if base_class is not None:
                member = self.class_member(base_class, name, depth + 1)
                if member is not None:
                    return member
        return None

    def _class_scope(self, cls: ast.ClassDef) -> Scope:
        for node, scope in self.index.classes:
            if node is cls:
                return scope
        return self.index.module

    def class_named(self, expr: ast.expr, scope: Scope) -> ast.ClassDef | None:
        """The class of this module that ``expr`` (a name, or an annotation string) names."""
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str) and expr.value.isidentifier():
            expr = ast.Name(expr.value)
        if not isinstance(expr, ast.Name):
            return None
        owner = scope.lookup(expr.id)
        node = None if owner is None else owner.single_def(expr.id)
        return node if isinstance(node, ast.ClassDef) else None

    @cached_property
    def pytree_fields(self) -> Fields:
        """The pytree classes of this module (NamedTuples, registered dataclasses...)."""
        return find_pytree_classes(self)

    def pytree_class(self, node: ast.ClassDef) -> PytreeClass | None:
        return self.pytree_fields.classes.get(node)

    def class_declaring(self, names: frozenset[str], named_tuple: bool) -> PytreeClass | None:
        """The pytree class of this module declaring every field of ``names`` (see
        :func:`records.class_declaring`)."""
        return class_declaring(self, names, named_tuple)

    def record_kind_of_field(self, name: str) -> str | None:
        """How a record of unknown class holding field ``name`` is rebuilt (see
        :func:`records.record_kind_of_field`)."""
        return record_kind_of_field(self, name)

    def field_by_name(self, name: str) -> Value | None:
        """What attribute ``name`` of a traced pytree of unknown class holds, when the module's
        pytree classes say (see :func:`records.field_by_name`)."""
        if not self.pytree_fields.classes and not self.pytree_fields.library:
            return None
        if name not in self._fields_by_name:
            self._fields_by_name[name] = field_by_name(self, name)
        return self._fields_by_name[name]

    def property_getter(self, receiver: Value, node: ast.Attribute) -> tuple[FunctionInfo, ast.Call] | None:
        """``obj.name`` where ``name`` is a ``property`` of the class of this module ``obj`` is an
        instance of: the getter, and a call of it standing for the read (one per read)."""
        getters = [
            member
            for ref in refs(receiver)
            if isinstance(ref, InstanceRef)
            for member in [self.class_member(ref.node, node.attr)]
            if isinstance(member, ast.FunctionDef) and _is_property(member)
        ]
        if len(getters) != 1 or len(refs(receiver)) != 1:
            return None
        call = self._property_reads.get(node)
        if call is None:
            call = self._property_reads[node] = ast.copy_location(ast.Call(node, [], []), node)
        return self.infos[getters[0]], call

    def bound_method(self, ref: InstanceRef | ClassRef, name: str) -> FunctionRef | None:
        """``obj.name`` for an instance (``self`` bound) or ``Cls.name`` for a class; a flax
        module's ``apply``/``init`` run its ``__call__`` on the arguments after the first."""
        if name in api.FLAX_ENTRY_POINTS and self.is_flax_module(ref.node):
            call = self.class_member(ref.node, "__call__")
            if isinstance(call, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return FunctionRef(call, offset=1, skip=1)
        member = self.class_member(ref.node, name)
        if not isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        decorators = {d.id for d in member.decorator_list if isinstance(d, ast.Name)}
        if "property" in decorators:
            return None
        if "staticmethod" in decorators:
            return FunctionRef(member)
        if "classmethod" in decorators or isinstance(ref, InstanceRef):
            return FunctionRef(member, offset=1)
        return FunctionRef(member)

    def uses_function_param(self, info: FunctionInfo, name: str) -> bool:
        """Whether a function handed to ``info`` as parameter ``name`` can matter to the analysis:
        ``info`` calls it (``fn(x)``, traced with ``info``'s values), applies a transformation to
        a function the syntax does not name (``jax.jit(fn)``), or stores it on ``self``."""
        return name in info.scope.called or info.node in self._unresolved or name in self.stored_on_self(info)

    def transforms_param(self, info: FunctionInfo, name: str) -> bool:
        """Whether ``info`` applies a transformation to its parameter ``name`` whenever it runs
        (see :meth:`_always_transformed`)."""
        found = self._transformed_names.get(info.node)
        if found is None:
            found = self._transformed_names[info.node] = self._always_transformed(info)
        return name in found

    def _always_transformed(self, info: FunctionInfo) -> frozenset[str]:
        """The names ``info`` passes to a transformation in a statement of its body that no
        ``if``, loop, ``try`` or conditional expression guards (``return jax.jit(fn)``,
        ``jitted = jax.jit(fn)``)."""
        body = info.node.body
        found: set[str] = set()
        for statement in body if isinstance(body, list) else []:
            if not isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Return, ast.Expr)):
                continue
            stack: list[ast.AST] = [statement]
            while stack:
                node = stack.pop()
                if isinstance(node, (ast.IfExp, ast.BoolOp, ast.Lambda)):
                    continue  # evaluated on some paths only
                if isinstance(node, ast.Call) and self.transform_of(node.func, info.scope) is not None:
                    found |= {a.id for a in node.args if isinstance(a, ast.Name)}
                stack.extend(ast.iter_child_nodes(node))
        return frozenset(found)

    def stored_on_self(self, info: FunctionInfo) -> frozenset[str]:
        """Names a method stores as they are on an attribute (``self.loss_fn = loss_fn``)."""
        found = self._stored_names.get(info.node)
        if found is None:
            body = info.node.body if info.is_method and isinstance(info.node.body, list) else []
            found = self._stored_names[info.node] = frozenset(
                node.value.id
                for node in own_nodes(body)
                if isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Name)
                and any(isinstance(t, ast.Attribute) for t in node.targets)
            )
        return found

    def is_dataclass(self, cls: ast.ClassDef) -> bool:
        return is_dataclass(self, cls, self._class_scope(cls))

    def object_classes(self, value: Value, expr: ast.expr, scope: Scope) -> list[ast.ClassDef]:
        """The classes of this module whose object ``expr`` (holding ``value``) may be: the
        instances the value is known to be, else the class of ``self`` in a method."""
        if refs(value):
            return instance_classes(value)
        cls = self.class_of_self(scope, expr.id) if isinstance(expr, ast.Name) else None
        return [] if cls is None else [cls]

    def class_of_self(self, scope: Scope, name: str) -> ast.ClassDef | None:
        """The class whose instance ``name`` is in ``scope``: the first parameter of the method
        the scope is (or is nested in)."""
        function = self.infos.get(scope.function.node)
        while function is not None and not function.is_method:
            function = function.parent
        if function is None or function.positional_names()[:1] != [name]:
            return None
        cls = self.index.parents[function.node].node
        return cls if isinstance(cls, ast.ClassDef) else None

    def store_self_function(self, cls: ast.ClassDef, attr: str, value: Value) -> None:
        """A method stores functions on ``self.attr``: the methods reading it run again."""
        key = (cls, attr)
        old = self._self_functions.get(key)
        functions = referring(
            ref for ref in [*refs(value), *refs(old or STATIC)] if isinstance(ref, FunctionRef)
        )
        if functions != old:
            self._self_functions[key] = functions
            for reader in self._self_function_readers.get(key, ()):
                self.enqueue(reader)

    def held_instance(self, cls: ast.ClassDef, attr: str) -> ast.ClassDef | None:
        """The class of this module whose object ``self.attr`` holds: stored once in the class,
        by ``setup`` or ``__init__``, as ``self.attr = Cls(...)``; None otherwise."""
        key = (cls, attr)
        if key not in self._held_instances:
            self._held_instances[key] = self._find_held_instance(cls, attr)
        return self._held_instances[key]

    def held_array(self, cls: ast.ClassDef, attr: str) -> Value | None:
        """``obj.attr`` of an object of a class of this module (``self`` in its methods, a
        module-level object, one a closure holds) whose ``__init__`` (or ``setup``) alone
        stores a JAX array there, once, and that has no method or property of that name: a JAX
        array. Known as a concrete one (an object built in traced code holds a tracer, but either
        way an operation on it in staged code gives a tracer, and a concrete array is what
        claims nothing more)."""
        key = (cls, attr)
        if key in self._held_arrays:
            return self._held_arrays[key]
        held = self.held_value(cls, attr)
        if held is None:
            self._held_arrays[key] = None  # (while the stores are looked at: not known)
            found = CONCRETE_ARRAY if self._arrays_stored_only(cls, attr) else None
            self._held_arrays[key] = found
            return found
        method, value_node = held
        initializer = self.infos.get(method)
        if initializer is None or initializer.running:
            return None  # asked while the initializer runs: not known yet
        stored = self.value(value_node, self.index.scopes.get(method, self.index.module))
        found = untraced(whole(stored)) if is_jax_array(stored) else None
        self._held_arrays[key] = found
        return found

    def _arrays_stored_only(self, cls: ast.ClassDef, attr: str) -> bool:
        """Whether every store of ``attr`` in the module stores a JAX array, ``__init__`` (or
        ``setup``) among them: a call of JAX, or an update ``x.at[i].set(v)``
        (``self.data = self.data.at[ptr].set(row)`` in ``add``, or on an object at module
        level), so that ``obj.attr`` is an array on every object."""
        own = self.self_stores(cls).get(attr, [])
        if not any(s.method.name in ("__init__", "setup") for s in own):
            return False
        if "*" in self._attribute_stores or self.class_member(cls, attr) is not None:
            return False
        if self._touches_dict_of_instances(cls):
            return False
        for store in own:
            scope = self.index.scopes.get(store.method, self.index.module)
            if store.value is None or not self._stores_an_array(store.value, scope):
                return False
        inside = {id(store.target) for store in own}
        for store, scope in self._attribute_store_sites.get(attr, []):
            if id(store) in inside or self._other_class_store(cls, store):
                continue
            holder = self.parent_map.get(store)
            if not (isinstance(holder, ast.Assign) and holder.targets == [store]):
                return False  # unpacked, augmented or deleted: not followed
            if not self._stores_an_array(holder.value, scope):
                return False
        return True

    @cached_property
    def _attribute_store_sites(self) -> dict[str, list[tuple[ast.Attribute, Scope]]]:
        """Every ``x.name = ...`` of the module with the scope it is in, by attribute name."""
        found: dict[str, list[tuple[ast.Attribute, Scope]]] = {}
        for node, scope, _name in self.index.mutations:
            if isinstance(node, ast.Attribute):
                found.setdefault(node.attr, []).append((node, scope))
        return found

    def _stores_an_array(self, value: ast.expr, scope: Scope) -> bool:
        """``x.at[i].set(v)`` (an updated copy of an array), or a call of a ``jax.numpy``/
        ``jax.random``/``jax.lax``/``jax.nn`` function that makes an array."""
        if not isinstance(value, ast.Call):
            return False
        if api.updated_by_at(value) is not None:
            return True  # only a JAX array has an `.at` whose updates are called
        qualname = self.resolver.qualname(value.func, scope) or ""
        return (
            qualname.startswith(("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn."))
            and qualname.rpartition(".")[2] not in NOT_ARRAY_RESULTS
            and not measured.is_static_query(qualname)
        )

    def held_value(
        self, cls: ast.ClassDef, attr: str
    ) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, ast.expr] | None:
        """The method (``__init__`` or ``setup``) and the expression it stores once in
        ``self.attr``, when nothing else stores that attribute on an object of the class (no
        other method, no code outside, no ``setattr`` or ``__dict__``) and the class has no
        method or property of that name: what ``obj.attr`` holds for every object."""
        stores = self.self_stores(cls).get(attr, [])
        if len(stores) != 1 or stores[0].method.name not in ("__init__", "setup") or stores[0].value is None:
            return None
        method, value_node = stores[0].method, stores[0].value
        if (
            "*" in self._attribute_stores
            or self.class_member(cls, attr) is not None
            or any(
                not encloses(method, store) and not self._other_class_store(cls, store)
                for store in self._attribute_stores.get(attr, [])
            )
            or self._touches_dict_of_instances(cls)
        ):
            return None
        return method, value_node

    def initialized_value(self, scope: Scope, expr: ast.Attribute) -> tuple[ast.expr, Scope] | None:
        """What ``self.attr`` (``expr``, read in a method ``scope`` is or is nested in) holds for
        every object of the class: the expression its ``__init__`` (or ``setup``) alone stores
        (see :meth:`held_value`), with the scope it is written in."""
        if not isinstance(expr.value, ast.Name):
            return None
        cls = self.class_of_self(scope, expr.value.id)
        held = None if cls is None else self.held_value(cls, expr.attr)
        owner = None if held is None else self.index.scopes.get(held[0])
        return None if held is None or owner is None else (held[1], owner)

    def _touches_dict_of_instances(self, cls: ast.ClassDef) -> bool:
        """Whether the class reads ``obj.__dict__`` or calls ``vars``: its attributes may be set
        by name (``self.__dict__.update(overrides)``). One walk per class."""
        found = self._dict_touching.get(cls)
        if found is None:
            found = self._dict_touching[cls] = any(
                (isinstance(node, ast.Attribute) and node.attr == "__dict__")
                or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars")
                for node in ast.walk(cls)
            )
        return found

    def _find_held_instance(self, cls: ast.ClassDef, attr: str) -> ast.ClassDef | None:
        stores = self.self_stores(cls).get(attr, [])
        if len(stores) != 1:
            return None
        method, value = stores[0].method, stores[0].value
        if method.name not in ("setup", "__init__") or not isinstance(value, ast.Call):
            return None
        return self.class_named(value.func, self.index.scopes.get(method, self.index.module))

    def self_stores(self, cls: ast.ClassDef) -> dict[str, list[SelfStore]]:
        """Every store to ``self.<attr>`` in the class's methods, by attribute: the method, the
        target and the value stored (None where it is not a plain ``self.attr = value``). One
        walk per class."""
        found = self._stores_by_class.get(cls)
        if found is not None:
            return found
        found = {}
        for method in cls.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
                continue
            this = method.args.args[0].arg
            values: dict[ast.AST, ast.expr] = {}
            for node in own_nodes(method.body):
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    values[node.targets[0]] = node.value
                elif (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == this
                ):
                    found.setdefault(node.attr, []).append(SelfStore(method, node, values.get(node)))
        self._stores_by_class[cls] = found
        return found

    def read_self_function(self, cls: ast.ClassDef, attr: str, reader: FunctionInfo | None) -> Value | None:
        """The one function stored on ``self.attr`` by the class's methods; None when none is, or
        several are: the model follows classes, not instances, and cannot tell which instance
        holds which (an eager one may hold the other)."""
        key = (cls, attr)
        if reader is not None:
            self._self_function_readers.setdefault(key, set()).add(reader)
        found = self._self_functions.get(key)
        return found if found is not None and len(refs(found)) == 1 else None

    def apply_function_ref(
        self, ref: FunctionRef, context: int, passed: tuple[int, frozenset[str]] | None = None
    ) -> None:
        """Trace the function ``ref`` names as its transformations say (in code of level
        ``context``); ``passed``: what the calls of the outermost one pass, where all are in sight."""
        info = self.infos.get(ref.node)
        if info is None or not ref.layers:
            return
        layers = self.layers_of(ref)
        if layers:
            layers[-1].passed = passed
            self.apply_chain(Chain(info, layers, ref.offset, ref.bound), context)

    def layers_of(self, ref: FunctionRef) -> list[Layer]:
        """The transformations a function value carries, innermost first."""
        return [
            Layer(self.transforms[layer.transform], layer.call, layer.site, layer.offset, layer.bound)
            for layer in ref.layers
            if layer.transform in self.transforms
        ]

    # ----------------------------------------------------------------- flax

    def nnx_variables(self, cls: ast.ClassDef) -> dict[str, frozenset[str] | None] | None:
        """What a flax nnx module's ``__init__`` stores that an nnx transformation traces: each
        attribute set to an nnx variable (``self.n = nnx.Variable(jnp.array(3))``, None), or to
        an nnx layer, with the layer's variables (``self.lin = nnx.Linear(...)``: ``kernel``,
        ``bias``; measured). None when ``cls`` is no direct subclass of ``nnx.Module``; an
        attribute another method stores is left out."""
        scope = self._class_scope(cls)
        if not any(self.resolver.qualname(base, scope) in NNX_MODULES for base in cls.bases):
            return None
        layers = measured.nnx_layer_variables()
        found: dict[str, frozenset[str] | None] = {}
        for attr, stores in self.self_stores(cls).items():
            made = {
                self.resolver.qualname(store.value.func, self.index.scopes[store.method])
                for store in stores
                if store.method.name == "__init__" and isinstance(store.value, ast.Call)
            }
            if len(made) != 1 or len(stores) != 1:
                continue
            qualname = made.pop()
            if qualname in NNX_VARIABLES:
                found[attr] = None
            elif qualname in layers:
                found[attr] = layers[qualname]
        return found

    def is_flax_module(self, cls: ast.ClassDef) -> bool:
        """Whether ``cls`` is a flax linen module (a subclass of ``nn.Module``, here or in bases)."""
        found = self._flax_modules.get(cls)
        if found is None:
            found = self._flax_modules[cls] = self._is_flax_module(cls, self._class_scope(cls))
        return found

    def _is_flax_module(self, cls: ast.ClassDef, scope: Scope, depth: int = 0) -> bool:
        for base in cls.bases:
            if self.resolver.qualname(base, scope) in FLAX_MODULES:
                return True
            owner = scope.lookup(base.id) if isinstance(base, ast.Name) and depth < 8 else None
            parent = None if owner is None else owner.single_def(base.id)  # pyright: ignore[reportAttributeAccessIssue]
            if (
                isinstance(parent, ast.ClassDef)
                and owner is not None
                and self._is_flax_module(parent, owner, depth + 1)
            ):
                return True
        return False

    def _discover_lifted_module(self, call: ast.Call, scope: Scope, kind: Kind) -> None:
        """``nn.remat(Block, static_argnums=(2,))``: the lifted class's ``__call__`` is traced at
        once (``remat`` stages it, ``jit`` compiles it), every parameter but the module, the
        static positions (counted with the module as 0) and those left to their defaults."""
        from jaxlint.semantic.tracing import static_names, static_positions

        if keyword_argument(call, "methods") is not None:
            return  # the methods it names are lifted, with options of their own
        cls = self._class_before(call.args[0], scope, call) if call.args else None
        if cls is None or not self.is_flax_module(cls):
            return
        method = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__call__"), None)
        positions, names = static_positions(call), static_names(call)
        if method is None or positions is None or names is None:
            return
        info = self.infos[method]
        defaults = parameter_defaults(method.args)
        params = {
            name: TRACED
            for index, name in enumerate(info.positional_names())
            if index > 0 and index not in positions and name not in names and name not in defaults
        }
        if kind == "body":  # `nn.scan(Cell, ...)`: the carry, and the inputs it scans over
            params = _scanned_cell_parameters(call, info.positional_names(), defaults)
        if kind == "vmap":  # `nn.vmap(Block, in_axes=(0, None))`: an input mapped with `None` is not
            unmapped = _unmapped_lifted_inputs(call)
            if unmapped is None:
                return
            inputs = info.positional_names()[1:]
            params = {name: value for name, value in params.items() if inputs.index(name) not in unmapped}
        reason = f"`{cls.name}.__call__` is traced by `{ast.unparse(call.func)}` at line {call.lineno}"
        info.transformed_by.add(kind)
        level = ABSTRACT if kind == "vmap" else STAGED  # (`nn.vmap` maps without compiling)
        lifting = self.infos.get(scope.node)
        if lifting is not None:  # (its trace is part of the program of the method that lifts it)
            info.callers.add(lifting)
        if info.apply(level, params, reason):
            self.enqueue(info)

    def _injected_optimizer(self, func: ast.expr, scope: Scope) -> str | None:
        """``optax.sgd`` where ``func`` is ``optax.inject_hyperparams(optax.sgd)``: the optimizer
        it builds calls the schedules it is given as the wrapped one does."""
        if not isinstance(func, ast.Call) or not func.args:
            return None
        if self.resolver.qualname(func.func, scope) not in api.OPTIMIZER_WRAPPERS:
            return None
        wrapped = self.resolver.qualname(func.args[0], scope)
        return wrapped if wrapped in schedule_functions() else None

    def _discover_schedules(
        self, calls: list[tuple[ast.Call, Scope]], transformed: list[tuple[ast.Call, Transform]]
    ) -> None:
        """``optax.sgd(schedule)``: optax calls the schedule with the step count inside the
        ``update`` of the optimizer it builds, a tracer where that runs in traced code. Traced
        (staged) where a compiled or staged function of this module updates that optimizer: it
        calls ``N.update(...)`` on the name the optimizer was assigned to, or, for an optimizer
        handed over as ``tx=`` (flax's ``TrainState``), ``apply_gradients``; or where the
        optimizer's ``update`` itself is compiled (``jax.jit(tx.update)``)."""
        staged = [
            info for info in self.infos.values() if info.level >= STAGED and info.scope.called & UPDATING
        ]
        for call, scope in calls if staged or transformed else []:
            handle = self._optimizer_handle(call, scope)
            if handle is None:
                continue
            step = self._updated_in(handle, staged)
            site = next(
                (
                    (site, transform)
                    for site, transform in transformed
                    if transform.level >= STAGED and _updates_handle(site, transform, handle)
                ),
                None,
            )
            if step is not None or site is not None:
                self._trace_schedules(call, scope, step, site)

    def _trace_schedules(
        self,
        call: ast.Call,
        scope: Scope,
        step: FunctionInfo | None,
        site: tuple[ast.Call, Transform] | None,
    ) -> None:
        """Trace the schedules ``call`` (an optax optimizer) is given, as ``step`` runs its
        ``update`` traced, or the transformation at ``site`` compiles it."""
        qualname = self.resolver.qualname(call.func, scope) or self._injected_optimizer(call.func, scope)
        for name, position in schedule_parameters(qualname or ""):
            argument = keyword_argument(call, name)
            if argument is None and position is not None and position < len(call.args):
                argument = call.args[position]
            found = None if argument is None else self.resolve_function(argument, scope)
            if found is None and isinstance(argument, ast.Call):
                found = self.factory_result(argument, scope)  # `optax.sgd(make_schedule(...))`
            if found is None or found[1] or not found[0].positional_names():
                continue
            schedule = found[0]
            where = (
                f"in `{step.name}`"
                if step is not None
                else f"under `{ast.unparse(site[0].func)}` at line {site[0].lineno}"  # pyright: ignore[reportOptionalSubscript]
            )
            reason = (
                f"`{schedule.name}` is the `{name}` schedule of `{ast.unparse(call.func)}` at line "
                f"{call.lineno}: optax calls it with the step count, a tracer {where}"
            )
            if step is not None:
                schedule.callers.add(step)  # (its trace is part of `step`'s program)
            elif site is not None:
                schedule.transformed_by.add(site[1].kind)  # `jax.jit(tx.update)` compiles it
            if schedule.apply(STAGED, {schedule.positional_names()[0]: TRACED}, reason):
                self.enqueue(schedule)

    def _discover_custom_transformations(
        self, calls: list[tuple[ast.Call, Scope]], transformed: list[tuple[ast.Call, Transform]]
    ) -> None:
        """``optax.GradientTransformation(init_fn, update_fn)``: the optimizer's ``update`` runs
        ``update_fn``, traced (staged) where a compiled or staged function of this module updates
        that optimizer (see :meth:`_updated_in`), built here or by a factory returning it
        (``tx = optax.chain(count_updates(), optax.sgd(0.1))``); transformed as the optimizer's
        ``update`` is (``jax.jit(tx.update)``), with the same parameters. ``optax.stateless(f)``
        runs ``f`` with the updates and the parameters."""
        if not calls:
            return
        staged = [
            info for info in self.infos.values() if info.level >= STAGED and info.scope.called & UPDATING
        ]
        for call, scope in calls if staged or transformed else []:
            position, keyword, taken = api.CUSTOM_UPDATES[self.resolver.qualname(call.func, scope) or ""]
            update = keyword_argument(call, keyword) or (
                call.args[position] if len(call.args) > position else None
            )
            found = None if update is None else self.resolve_function(update, scope)
            if update is None or found is None or found[1]:
                continue
            for builder, where in self._builders_of(call, scope):
                handle = self._optimizer_handle(builder, where)
                if handle is None:
                    continue
                for site, transform in transformed:
                    if _updates_handle(site, transform, handle):
                        self._transform_update(update, scope, site, transform)
                step = self._updated_in(handle, staged)
                if step is None:
                    continue
                update_fn = found[0]
                reason = (
                    f"`{update_fn.name}` is the update of the `{ast.unparse(call.func)}` at line "
                    f"{call.lineno}, which `{step.name}` runs traced"
                )
                params = {name: TRACED for name in update_fn.positional_names()[:taken]}
                update_fn.transformed_by.add("body")
                update_fn.callers.add(step)
                if update_fn.apply(STAGED, params, reason):
                    self.enqueue(update_fn)
                break

    def _transform_update(self, update: ast.expr, scope: Scope, site: ast.Call, transform: Transform) -> None:
        """``jax.jit(tx.update)``: ``transform`` applied to the ``update`` function of the custom
        transformation ``tx`` is, which takes the optimizer's parameters in their order."""
        chain = self.resolve_chain(update, scope)
        if chain is None or chain.target is None:
            return
        chain.layers.append(Layer(transform, site, site, chain.offset, chain.bound))
        self.apply_chain(chain, NONE)
        self._transformed_updates[site] = chain.target.node

    def _builders_of(self, call: ast.Call, scope: Scope) -> list[tuple[ast.Call, Scope]]:
        """The calls that build the optimizer ``call`` makes: ``call`` itself, or, where a
        function of the module returns it (``return optax.GradientTransformation(...)``), each
        call of that function."""
        function = self.function_of(scope)
        returned = function is not None and any(
            isinstance(n, ast.Return) and n.value is call
            for n in own_nodes(getattr(function.node, "body", []))
        )
        if not returned or function is None or not isinstance(function.node, ast.FunctionDef):
            return [(call, scope)]
        owner = self.index.parents.get(function.node)
        uses = [
            use for use in self._loads.get(function.node.name, []) if owner and self._resolves_to(use, owner)
        ]
        calls = [(self.parent_map.get(use), self.scope_of_load(use)) for use in uses]
        return [(c, s) for c, s in calls if isinstance(c, ast.Call) and c.func in uses]

    @cached_property
    def _handles(self) -> Counter[str]:
        """How many assignments in the module bind each name or attribute (``tx = ...``,
        ``self.tx = ...``), and how many ``tx=`` keywords it passes (under ``"tx="``)."""
        found: Counter[str] = Counter()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
                    if name is not None:
                        found[name] += 1
            elif isinstance(node, ast.keyword) and node.arg == "tx":
                found["tx="] += 1
        return found

    def _optimizer_handle(self, call: ast.Call, scope: Scope) -> tuple[str, str] | None:
        """The name the optimizer ``call`` builds goes by, and the method that updates it:
        ``("tx", "update")`` for ``tx = optax.chain(...)``, ``("", "apply_gradients")`` for a
        ``TrainState`` given ``tx=...``. None where another optimizer may go by that name."""
        body = getattr(scope.node, "body", [])
        handle: str | None = None
        method = "update"
        for node in own_nodes(body if isinstance(body, list) else [body]):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and encloses(node.value, call):
                target = node.targets[0]
                handle = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
            elif isinstance(node, ast.keyword) and node.arg == "tx" and encloses(node.value, call):
                handle, method = "", "apply_gradients"
        if handle is None or self._handles.get(handle or "tx=", 0) != 1:
            return None  # another optimizer may go by that name: which one is updated is unknown
        if handle and method == "update":
            handle = self._chained_into(handle, body if isinstance(body, list) else [body], scope)
        return handle, method

    def _chained_into(self, handle: str, body: list[ast.stmt], scope: Scope) -> str:
        """The name of the optimizer the one named ``handle`` is chained into, where that is the
        one the code updates: ``tx = optax.chain(clip, optax.sgd(0.1))`` for ``clip`` (followed
        a few times); else ``handle``."""
        into: dict[str, str] = {}  # optimizer name -> the name of the optax call given it
        for node in own_nodes(body):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            value, target = node.value, node.targets[0]
            if (
                isinstance(value, ast.Call)
                and isinstance(target, ast.Name)
                and (self.resolver.qualname(value.func, scope) or "").startswith("optax.")
            ):
                into.update((a.id, target.id) for a in value.args if isinstance(a, ast.Name))
        for _ in range(4):
            chained = into.get(handle)
            if chained is None or self._handles.get(chained, 0) != 1:
                return handle
            handle = chained
        return handle

    def _updated_in(self, handle: tuple[str, str], staged: list[FunctionInfo]) -> FunctionInfo | None:
        """The staged function that updates the optimizer going by ``handle`` (see
        :meth:`_optimizer_handle`), or None."""
        name, method = handle
        for info in staged:
            body = getattr(info.node, "body", [])
            for node in own_nodes(body if isinstance(body, list) else [body]):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                receiver = node.func.value
                named = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", None)
                if node.func.attr == method and (not name or named == name):
                    return info
        return None

    def _class_before(self, expr: ast.expr, scope: Scope, call: ast.Call) -> ast.ClassDef | None:
        """The class ``expr`` names at ``call``: the one class of that name, or, for ``Block =
        nn.remat(Block)``, the last class of that name defined before the call."""
        found = self.class_named(expr, scope)
        if found is not None or not isinstance(expr, ast.Name):
            return found
        owner = scope.lookup(expr.id)
        body = getattr(owner.node, "body", []) if owner is not None else []
        before = [
            s for s in body if isinstance(s, ast.ClassDef) and s.name == expr.id and s.lineno < call.lineno
        ]
        return before[-1] if before else None

    def _discover_flax_methods(self, cls: ast.ClassDef) -> None:
        from jaxlint.semantic.tracing import flax_params

        class_scope = self.index.scopes[cls]
        for stmt in cls.body:
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            compact = any(
                self.resolver.qualname(d, class_scope) == "flax.linen.compact" for d in stmt.decorator_list
            )
            if stmt.name == "__call__" or compact:
                info = self.infos[stmt]
                reason = f"`{cls.name}.{stmt.name}` runs traced under flax `apply`/`init`"
                info.transformed_by.add("flax")
                if info.apply(ABSTRACT, flax_params(self, info), reason):
                    self.enqueue(info)


def _is_property(node: ast.FunctionDef) -> bool:
    """Whether ``node`` is decorated ``@property``. (A ``cached_property`` runs on the first read
    only, which may be an eager one.)"""
    return any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)


def _unpacked_keywords(call: ast.Call, scope: Scope) -> ast.Call | None:
    """``call`` with each ``**config`` it passes written out as the keywords it holds, where
    ``config`` is a dict display with string keys, or a name bound once to one
    (``config = {"normalize": True}``); None where some mapping's keys are not known."""
    if all(k.arg is not None for k in call.keywords):
        return call
    keywords: list[ast.keyword] = []
    for keyword in call.keywords:
        if keyword.arg is not None:
            keywords.append(keyword)
            continue
        mapping = keyword.value
        if isinstance(mapping, ast.Name):
            owner = scope.lookup(mapping.id)
            mapping = None if owner is None else owner.single_value(mapping.id)
        if not isinstance(mapping, ast.Dict):
            return None
        names = [
            k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None
            for k in mapping.keys
        ]
        if any(name is None for name in names):
            return None  # a computed key, or `**other` inside the display
        keywords += [ast.keyword(arg=name, value=v) for name, v in zip(names, mapping.values)]
    return ast.Call(func=call.func, args=call.args, keywords=keywords)


def _passing(calls: list[ast.Call]) -> tuple[int, frozenset[str]]:
    """What ``calls`` pass that ``jit`` traces: at most how many positional arguments, and which
    keywords. ``None`` (an empty pytree) and a string (not a JAX type: ``TypeError``, never a
    tracer) do not count; positions end at the first of them."""
    positional, keywords = 0, set()
    for call in calls:
        count = next((i for i, a in enumerate(call.args) if _untraceable_literal(a)), len(call.args))
        positional = max(positional, count)
        keywords |= {k.arg for k in call.keywords if k.arg is not None and not _untraceable_literal(k.value)}
    return positional, frozenset(keywords)


def _untraceable_literal(expr: ast.expr) -> bool:
    """``None`` and an empty display (empty pytrees: nothing to trace), a string (not a JAX type)."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        return not expr.elts
    if isinstance(expr, ast.Dict):
        return not expr.keys
    return isinstance(expr, ast.Constant) and (expr.value is None or isinstance(expr.value, (str, bytes)))


def _lives_across_calls(info: FunctionInfo, chain: Chain) -> bool:
    """Whether the function object a transform receives is the same on every call: a ``def`` of
    the module or of a class, not a lambda, a ``partial``, a bound method or a nested ``def``
    (``jax.checkpoint`` caches its trace on that object)."""
    if not isinstance(info.node, (ast.FunctionDef, ast.AsyncFunctionDef)) or info.parent is not None:
        return False
    if chain.offset or chain.bound:
        return False
    remat = next(layer for layer in chain.layers if layer.transform.kind == "remat")
    call = remat.call
    if call is None or any(remat.site is d for d in info.node.decorator_list):
        return True  # `@jax.checkpoint`, `@partial(jax.checkpoint, ...)`: applied once, to the def
    # `jax.checkpoint(f)`: the function itself, not a wrapper made where the call runs
    # (`jax.checkpoint(jax.named_call(f))`, `jax.checkpoint(jax.vmap(f))`)
    first = call.args[0] if call.args else None
    return remat is chain.layers[0] and (first is None or isinstance(first, (ast.Name, ast.Attribute)))


def _may_take_defaults(target: FunctionInfo | None) -> bool:
    """Whether a function has parameters with defaults (unknown: one of another module)."""
    return target is None or bool(parameter_defaults(target.node.args))


def _layer_spec(layer: Layer) -> LayerSpec:
    call = layer.call
    keywords: tuple[tuple[str, str], ...] = ()
    arguments: tuple[str, ...] = ()
    if call is not None:
        keywords = tuple((k.arg, ast.unparse(k.value)) for k in call.keywords if k.arg is not None)
        arguments = tuple(ast.unparse(a) for a in call.args[1:])
    passed = None if layer.passed is None else (layer.passed[0], tuple(sorted(layer.passed[1])))
    return LayerSpec(
        layer.transform.name, keywords, arguments, layer.offset, tuple(sorted(layer.bound)), passed
    )


def _tails(names: frozenset[str]) -> frozenset[str]:
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


@dataclass(frozen=True)
class SelfStore:
    """A store to ``self.<attr>`` in a method: ``self.attr = value`` (value None for an
    augmented or unpacking store)."""

    method: ast.FunctionDef | ast.AsyncFunctionDef
    target: ast.Attribute
    value: ast.expr | None


def _runs_lowered(call: ast.Call, lowered: dict[str, ast.Call]) -> str | None:
    """The name of a compiled or exported program (see ``_lowered_names``) that ``call`` runs:
    ``compiled(x)``, or ``exported.call(x)``; else None."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in lowered:
        return func.id
    if isinstance(func, ast.Attribute) and func.attr == "call" and isinstance(func.value, ast.Name):
        return func.value.id if func.value.id in lowered else None
    return None


def _draws_at(call: ast.Call, direct: set[int], names: frozenset[str], scope: Scope) -> str:
    """How ``call`` may consume a key: ``"draws"`` (a consumer, or a def that may draw, called by
    name), ``"handed"`` (a function that may draw passed to it: it consumes where the result is
    called), ``"kept"`` (that function mapped over a tree, or handed to ``partial``: it may
    consume more than once), else ``""``."""
    func = call.func
    tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if bound_rngs_keys(call):
        return "kept"  # `partial(model.apply, rngs={"dropout": key})` draws on every call
    if tail not in _NEVER_CALLING:
        for argument in call.args:
            if _may_be_drawing_function(argument, names, scope):
                return "kept" if tail in _KEEPING_CALLS else "handed"
    return "draws" if id(call) in direct or tail in names else ""


def _may_be_drawing_function(expr: ast.expr, names: frozenset[str], scope: Scope) -> bool:
    """Whether ``expr`` may be a function that consumes a key: a def that may draw, or a
    consumer, named by an attribute or by a name not bound here to something else."""
    if isinstance(expr, ast.Attribute):
        return expr.attr in names or expr.attr in api.RANDOM_CONSUMERS
    if not isinstance(expr, ast.Name) or (expr.id not in names and expr.id not in api.RANDOM_CONSUMERS):
        return False
    owner = scope.lookup(expr.id)
    return owner is None or expr.id in owner.defs or expr.id in owner.imports


def _reads_held_key(model: SemanticModel, info: FunctionInfo, node: ast.AST, this: list[str]) -> bool:
    """Whether ``node`` reads ``self.attr`` holding a key the object keeps from ``__init__``."""
    return (
        bool(this)
        and isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == this[0]
        and model.held_key(info, node) is not None
    )


def _is_staticmethod(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _accessed_key(node: ast.Subscript | ast.Attribute) -> object:
    """The constant key of ``x[key]``, or the attribute of ``x.attr``; None when not constant."""
    if isinstance(node, ast.Attribute):
        return node.attr
    index = node.slice
    return index.value if isinstance(index, ast.Constant) else None


# Methods that change a dict, list or set in place.
LITERAL_ARRAYS = frozenset({"jax.numpy.array", "jax.numpy.asarray"})


def _int_literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


_INITIALIZER_FACTORY_TAILS = frozenset(
    name.rsplit(".", 1)[1] for name in measured.key_consuming_initializers()
)
CUSTOM_TRANSFORMATIONS = frozenset(api.CUSTOM_UPDATES)


def _unmapped_lifted_inputs(call: ast.Call) -> set[int] | None:
    """The inputs (counted from 0 after the module) that ``nn.vmap(..., in_axes=...)`` hands over
    unmapped (``None``); None where ``in_axes`` is not a literal int or tuple."""
    in_axes = keyword_argument(call, "in_axes")
    if in_axes is None or (isinstance(in_axes, ast.Constant) and type(in_axes.value) is int):
        return set()
    if not isinstance(in_axes, ast.Tuple):
        return None
    unmapped = set()
    for index, axis in enumerate(in_axes.elts):
        if isinstance(axis, ast.Constant) and axis.value is None:
            unmapped.add(index)
        elif not (isinstance(axis, ast.Constant) and type(axis.value) is int):
            return None
    return unmapped


def _scanned_cell_parameters(call: ast.Call, names: list[str], defaults: Collection[str]) -> dict[str, Value]:
    """The parameters of a cell's ``__call__`` that ``nn.scan(Cell, in_axes=...)`` traces: the
    carry (after the module), and each input it scans over; not an input ``in_axes`` marks
    ``nn.broadcast`` (handed to every step as it is), nor one left to its default."""
    in_axes = keyword_argument(call, "in_axes")
    axes = in_axes.elts if isinstance(in_axes, (ast.Tuple, ast.List)) else None
    params: dict[str, Value] = {}
    if len(names) < 2:
        return params
    carry, *inputs = names[1:]
    params[carry] = TRACED
    for index, name in enumerate(inputs):
        axis = in_axes if axes is None else (axes[index] if index < len(axes) else None)
        broadcast = isinstance(axis, ast.Attribute) and axis.attr == "broadcast"
        if name not in defaults and (in_axes is None or (axis is not None and not broadcast)):
            params[name] = TRACED
    return params


def _transforms_an_update(call: ast.Call, transform: Transform) -> bool:
    """Whether ``call`` applies ``transform`` to an optimizer's ``update`` (``jax.jit(tx.update)``)."""
    return any(
        isinstance(target, ast.Attribute) and target.attr == "update"
        for target in function_arguments(call, transform)
    )


def _updates_handle(call: ast.Call, transform: Transform, handle: tuple[str, str]) -> bool:
    """Whether ``call`` transforms the ``update`` of the optimizer going by ``handle``."""
    name, method = handle
    return bool(name) and any(
        isinstance(target, ast.Attribute)
        and target.attr == method
        and (getattr(target.value, "id", None) or getattr(target.value, "attr", None)) == name
        for target in function_arguments(call, transform)
    )


def _literal_layout(expr: ast.expr) -> object:
    """The shape and kinds of numbers of a literal ``[[0, 1], [2, 3]]`` (None when it is not one)."""
    if isinstance(expr, (ast.List, ast.Tuple)):
        items = [_literal_layout(e) for e in expr.elts]
        if not items or any(i is None for i in items) or len(set(map(repr, items))) != 1:
            return None
        return (len(items), items[0])
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        return _literal_layout(expr.operand)
    if isinstance(expr, ast.Constant) and type(expr.value) in (int, float, bool):
        return type(expr.value).__name__
    return None


# `jax.numpy` functions about types, which return no array (`jnp.issubdtype`)
NOT_ARRAY_RESULTS = frozenset(
    {"dtype", "issubdtype", "iinfo", "finfo", "result_type", "promote_types", "can_cast", "isdtype"}
)

CONTAINER_MUTATORS = frozenset(
    {
        "update",
        "setdefault",
        "pop",
        "popitem",
        "clear",
        "append",
        "extend",
        "insert",
        "remove",
        "add",
        "discard",
    }
)


def _mutated_keys(call: ast.Call) -> list[object]:
    """The keys a mutating method call changes: ``update(lr=0.0)``/``update({"lr": 0.0})``,
    ``setdefault("lr", 0.0)``, ``pop("lr")``; ``[None]`` (any key) for the others."""
    method = call.func.attr  # pyright: ignore[reportAttributeAccessIssue]
    if method == "update" and len(call.args) <= 1:
        keys: list[object] = [k.arg for k in call.keywords if k.arg]
        if any(k.arg is None for k in call.keywords):
            return [None]
        if call.args:
            given = call.args[0]
            constants = (
                [k for k in given.keys if isinstance(k, ast.Constant)] if isinstance(given, ast.Dict) else []
            )
            if not isinstance(given, ast.Dict) or len(constants) != len(given.keys):
                return [None]
            keys += [k.value for k in constants]
        return keys
    if method in ("setdefault", "pop") and call.args and isinstance(call.args[0], ast.Constant):
        return [call.args[0].value]
    if method in ("append", "extend"):
        return [GROWN]
    return [None]


GROWN = object()  # a list grown at its end: its length and negative indices change, not `xs[0]`


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _unset_name(test: ast.expr) -> str | None:
    """``X`` of ``X is None`` or ``not X``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name):
        return test.operand.id
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return test.left.id
    return None


def _called_name(node: ast.AST) -> str | None:
    """``f`` of a call ``f(...)``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id
    return None


def _in_loop(function: ast.AST, node: ast.AST) -> bool:
    """Whether ``node`` is inside a loop or comprehension of ``function``'s own body."""
    return any(
        isinstance(loop, (ast.For, ast.AsyncFor, ast.While, *COMPREHENSIONS)) and encloses(loop, node)
        for loop in own_nodes(function.body)  # pyright: ignore[reportAttributeAccessIssue]
    )


def _keys_read(function: ast.AST, name: str) -> set[object] | None:
    """The constant keys and attributes ``function`` reads of ``name`` (``CONFIG["lr"]``,
    ``cfg.lr``); None where it also reads ``name`` as a whole (passes it, iterates it...)."""
    keys: set[object] = set()
    accessed: set[int] = set()
    getters = {  # `CONFIG.get("lr", 0.1)` reads the key "lr"
        id(node.func): node.args[0].value
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    for node in ast.walk(function):
        if (
            isinstance(node, (ast.Subscript, ast.Attribute))
            and isinstance(node.value, ast.Name)
            and node.value.id == name
        ):
            key = _accessed_key(node) if id(node) not in getters else getters[id(node)]
            if key is None:
                return None
            keys.add(key)
            accessed.add(id(node.value))
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and id(node) not in accessed:
            return None
    return keys


def _cleared_by(model: SemanticModel, calls: list[tuple[ast.Call, ast.AST | None]]) -> set[ast.AST] | None:
    """The functions whose cache ``calls`` clear (``f.clear_cache()``); None where they clear
    them all or turn jit off (``jax.clear_caches()``, ``jax.disable_jit``)."""
    cleared: set[ast.AST] = set()
    for call, _ in calls:
        func = call.func
        leaf = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if leaf in ("clear_caches", "disable_jit") or any(
            isinstance(a, ast.Constant) and a.value == "jax_disable_jit" for a in call.args
        ):
            return None
        if leaf == "clear_cache" and isinstance(func, ast.Attribute):
            found = refs(model.values.get(func.value, UNKNOWN))
            if not found:
                return None  # a cache of a function the model does not know
            cleared |= {ref.node for ref in found if isinstance(ref, FunctionRef)}
    return cleared


def _reads_any(call: ast.Call, names: set[str]) -> bool:
    return bool(names) and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(call))


# The calls and name stores of a block of code, each with the outermost loop of the block around it.
BlockCode = tuple[list[tuple[ast.Call, "ast.AST | None"]], list[tuple[ast.Name, "ast.AST | None", object]]]


def _node_position(info: FunctionInfo) -> tuple[int, int]:
    return _position(info.node)


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _stores_of(scope: Scope, name: str) -> list[ast.AST]:
    """Assignments to ``name`` directly inside a function (not in nested functions)."""
    found: list[ast.AST] = []
    body = getattr(scope.node, "body", [])
    stack: list[ast.AST] = list(body) if isinstance(body, list) else [body]
    while stack:
        node = stack.pop()
        if isinstance(node, (*FUNCTION_NODES, ast.ClassDef)):
            continue
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _last_name(expr: ast.Name | ast.Attribute) -> str:
    return expr.id if isinstance(expr, ast.Name) else expr.attr


def _loop_condition(call: ast.Call) -> ast.expr | None:
    """The ``cond_fun`` argument of a ``lax.while_loop`` call."""
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "cond_fun"), None)


def _called_with_key(call: ast.Call) -> bool:
    """``self.dropout(x, key=k)``: a method of an object (a layer) handed a key by keyword; or
    a layer made on the spot, ``nn.Dropout(0.5)(x, rng=k)``."""
    if isinstance(call.func, ast.Call):
        return any(k.arg in ("key", "rng") for k in call.keywords)
    return isinstance(call.func, ast.Attribute) and any(k.arg == "key" for k in call.keywords)


__all__ = ["HOST", "FunctionInfo", "FunctionNode", "SemanticModel", "api"]
