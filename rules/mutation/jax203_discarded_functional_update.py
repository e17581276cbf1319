"""JAX203: ``x.at[i].set(v)`` as a statement: the updated array is thrown away."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import ClosedOver, LocalLeaf, RecordField
from jaxlint.semantic import api
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.values import is_traced, record_kind

from ..support.arrays import (
    closed_over,
    leaf_rewrite_is_safe,
    local_leaf,
    pytree_update,
    rebinding_advice,
    record_field,
)
from ..support.blocks import is_local_name
from ..support.explain import snippet
from ..support.lifetimes import is_self, method_runs_on_outer_object, outlives_trace, self_outlives_trace


@dataclass(frozen=True)
class AssignBack(FixRequest):
    """``x.at[i].set(v)`` as a statement -> ``x = x.at[i].set(v)`` (``x`` a name or attribute);
    with ``leaf`` (a leaf the function cannot assign into), a new local name the later reads take;
    with ``record`` (a field of a record), the record rebuilt around the update."""

    leaf: LocalLeaf | ClosedOver | None = None
    record: RecordField | None = None
    safe: bool = True  # a new record or local name: no holder outside the function keeps the old


class DiscardedFunctionalUpdate(Rule):
    """## What it does
    Finds `x.at[idx].set(v)` (and `.add`, `.multiply`, `.min`, ...) used as a statement, with
    its result discarded, also as the items of a comprehension thrown away
    (`[x.at[i].set(0) for i in idx]`), or bound to a name the function never reads
    (`patched = row.at[i].set(v)`, then `return row`).

    ## Why is this bad?
    `.at[]` updates are functional: they return a new array and leave `x` untouched. Written as
    a bare statement, the update is computed and dropped, so `x` never changes. This is the
    usual slip when porting NumPy's `x[idx] = v`.

    ## Example
    ```python
    import jax.numpy as jnp

    def reset_first(x):
        x.at[0].set(0.0)
        return x
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp

    def reset_first(x):
        x = x.at[0].set(0.0)
        return x
    ```

    ## Fix safety
    The fix assigns the result back to the same name or attribute (`x = x.at[0].set(0.0)`).
    Safe: the statement had no effect before, and now performs the update that was meant. A
    field of a NamedTuple or pytree dataclass (its fields cannot be set) rebuilds the record
    bound to the same local name (`state = state._replace(x=...)`, `dataclasses.replace`), the
    kind known from the value or, for a traced pytree of unknown class such as a `lax` loop's
    carry, from the module's pytree classes declaring that field (all of one kind). A global or
    closed-over name (the assignment would make it local to the function), another field or an
    item goes into a new local name that the function's later reads take, under JAX201's
    conditions; an array of the function around a helper it only calls directly is declared
    `nonlocal` and rebound, as in JAX201. These are unsafe: holders outside the function keep
    the old array (safe where JAX201 says no such holder exists); else no fix.

    ## References
    - [jax.numpy.ndarray.at](https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html)
    """

    code = "JAX203"
    name = "discarded-functional-update"
    message = "The result of a `.at[]` update is discarded: the array is unchanged"
    outcome = "silently does nothing: `.at[]` returns a new array"
    fix_title = "Assign the result back: `x = x.at[i].set(v)`"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Expr(self, node: ast.Expr, ctx: Context) -> None:
        value = node.value
        if isinstance(value, COMPREHENSIONS):  # `[x.at[i].set(0) for i in idx]`, thrown away
            call = value.elt
            if api.updated_by_at(call) is not None:
                self.report_comprehension(node, call, ctx)  # pyright: ignore[reportArgumentType]
            return
        array = api.updated_by_at(value)
        if array is None:
            return
        method = value.func.attr  # pyright: ignore[reportAttributeAccessIssue]
        text = snippet(ctx, array)
        updated = f"{text}.at[...].{method}(...)"
        ctx.report(
            node,
            f"the result of `{text}.at[...].{method}(...)` is discarded and `{text}` is "
            f"unchanged: `.at[]` returns a new array; assign it, {_advice(ctx, array, updated)}",
            fix=_request(ctx, node, array),
        )

    def report_comprehension(self, node: ast.Expr, call: ast.Call, ctx: Context) -> None:
        array = call.func.value.value.value  # pyright: ignore[reportAttributeAccessIssue]
        text = snippet(ctx, array)
        method = call.func.attr  # pyright: ignore[reportAttributeAccessIssue]
        ctx.report(
            node,
            f"the comprehension of `{text}.at[...].{method}(...)` is thrown away and `{text}` is "
            f"unchanged: each `.at[]` update returns a new array, and none is kept; update with all "
            f"the indices at once, `{text} = {text}.at[indices].{method}(...)`, or in a loop that "
            f"assigns each result",
        )

    def check_unread(self, node: ast.Assign, function: FunctionInfo, ctx: Context) -> bool:
        """``patched = row.at[i].set(v)`` and ``patched`` never read: the update is made and
        dropped, and ``row`` is unchanged."""
        found = _unread_update(node, function, ctx)
        if found is None:
            return False
        name, array = found
        text = snippet(ctx, array)
        ctx.report(
            node,
            f"`{name}` holds the result of `{text}.at[...]` but `{function.name}` never reads it, and "
            f"`{text}` is unchanged (`.at[]` returns a new array); use `{name}` where the updated "
            f"array is meant",
        )
        return True

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        """``a = a.at[i].set(v)`` on a parameter of a function that returns nothing and never
        reads ``a`` again: the update is made on a new array that dies with the function, and
        the caller's array is unchanged (jax#7116, porting NumPy's in-place updates)."""
        function = ctx.function
        if function is not None and self.check_unread(node, function, ctx):
            return
        name = _updated_name(node)
        if name is None or function is None or name not in function.positional_names():
            return
        if _first_update(function.node, name) is not node or not _update_is_lost(function.node, name):
            return
        ctx.report(
            node,
            f"`{name}` is a parameter of `{function.name}`, which returns nothing and never reads "
            f"`{name}` after updating it: the updated array is lost, and the caller's array is "
            f"unchanged (JAX arrays are immutable); return `{name}` and use the result",
        )


def _unread_update(node: ast.Assign, function: FunctionInfo, ctx: Context) -> tuple[str, ast.expr] | None:
    """``patched`` and ``row`` of ``patched = row.at[i].set(v)`` where the function never reads
    ``patched`` (nor declares it global or nonlocal, nor nests a function that could)."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return None
    array = api.updated_by_at(node.value)
    name = node.targets[0].id
    if array is None or name.startswith("_") or (isinstance(array, ast.Name) and array.id == name):
        return None  # (`_ = x.at[i].set(v)`: dropped on purpose)
    scope = function.scope
    if name in scope.globals or name in scope.nonlocals or function.children:
        return None
    if any(encloses(function.node, read) for read in ctx.model.loads_of(name)):
        return None
    return name, array


def _updated_name(node: ast.AST) -> str | None:
    """``a`` in ``a = a.at[...].<update>(...)``."""
    if (
        not isinstance(node, ast.Assign)
        or len(node.targets) != 1
        or not isinstance(node.targets[0], ast.Name)
    ):
        return None
    updated = api.updated_by_at(node.value)
    name = node.targets[0].id
    return name if isinstance(updated, ast.Name) and updated.id == name else None


def _first_update(function: ast.AST, name: str) -> ast.AST | None:
    body = getattr(function, "body", [])
    return (
        next((n for n in own_nodes(body) if _updated_name(n) == name), None)
        if isinstance(body, list)
        else None
    )


def _update_is_lost(function: ast.AST, name: str) -> bool:
    """Whether every store to ``name`` is an ``.at`` update of itself, no ``return``, ``yield``
    or nested function could hand it on, and every other read of it is a static attribute
    (``a.size``) or comes before the first update outside any loop holding one."""
    body = getattr(function, "body", [])
    if not isinstance(body, list):
        return False
    updates = [n for n in own_nodes(body) if _updated_name(n) == name]
    inside = {id(n) for u in updates for n in ast.walk(u)}
    first = updates[0].lineno  # pyright: ignore[reportAttributeAccessIssue]
    loops = [n for n in own_nodes(body) if isinstance(n, (ast.For, ast.While)) and _holds_any(n, inside)]
    static = {
        id(n.value)
        for n in ast.walk(function)
        if isinstance(n, ast.Attribute) and n.attr in api.STATIC_ATTRIBUTES
    }  # `a.shape`, `a.size`: what an update does not change
    for node in ast.walk(function):
        if node is not function and isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
        ):
            return False  # a closure may read it
        if (
            isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom))
            and getattr(node, "value", None) is not None
        ):
            return False
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            return False
        if not isinstance(node, ast.Name) or node.id != name or id(node) in inside:
            continue
        if not isinstance(node.ctx, ast.Load):
            return False  # stored some other way
        if id(node) not in static and (
            node.lineno >= first or any(_holds_any(loop, {id(node)}) for loop in loops)
        ):
            return False
    return True


def _holds_any(tree: ast.AST, ids: set[int]) -> bool:
    return any(id(n) in ids for n in ast.walk(tree))


def _advice(ctx: Context, array: ast.expr, updated: str) -> str:
    if isinstance(array, ast.Attribute) and is_self(array.value, ctx) and _is_record(ctx, array.value):
        return (
            f"`{array.attr} = {updated}`, to a local name, and use that: `{snippet(ctx, array.value)}` is a "
            f"pytree record whose fields cannot be assigned"
        )
    if isinstance(array, ast.Attribute) and _is_record(ctx, array.value):
        return pytree_update(ctx, array, updated)  # its fields cannot be set
    if isinstance(array, ast.Attribute) and _leaks(ctx, array):
        return (
            f"`{array.attr} = {updated}`, to a local name, and use that: assigning "
            f"`{snippet(ctx, array)}` here would leak a tracer onto an object made before the trace"
        )
    return rebinding_advice(ctx, array, updated)


def _request(ctx: Context, statement: ast.Expr, array: ast.expr) -> AssignBack | None:
    if _assignable(ctx, array):
        return AssignBack()
    record = record_field(ctx, array)
    if record is not None:
        return AssignBack(record=record, safe=leaf_rewrite_is_safe(ctx, array))
    closure = closed_over(ctx, array)
    if closure is not None:
        return AssignBack(closure, safe=False)
    leaf = local_leaf(ctx, statement, array)
    return AssignBack(leaf, safe=leaf_rewrite_is_safe(ctx, array)) if leaf is not None else None


def _assignable(ctx: Context, array: ast.expr) -> bool:
    """Whether ``array = ...`` rebinds what ``array`` names: a local name (not a global or
    closed-over one, which the assignment would make local), or an attribute of an object that
    is not a NamedTuple or frozen pytree record (whose fields cannot be set). Not ``rows[0]``:
    that is an item assignment (JAX201)."""
    if isinstance(array, ast.Name):
        return is_local_name(ctx, array.id)
    return isinstance(array, ast.Attribute) and not _is_record(ctx, array.value) and not _leaks(ctx, array)


def _leaks(ctx: Context, attribute: ast.Attribute) -> bool:
    """Whether assigning ``attribute`` in traced code would store a tracer on an object made
    before the trace (``self`` of a method a jitted function runs, a module-level object), which
    leaks it (JAX104): the update then goes into a new local name instead."""
    if not ctx.traced:
        return False
    owner = attribute.value
    if is_self(owner, ctx):
        return self_outlives_trace(ctx) or method_runs_on_outer_object(ctx)
    return not isinstance(owner, ast.Name) or outlives_trace(ctx, owner.id) is not None


def _is_record(ctx: Context, owner: ast.expr) -> bool:
    """Whether ``owner`` is a NamedTuple or pytree dataclass: known as one, a traced pytree
    (whatever its class, JAX rebuilt it, and a NamedTuple's fields cannot be set), a parameter
    annotated with such a class of this module, or ``self`` in a method of one."""
    value = ctx.value(owner)
    if record_kind(value) is not None or is_traced(value):
        return True
    if not isinstance(owner, ast.Name) or ctx.function is None:
        return False
    if is_self(owner, ctx):  # a method of a pytree class: an `equinox.Module`, a flax struct
        cls = ctx.model.class_of_self(ctx.scope, owner.id)
        return cls is not None and ctx.model.pytree_class(cls) is not None
    param = next((p for p in ctx.function.param_nodes() if p.arg == owner.id), None)
    if param is None or param.annotation is None:
        return False
    cls = ctx.model.class_named(param.annotation, ctx.scope)
    return cls is not None and ctx.model.pytree_class(cls) is not None


COMPREHENSIONS = (ast.ListComp, ast.GeneratorExp)
