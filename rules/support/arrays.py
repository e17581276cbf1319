"""Is the container in ``x[i] = v`` a JAX array? The evidence the in-place mutation rules need.

In order of strength:

1. the model knows ``x`` is a JAX array (``jnp``/``lax``/``jax.random`` results, array-annotated
   parameters, traced arrays);
2. ``x`` holds tracers and the index proves it is an array, not a list or dict: the index is
   itself a tracer (unhashable, and no valid list index) or a multi-axis index with a slice;
3. ``x`` is traced and not known to be a container (a traced leaf is a tracer, which is a JAX
   array), assigned a number, and never used as a list or dict in its function;
4. ``x`` is a plain parameter in a module whose only array library is ``jax.numpy``, with the
   same conditions.
"""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.fixing.plans import ClosedOver, LocalLeaf, RecordField
from jaxlint.semantic import api
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import FUNCTION_NODES, Scope
from jaxlint.semantic.tracing import annotation_kind
from jaxlint.semantic.transforms import CONCRETE
from jaxlint.semantic.values import (
    InstanceRef,
    is_container,
    is_jax_array,
    is_nnx_variable,
    is_static,
    is_traced,
    record_kind,
    refs,
)

from .blocks import is_local_name, names_by_function, own_nodes
from .callsites import passed_arguments
from .explain import snippet, why_traced
from .paths import path_root, plain_path

MUTABLE_REFERENCE_MODULES = (
    "jax.experimental.pallas",
    "jax._src.pallas",
    "flax.nnx",
    "jax.new_ref",
    "jax.experimental.mutable_array",
)


def array_evidence(ctx: Context, target: ast.Subscript, stored: ast.expr) -> str | None:
    """Why ``target.value`` is a JAX array, as a message fragment; None when unknown."""
    index = target.slice
    if isinstance(index, ast.JoinedStr) or (isinstance(index, ast.Constant) and isinstance(index.value, str)):
        return None  # `d["key"] = v`: no array takes a string index (asked first: values cost analyses)
    base = target.value
    value = ctx.value(base)
    name = snippet(ctx, base)
    if is_jax_array(value):
        return f"`{name}` is a JAX array" + (
            f", a tracer: {why_traced(ctx, base)}" if is_traced(value) else ""
        )
    if is_traced(value) and _index_proves_array(ctx, target.slice):
        return f"`{name}` holds tracers and is indexed like an array"
    if is_traced(value) and not is_container(value) and _plausible_store(ctx, base, target.slice, stored):
        return f"`{name}` is a tracer: {why_traced(ctx, base)}"
    if isinstance(base, ast.Name) and _presumed_array(ctx, base.id, target.slice, stored):
        return f"`{name}` is taken to be a JAX array (this module's only array library is jax.numpy)"
    return passed_array(ctx, base) or _linen_variables_leaf(ctx, base) or _optimizer_state_leaf(ctx, base)


def _optimizer_state_leaf(ctx: Context, base: ast.expr) -> str | None:
    """Why ``base`` is a JAX array: a part, a string key deep or more, of the state an optax
    optimizer's ``init`` or ``update`` returns (``state[0].mu["w"]``). Every leaf of that state
    is a JAX array (``jnp.zeros_like`` of the parameters, the step count), and its dicts are the
    parameters', keyed by strings: a part indexed otherwise is one of its arrays."""
    root, keyed = base, False
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        index = root.slice if isinstance(root, ast.Subscript) else None
        keyed = keyed or (isinstance(index, ast.Constant) and isinstance(index.value, str))
        root = root.value
    if not keyed or not isinstance(root, ast.Name):
        return None
    owner = ctx.scope.lookup(root.id)
    made = _optimizer_states(ctx, owner, root.id) if owner is not None else None
    if made is None:
        return None
    return (
        f"`{snippet(ctx, base)}` is a leaf of the state `{snippet(ctx, made.func)}(...)` returns "
        f"(line {made.lineno}), a JAX array: every leaf of an optax state is one"
    )


def _optimizer_states(ctx: Context, owner: Scope, name: str) -> ast.Call | None:
    """The first ``tx.init(...)``/``tx.update(...)`` call binding ``name`` in ``owner``, where
    every binding of it takes the state such a call returns, ``tx`` an optax optimizer."""
    body = getattr(owner.node, "body", None)
    if not isinstance(body, list):
        return None
    found: list[ast.Call] = []
    for node in own_nodes(body):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Name) and target.id == name:
            found.append(value if _optimizer_call(ctx, value, owner, "init") else None)  # pyright: ignore[reportArgumentType]
        elif isinstance(target, ast.Tuple) and any(
            isinstance(e, ast.Name) and e.id == name for e in target.elts
        ):
            second = (
                len(target.elts) == 2 and isinstance(target.elts[1], ast.Name) and target.elts[1].id == name
            )
            found.append(value if second and _optimizer_call(ctx, value, owner, "update") else None)  # pyright: ignore[reportArgumentType]
    if not found or len(found) != owner.bound.get(name) or any(call is None for call in found):
        return None
    return found[0]


def _optimizer_call(ctx: Context, value: ast.expr, owner: Scope, method: str) -> bool:
    """``tx.init(params)`` (``method``) where ``tx`` is bound once to ``optax.adam(...)`` (any
    optax call)."""
    if not (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == method
    ):
        return False
    optimizer = value.func.value
    made = owner.single_value(optimizer.id) if isinstance(optimizer, ast.Name) else optimizer
    return isinstance(made, ast.Call) and (ctx.model.qualname(made.func, owner) or "").startswith("optax.")


def _linen_variables_leaf(ctx: Context, base: ast.expr) -> str | None:
    """Why ``base`` is a JAX array: an entry, two string keys deep or more, of the variables a
    flax linen module's ``init`` returns (``variables["params"]["bias"]``). Every key of that
    tree is a string, so an entry indexed otherwise is one of its arrays."""
    keys = 0
    root = base
    while (
        isinstance(root, ast.Subscript)
        and isinstance(root.slice, ast.Constant)
        and isinstance(root.slice.value, str)
    ):
        keys += 1
        root = root.value
    if keys < 2 or not isinstance(root, ast.Name):
        return None
    owner = ctx.scope.lookup(root.id)
    made = owner.single_value(root.id) if owner is not None else None
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute) and made.func.attr == "init"):
        return None
    if owner is None or not _linen_module(ctx, made.func.value, owner):  # `Net().init`, `model.init`
        return None
    return (
        f"`{snippet(ctx, base)}` is an entry of the variables `{snippet(ctx, made.func)}(...)` returns "
        f"(line {made.lineno}), a JAX array: every key of that tree is a string"
    )


def _linen_module(ctx: Context, module: ast.expr, owner: Scope) -> bool:
    """Whether ``module`` (whose ``init`` is called) is a flax linen module: an instance of a
    linen class of this module, or one of flax's own (``nn.Dense(3)``), made there or bound to
    that name once."""
    construction = owner.single_value(module.id) if isinstance(module, ast.Name) else module
    if isinstance(construction, ast.Call):
        qualname = ctx.model.qualname(construction.func, owner) or ""
        if qualname.startswith("flax.linen.") and qualname.rsplit(".", 1)[1][:1].isupper():
            return True
    classes = [ref.node for ref in refs(ctx.model.value(module, owner)) if isinstance(ref, InstanceRef)]
    if not classes and isinstance(construction, ast.Call):
        found = ctx.model.class_named(construction.func, owner)
        classes = [found] if found is not None else []
    return bool(classes) and all(ctx.model.is_flax_module(cls) for cls in classes)


def passed_array(ctx: Context, base: ast.expr) -> str | None:
    """Why ``base``, a parameter of the current function, is a JAX array: every call in sight
    passes one (``boost(jnp.ones(8), 2)``), as a message fragment; None otherwise. So is the
    variable of a loop over such a parameter (``for row in batch:``): a row of it."""
    function = ctx.function
    if not isinstance(base, ast.Name) or function is None:
        return None
    source = _iterated(function, base.id)
    argument = _passed_array_argument(ctx, function, source.id if source is not None else base.id)
    if argument is None:
        return None
    what = f"a row of `{source.id}`, a JAX array" if source is not None else "a JAX array"
    return (
        f"`{base.id}` is {what}: every call passes one (`{snippet(ctx, argument)}`, line {argument.lineno})"
    )


def _passed_array_argument(ctx: Context, function: FunctionInfo, name: str) -> ast.expr | None:
    """The first argument of the calls in sight of ``function``, each of which passes a JAX
    array for its parameter ``name``; None where some call passes something else."""
    passed = passed_arguments(ctx.model, function, name)
    if not passed or not all(_jax_array_call(ctx, arg, scope) for arg, scope in passed):
        return None
    return passed[0][0]


def _iterated(function: FunctionInfo, name: str) -> ast.Name | None:
    """The parameter a loop variable ``name``, bound by nothing else, iterates over
    (``for row in batch:``)."""
    if function.scope.bound.get(name) != 1:
        return None
    for node in own_nodes(getattr(function.node, "body", [])):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == name:
            source = node.iter
            return source if isinstance(source, ast.Name) and source.id in function.scope.params else None
    return None


def _jax_array_call(ctx: Context, expr: ast.expr, scope: Scope, depth: int = 0) -> bool:
    """Whether ``expr`` is written as a call of JAX (``jnp.ones(8)``), or a name bound once to
    one: read from the source, without asking the model to analyse the caller (but at module
    level, which the model has analysed already: ``q = jnp.array(...)`` then ``q = pop(q)``)."""
    if isinstance(expr, ast.Name) and depth == 0:
        if scope.lookup(expr.id) is ctx.model.index.module and is_jax_array(ctx.model.value(expr, scope)):
            return True  # (`logits = score(w, x)`, a jitted function's result)
        found = scope.bound_value(expr.id)
        return found is not None and _jax_array_call(ctx, found[0], found[1], 1)
    if not isinstance(expr, ast.Call):
        return False
    qualname = ctx.model.qualname(expr.func, scope) or ""
    return qualname.startswith(("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn."))


def assignable(base: ast.expr) -> bool:
    """Whether ``base = ...`` is a valid assignment: a name, or a field or item of one
    (``(a or b)[i] = v`` has no functional form that can be assigned back)."""
    while isinstance(base, (ast.Attribute, ast.Subscript)):
        base = base.value
    return isinstance(base, ast.Name)


def held_by_record_or_pytree(ctx: Context, base: ast.expr) -> bool:
    """``held_by_pytree``, or a field of a known NamedTuple or dataclass even where it is not
    traced (a module-level record): ``STATE.value = ...`` fails on a NamedTuple there too."""
    if isinstance(base, ast.Attribute) and is_nnx_variable(ctx.value(base.value)):
        return False  # `var.value = ...` sets an nnx variable's value in place
    if held_by_pytree(ctx, base):
        return True
    return isinstance(base, ast.Attribute) and record_kind(ctx.value(base.value)) is not None


def held_by_pytree(ctx: Context, base: ast.expr) -> bool:
    """Whether the array in ``base[i] = v`` is a part of a traced pytree (``state.x``,
    ``pair[1]``): rebinding it in place (``state.x = ...``) fails on a NamedTuple, a tuple or a
    frozen dataclass, so the updated array has to go into a new pytree."""
    return isinstance(base, (ast.Attribute, ast.Subscript)) and is_traced(ctx.value(base.value))


def dict_entry(ctx: Context, base: ast.expr) -> bool:
    """``params["b"]``: an entry of a dict under a string key, which can be assigned anew (a
    tuple, a NamedTuple or a frozen dataclass cannot take a string index, or be assigned to)."""
    return (
        isinstance(base, ast.Subscript)
        and isinstance(base.slice, ast.Constant)
        and isinstance(base.slice.value, str)
        and record_kind(ctx.value(base.value)) is None
    )


def record_field(ctx: Context, base: ast.expr) -> RecordField | None:
    """``state.value`` where the local name ``state`` holds a known NamedTuple or dataclass, or
    a traced pytree of unknown class whose field the module's pytree classes declare, all of one
    kind: the updated array can go into a new record bound to the same name."""
    if not isinstance(base, ast.Attribute) or not isinstance(base.value, ast.Name):
        return None
    value = ctx.value(base.value)
    kind = record_kind(value)
    if kind is None and is_traced(value) and not is_jax_array(value):
        kind = ctx.model.record_kind_of_field(base.attr)
    if kind is None or not is_local_name(ctx, base.value.id):
        return None
    return RecordField(base.value.id, base.attr, kind)


def local_leaf(ctx: Context, statement: ast.stmt, leaf: ast.expr) -> LocalLeaf | None:
    """The update of ``leaf`` (``pair[1]``, ``state.value`` of a record of unknown kind, a global
    ``STATE``), made by ``statement``, as a new local name: when ``statement`` is one of the
    function's own top-level statements, no function or class defined in it mentions the
    leaf's owner, and every later mention of the owner reads the same leaf. The function then
    computes what it meant to; other holders of the owner do not see the update (unsafe)."""
    info = ctx.function
    node = info.node if info is not None else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not plain_path(leaf):
        return None
    position = next((i for i, s in enumerate(node.body) if s is statement), None)
    owner = path_root(leaf)
    if position is None or owner is None:
        return None
    if isinstance(leaf, ast.Name) and is_local_name(ctx, owner):
        return None  # a local array is rebound in place
    if owner in info.scope.globals or owner in info.scope.nonlocals:  # pyright: ignore[reportOptionalMemberAccess]
        return None  # declared `global`: the module's value is what should change
    if any(_defines_a_reader(inner, owner) for inner in ast.walk(node) if inner is not node):
        return None  # a nested function may read the owner at any time
    if owner not in info.scope.bound and _read_by_other_functions(ctx, node, owner):  # pyright: ignore[reportOptionalMemberAccess]
        return None  # a global other functions read: they would still see the old array
    written = ast.unparse(leaf)
    if _aliased_before(node.body[:position], owner, written):
        return None  # a name bound to the owner or the leaf earlier would keep the old array
    reads: list[ast.expr] = []
    mentions = 0
    for later in node.body[position + 1 :]:
        for inner in ast.walk(later):
            if isinstance(inner, ast.Name) and inner.id == owner:
                mentions += 1
            if not isinstance(inner, (ast.Name, ast.Attribute, ast.Subscript)) or path_root(inner) != owner:
                continue
            text = ast.unparse(inner)
            stored = not isinstance(getattr(inner, "ctx", None), ast.Load)
            if stored and text.startswith(written):
                return None  # the leaf (or a part of it) is updated again later: fixed first
            if type(inner) is type(leaf) and text == written:
                reads.append(inner)
    if mentions != len(reads):
        return None  # the owner is used whole (returned, passed on) or rebound
    return LocalLeaf(_leaf_name(leaf), tuple(reads))


def closed_over(ctx: Context, base: ast.expr) -> ClosedOver | None:
    """``x`` in ``x[i] = v`` (or ``x.at[i].set(v)``) when it is a name of the function around
    this one (not of the module), and this function is a plain nested ``def`` that the one around
    only calls, directly: both run in one trace, so ``nonlocal x`` lets the fix rebind it."""
    info = ctx.function
    parent = info.parent if info is not None else None
    if not isinstance(base, ast.Name) or info is None or parent is None:
        return None
    name, node, outer = base.id, info.node, parent.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.decorator_list:
        return None
    if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) or name not in parent.scope.bound:
        return None
    if (
        name in info.scope.globals
        or name in parent.scope.globals
        or (name in info.scope.bound and name not in info.scope.nonlocals)
    ):
        return None
    if info.transformed_by or info.repeated_by or info.jit_sites or not _only_called(outer, node.name):
        return None  # run by a transform, or handed on: it may run in a trace of its own
    return ClosedOver(name, node, name in info.scope.nonlocals)


def _only_called(outer: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether every mention of ``name`` in ``outer`` (outside the functions nested there) is
    the callee of a call."""
    mentions = calls = 0
    for node in own_nodes(outer.body):
        if isinstance(node, ast.Name) and node.id == name:
            mentions += 1
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            calls += 1
    return mentions == calls > 0


def _aliased_before(statements: list[ast.stmt], owner: str, written: str) -> bool:
    """Whether the statements before the update mention the owner through the leaf's path or a
    part of it (``p = pair``, ``w = pair[1]``, ``a, b = pair``), rather than another leaf."""
    for statement in statements:
        for inner in ast.walk(statement):
            if isinstance(inner, (ast.Name, ast.Attribute, ast.Subscript)) and path_root(inner) == owner:
                text = ast.unparse(inner)
                if written.startswith(text) and _whole_path(inner, statement):
                    return True
    return False


def _whole_path(node: ast.expr, statement: ast.stmt) -> bool:
    """Whether ``node`` is the longest path at its place (not the ``pair`` of ``pair[0]``)."""
    for inner in ast.walk(statement):
        if isinstance(inner, (ast.Attribute, ast.Subscript)) and inner.value is node:
            return False
    return True


def _read_by_other_functions(ctx: Context, function: ast.AST, name: str) -> bool:
    """Whether a function other than ``function`` (and those nested in it) names ``name``."""
    return any(
        name in names and other is not function and not encloses(function, other)
        for other, names in names_by_function(ctx).items()
    )


def _defines_a_reader(node: ast.AST, owner: str) -> bool:
    return isinstance(node, (*FUNCTION_NODES, ast.ClassDef)) and any(
        isinstance(inner, ast.Name) and inner.id == owner for inner in ast.walk(node)
    )


def _leaf_name(leaf: ast.expr) -> str:
    """A name for the updated leaf: the field (``value``), a string entry, a global's name in
    lower case, else ``item``."""
    if isinstance(leaf, ast.Attribute):
        return leaf.attr
    if isinstance(leaf, ast.Name):
        return leaf.id.lower()
    entry = leaf.slice if isinstance(leaf, ast.Subscript) else None
    if isinstance(entry, ast.Constant) and isinstance(entry.value, str) and entry.value.isidentifier():
        return entry.value
    return "item"


def rebinding_advice(ctx: Context, base: ast.expr, updated: str) -> str:
    """``base = updated``; for a global or closed-over name, which that assignment would make
    local, a new local name instead."""
    if isinstance(base, ast.Name) and not is_local_name(ctx, base.id):
        return (
            f"a new local name, `{_leaf_name(base)} = {updated}` (assigning `{base.id}` here "
            f"would make it local to the function)"
        )
    return f"`{snippet(ctx, base)} = {updated}`"


def pytree_update(ctx: Context, base: ast.expr, updated: str) -> str:
    """How to put ``updated`` (the new value of ``base``, a part of a traced pytree) into a
    new pytree, as advice."""
    owner = snippet(ctx, base.value)  # pyright: ignore[reportAttributeAccessIssue]
    kind = record_kind(ctx.value(base.value))  # pyright: ignore[reportAttributeAccessIssue]
    if isinstance(base, ast.Attribute) and kind == "tuple":
        return f"`{owner} = {owner}._replace({base.attr}={updated})`"
    if isinstance(base, ast.Attribute) and kind == "layer":
        return f"`{owner} = eqx.tree_at(lambda m: m.{base.attr}, {owner}, {updated})`"
    if isinstance(base, ast.Attribute) and kind == "dataclass":
        return f"`{owner} = dataclasses.replace({owner}, {base.attr}={updated})`"
    if (
        isinstance(base, ast.Subscript)
        and isinstance(base.slice, ast.Constant)
        and isinstance(base.slice.value, str)
    ):
        return f"`{snippet(ctx, base)} = {updated}`"  # a dict entry takes a new value
    return f"`{updated}`, in a new `{owner}`"


def _index_proves_array(ctx: Context, index: ast.expr) -> bool:
    if is_traced(ctx.value(index)):
        return True
    if isinstance(index, ast.Tuple):
        return any(
            isinstance(e, ast.Slice) or (isinstance(e, ast.Constant) and e.value in (None, Ellipsis))
            for e in index.elts
        )
    return False


def _presumed_array(ctx: Context, name: str, index: ast.expr, stored: ast.expr) -> bool:
    """An untouched parameter of a module whose only array library is JAX, stored into as
    an array is (a number at an index that is not a string)."""
    function = ctx.function
    model = ctx.model
    if function is None or not model.jax_is_only_array_library:
        return False
    scope = function.scope
    param = next((p for p in function.param_nodes() if p.arg == name), None)
    if param is None or scope.bound.get(name) != 1:
        return False
    if param.annotation is not None and annotation_kind(model, param.annotation, function) != "array":
        return False
    if _default_of(function.node.args, name) is not None:
        return False
    return _plausible_store(ctx, ast.Name(name), index, stored)


def _plausible_store(ctx: Context, base: ast.expr, index: ast.expr, stored: ast.expr) -> bool:
    """Whether ``base[index] = stored`` stores into an array, for a ``base`` that is an array
    unless it is a container: a number at an index that is not a string, into something the
    function never uses as a container, in a module without mutable references (Pallas,
    ``flax.nnx``: their ``x[...] = v`` is legal)."""
    function = ctx.function
    if function is None:
        return False
    if isinstance(index, (ast.JoinedStr, ast.Constant)) and isinstance(
        getattr(index, "value", ""), (str, bytes)
    ):
        return False
    if isinstance(index, ast.JoinedStr) or not _is_numeric(ctx, stored):
        return False
    root = _root_name(base)
    if root is None or _mentions_ellipsis(index) or root.endswith("ref") or _uses_mutable_references(ctx):
        return False
    return not (isinstance(base, ast.Name) and used_as_container(ctx, function.node, root))


def _root_name(expr: ast.expr) -> str | None:
    """The name ``expr`` reads through subscripts and attributes (``pair`` in ``pair[1]``)."""
    while isinstance(expr, (ast.Subscript, ast.Attribute)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _mentions_ellipsis(index: ast.expr) -> bool:
    """``x[...] = v`` writes a whole mutable reference (a Pallas ``Ref``, an nnx ``Variable``)."""
    return any(isinstance(n, ast.Constant) and n.value is Ellipsis for n in ast.walk(index))


def _uses_mutable_references(ctx: Context) -> bool:
    """Modules using Pallas, ``flax.nnx`` or ``jax.new_ref`` assign into mutable references."""
    key = "mutable-references"
    cached = ctx.memo.get(key)
    if cached is None:
        cached = any(
            qualname.startswith(MUTABLE_REFERENCE_MODULES)
            for scope in [ctx.model.index.module, *ctx.model.index.functions]
            for qualname in scope.imports.values()
        ) or any(maker in line for line in ctx.lines for maker in REFERENCE_MAKERS)
        ctx.memo[key] = cached
    return cached


# calls that make a mutable array, however the module reaches them (`jax.new_ref(...)`)
REFERENCE_MAKERS = ("new_ref(", "mutable_array(", "empty_ref(")


def _default_of(args: ast.arguments, name: str) -> ast.expr | None:
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    pairs += [(p, d) for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    for param, default in pairs:
        if param.arg == name and not (isinstance(default, ast.Constant) and default.value is None):
            return default
    return None


def _is_numeric(ctx: Context, expr: ast.expr) -> bool:
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float, complex)) and expr.value is not None
    if isinstance(expr, ast.UnaryOp):
        return _is_numeric(ctx, expr.operand)
    if isinstance(expr, ast.BinOp):
        return _is_numeric(ctx, expr.left) and _is_numeric(ctx, expr.right)
    value = ctx.value(expr)
    return is_jax_array(value) or is_traced(value)


def used_as_container(ctx: Context, function: ast.AST, name: str) -> bool:
    """Whether ``function`` uses ``name`` as a list, dict or set: calls a method only those have
    (``.items()``), tests membership in it, iterates it, indexes it with a string or asks
    ``isinstance`` about it."""
    key = ("container-use", function, name)
    cached = ctx.memo.get(key)
    if cached is None:
        cached = any(_container_use(node, name) for node in ast.walk(function))
        ctx.memo[key] = cached
    return cached


def _container_use(node: ast.AST, name: str) -> bool:
    def is_name(expr: ast.AST) -> bool:
        return isinstance(expr, ast.Name) and expr.id == name

    if isinstance(node, ast.Attribute) and is_name(node.value):
        return node.attr in api.CONTAINER_METHODS
    if isinstance(node, ast.Compare):
        return any(
            isinstance(op, (ast.In, ast.NotIn)) and is_name(right)
            for op, right in zip(node.ops, node.comparators)
        )
    if isinstance(node, (ast.For, ast.comprehension)):
        return is_name(node.iter)
    if isinstance(node, ast.Subscript) and is_name(node.value):
        return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
        return bool(node.args) and is_name(node.args[0])
    return False


def rewrite_is_safe(ctx: Context, base: ast.expr) -> bool:
    """Whether ``x = x.at[i].set(v)`` keeps the program's meaning for this ``x``.

    It does when ``x`` is a local name nobody else holds: a tracer inside traced code (callers'
    arrays are never mutated under ``jit``) or a JAX array the function created, never aliased by
    ``y = x`` / ``x = y``. A parameter of eager code may be a NumPy array its caller expects mutated.
    """
    function = ctx.function
    if not isinstance(base, ast.Name) or function is None:
        return False
    value = ctx.value(base)
    untouched_param = base.id in {p.arg for p in function.param_nodes()} and (
        function.scope.bound.get(base.id) == 1
    )
    if not (is_traced(value) and ctx.traced) and (untouched_param or not is_jax_array(value)):
        return False
    return not _aliased(ctx, function.node, base.id)


def leaf_rewrite_is_safe(ctx: Context, base: ast.expr) -> bool:
    """Whether writing an updated leaf back into its pytree here (a new dict entry, record or
    local name) keeps the program's meaning: the function is entered only through
    transformations that trace it, `grad` included (an in-place write raised on every run in sight, and they hand
    it pytrees of their own, which no caller holds), and the pytree is a parameter that no other
    name in the function holds, nor any part of it (``b = params["b"]`` would keep the old leaf)."""
    function = ctx.function
    root = path_root(base)
    if function is None or root is None or not ctx.model.entered_only_by_transforms(function, CONCRETE):
        return False  # (a `grad` tracer takes no item assignment either)
    params = [p.arg for p in function.param_nodes()]
    if function.is_method and params and root == params[0]:
        return False  # `self`: the object the method is bound to outlives the call
    untouched = root in params and function.scope.bound.get(root) == 1
    return untouched and not _aliased(ctx, function.node, root) and not _part_held(function.node, root)


def _part_held(function: ast.AST, name: str) -> bool:
    """Whether ``function`` binds a name to a part of ``name`` (``b = params["b"]``, ``w = state.w``)."""
    return any(
        isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr))
        and isinstance(node.value, (ast.Subscript, ast.Attribute))
        and path_root(node.value) == name
        for node in ast.walk(function)
    )


def _aliased(ctx: Context, function: ast.AST, name: str) -> bool:
    key = ("aliased", function, name)
    cached = ctx.memo.get(key)
    if cached is None:
        cached = False
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                value = node.value
                if isinstance(value, ast.Name) and (value.id == name or name in names):
                    cached = True
                    break
        ctx.memo[key] = cached
    return cached


ELEMENTWISE_CALLS = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "isnan isinf isfinite isneginf isposinf signbit logical_not logical_and logical_or "
        "logical_xor abs absolute sign greater greater_equal less less_equal equal not_equal "
        "isclose"
    ).split()
)


def same_shape_mask(ctx: Context, mask: ast.expr, base: ast.expr, items: bool = False) -> bool:
    """Whether ``mask`` is computed elementwise from ``base`` (a name, or a field path such as
    ``batch.value``; with ``items``, constant items too: ``pair[1]``) and scalars, so it has its
    shape and ``jnp.where(mask, v, base)`` updates exactly the masked elements."""
    if not _field_path(base, items):
        return False
    written = ast.unparse(base)
    mentions = False
    stack: list[ast.AST] = [mask]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and ast.unparse(node) == written:
            mentions = True
            continue
        if isinstance(node, ast.Name):
            if not is_static(ctx.value(node)):
                return False
        elif isinstance(node, ast.Call):
            if ctx.qualname(node.func) not in ELEMENTWISE_CALLS:
                return False
            stack.extend([*node.args, *(k.value for k in node.keywords)])
            continue
        elif isinstance(node, (ast.Subscript, ast.Attribute, ast.Lambda, ast.NamedExpr)):
            return False
        stack.extend(ast.iter_child_nodes(node))
    return mentions


def _field_path(node: ast.expr, items: bool = False) -> bool:
    """A name, or fields of a name: ``x``, ``batch.value``; with ``items``, also constant items
    (``pair[1]``, ``params["w"]``)."""
    while isinstance(node, ast.Attribute) or (
        items and isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
    ):
        node = node.value
    return isinstance(node, ast.Name)


def static_index(ctx: Context, index: ast.expr) -> bool:
    """An index built from constants, slices and static names: it cannot hold duplicates."""
    for node in ast.walk(index):
        if isinstance(node, ast.Name) and not is_static(ctx.value(node)):
            return False
        if isinstance(node, (ast.Call, ast.Attribute, ast.Subscript)):
            return False
    return True


def scalar_fill(ctx: Context, value: ast.expr) -> bool:
    """Whether ``value`` is one Python scalar (a literal, or a static name), which
    ``jnp.where(mask, value, x)`` puts where ``x.at[mask].set(value)`` would: an array value
    fills the masked places in order there, elementwise here."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        value = value.operand
    if isinstance(value, ast.Constant):
        return isinstance(value.value, (bool, int, float))
    found = ctx.value(value)
    return isinstance(value, ast.Name) and is_static(found) and not is_container(found)


def keeps_dtype(value: ast.expr) -> bool:
    """Whether ``jnp.where(mask, value, x)`` keeps ``x``'s dtype whatever it is, as
    ``x.at[mask].set(value)`` does: a bool literal (the lowest type). An int literal makes a
    boolean ``x`` int32, a float literal an integer ``x`` float (measured, JAX 0.10.2)."""
    return isinstance(value, ast.Constant) and type(value.value) is bool
