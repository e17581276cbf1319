"""JAX208: writing into the read-only NumPy view of a JAX array."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.bodies import own_nodes
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import is_jax_array, is_traced, tree_leaves

from ..support.explain import snippet

# calls that hand back the (read-only) NumPy buffer of a JAX array, not a copy (measured with
# JAX 0.10.2: `np.array(x)` copies; these raise "assignment destination is read-only")
VIEWS = frozenset({"numpy.asarray", "numpy.asanyarray", "numpy.from_dlpack", "jax.device_get"})
# NumPy methods that write into their array, and `setflags` (measured on a view: each raises
# `ValueError`, "sort array is read-only", "cannot set WRITEABLE flag to True of this array")
WRITING_METHODS = frozenset({"sort", "fill", "put", "partition", "setflags"})


@dataclass(frozen=True)
class CopyArray(FixRequest):
    """``np.asarray(x)`` -> ``np.array(x)``: a writable copy."""

    view: ast.Call


class ReadOnlyNumpyView(Rule):
    """## What it does
    Finds a name bound to `np.asarray(x)` (or `np.asanyarray`, `np.from_dlpack`,
    `jax.device_get`) of a JAX array, then written into: `a[i] = v`, `a[mask] = v`, `a[i] += v`,
    `a += v`.

    ## Why is this bad?
    A JAX array is immutable, and the NumPy array `np.asarray` gives for it is a view of its
    buffer marked read-only, on every backend. Writing into it raises `ValueError:
    assignment destination is read-only` (`output array is read-only` for `+=`). Take a
    writable copy with `np.array(x)`.

    ## Example
    ```python
    import jax.numpy as jnp
    import numpy as np

    scores = np.asarray(jnp.tanh(jnp.linspace(-2, 2, 5)))
    scores[scores < 0] = 0.0
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    import numpy as np

    scores = np.array(jnp.tanh(jnp.linspace(-2, 2, 5)))
    scores[scores < 0] = 0.0
    ```

    ## Fix safety
    The fix copies (`np.asarray` becomes `np.array`), which is what writing needs: safe. Not
    offered for `jax.device_get`.

    ## References
    - [JAX: Common gotchas, in-place updates](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates)
    """

    code = "JAX208"
    name = "read-only-numpy-view"
    message = "The read-only NumPy view of a JAX array is written into"
    outcome = "ValueError: assignment destination is read-only"
    fix_title = "Take a writable copy with `np.array`"
    fix_availability = FixAvailability.SOMETIMES
    visits_anywhere = frozenset({ast.Assign, ast.AugAssign})

    def visit_Assign(self, node: ast.Assign, ctx: Context) -> None:
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                self.check(target.value, node, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: Context) -> None:
        target = node.target
        self.check(target.value if isinstance(target, ast.Subscript) else target, node, ctx)

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        """``view.sort()``, ``view.fill(0)``: a NumPy method that writes into its array (or
        ``view.setflags(write=True)``, which NumPy refuses for a buffer it does not own)."""
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in WRITING_METHODS:
            return
        if func.attr == "setflags" and not any(
            k.arg == "write" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in node.keywords
        ):
            return
        effect = (
            "NumPy cannot make it writable: `setflags(write=True)` raises `ValueError` (cannot set "
            "WRITEABLE flag to True of this array)"
            if func.attr == "setflags"
            else None
        )
        self.check(func.value, node, ctx, effect)

    def check(
        self, base: ast.expr, node: ast.stmt | ast.Call, ctx: Context, effect: str | None = None
    ) -> None:
        if not ctx.mentions("asarray") and not ctx.mentions("device_get") and not ctx.mentions("dlpack"):
            return
        if isinstance(base, ast.Name):
            view = _view_bound_to(ctx, base.id)
        else:  # `host["w"][0] = 0.0`: a leaf of a pytree fetched with `jax.device_get`
            view = _fetched_leaf(ctx, base, ctx.scope)
        if view is None:
            return
        call, qualname = view
        leaf = (
            "a leaf of " if qualname == "jax.device_get" and not is_jax_array(ctx.value(call.args[0])) else ""
        )
        ctx.report(
            node,
            f"`{snippet(ctx, base)}` is {leaf}`{snippet(ctx, call)}` (line {call.lineno}), "
            f"the read-only NumPy view of a JAX array's buffer: "
            f"{effect or 'writing into it raises `ValueError` (assignment destination is read-only)'}; "
            f"take a writable copy, `np.array(...)`",
            fix=CopyArray(call) if qualname != "jax.device_get" else None,
        )


def _fetched_leaf(ctx: Context, part: ast.expr, scope: Scope) -> tuple[ast.Call, str] | None:
    """``host["w"]`` (or ``host.w``), a leaf of a pytree of JAX arrays fetched with
    ``jax.device_get`` and bound to ``host`` once: each leaf is a read-only NumPy view."""
    root = part
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        root = root.value
    if root is part or not isinstance(root, ast.Name):
        return None
    owner = scope.lookup(root.id)
    value = None if owner is None else owner.assigned.get(root.id)
    if (
        owner is None
        or owner.bound.get(root.id) != 1
        or not isinstance(value, ast.Call)
        or len(value.args) != 1
    ):
        return None
    if ctx.model.qualname(value.func, owner) != "jax.device_get" or value.keywords:
        return None
    if _entries_replaced(owner, root.id):
        return None  # `host["b"] = np.zeros(3)`: that entry is no view
    leaves = tree_leaves(ctx.model.value(value.args[0], owner))
    if not leaves or not all(is_jax_array(leaf) and not is_traced(leaf) for leaf in leaves):
        return None
    return value, "jax.device_get"


def _view_bound_to(ctx: Context, name: str) -> tuple[ast.Call, str] | None:
    """The view call ``name`` is bound to, once, in the scope that binds it, where what it is
    given is a JAX array (or, for ``w = host["w"]``, a leaf of a fetched pytree); and the call's
    qualified name."""
    owner = ctx.scope.lookup(name)
    value = None if owner is None else owner.assigned.get(name)
    if owner is not None and isinstance(value, (ast.Subscript, ast.Attribute)) and owner.bound.get(name) == 1:
        return _fetched_leaf(ctx, value, owner)
    if owner is None or not isinstance(value, ast.Call) or len(value.args) != 1 or value.keywords:
        return None
    qualname = ctx.model.qualname(value.func, owner)
    if qualname not in VIEWS:  # (`setflags(write=True)` cannot make it writable: it raises)
        return None
    if owner.bound.get(name) != 1 + _augmented(owner, name):
        return None
    given = ctx.model.value(value.args[0], owner)
    if not is_jax_array(given) or is_traced(given):
        return None  # (NumPy rejects a tracer before anything is written: JAX602)
    return value, qualname


def _entries_replaced(scope: Scope, name: str) -> bool:
    """Whether ``scope`` stores into an item or attribute of ``name`` itself (``host["b"] = ...``)."""
    body = getattr(scope.node, "body", [])
    return any(
        isinstance(node, (ast.Subscript, ast.Attribute))
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == name
        for node in own_nodes(body if isinstance(body, list) else [])
    )


def _augmented(scope: Scope, name: str) -> int:
    """How many ``name += ...`` statements of ``scope`` bind ``name`` (in place, on an array)."""
    body = getattr(scope.node, "body", [])
    return sum(
        1
        for node in own_nodes(body if isinstance(body, list) else [])
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name
    )
