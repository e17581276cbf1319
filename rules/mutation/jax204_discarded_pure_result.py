"""JAX204: the result of a pure JAX function thrown away (``jnp.clip(x, 0, 1)`` as a statement)."""

from __future__ import annotations

import ast
import os

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import Value, is_container, is_jax_array, is_traced

from ..support.arrays import passed_array
from ..support.callsites import origins
from ..support.explain import snippet

# functions that compute an updated version of their first argument, which a statement that
# discards the result means to update (`jnp.clip(x, 0, 1)`, `optax.apply_updates(params, u)`,
# `jax.random.split(key)`); a `jnp.dot(x, x)` on its own is more often made to see that it runs
UPDATING_FUNCTIONS = frozenset(
    {
        *(
            f"jax.numpy.{name}"
            for name in (
                "clip",
                "nan_to_num",
                "round",
                "around",
                "sort",
                "flip",
                "roll",
                "pad",
                "reshape",
                "transpose",
                "squeeze",
                "expand_dims",
                "astype",
                "where",
                "maximum",
                "minimum",
                "fill_diagonal",
                "put",
                "delete",
                "insert",
                "append",
            )
        ),
        *(
            f"jax.lax.{name}"
            for name in (
                "dynamic_update_slice",
                "dynamic_update_slice_in_dim",
                "dynamic_update_index_in_dim",
                "scatter",
                "scatter_add",
                "scatter_sub",
                "scatter_mul",
                "scatter_min",
                "scatter_max",
                "scatter_apply",
            )
        ),
        "jax.random.split",
        "optax.apply_updates",
        "equinox.apply_updates",
        "optax.incremental_update",
        "optax.periodic_update",
        "equinox.tree_at",
        "equinox.nn.inference_mode",
        "dataclasses.replace",
    }
)
# updating functions whose updated value is not their first argument (`eqx.tree_at(where, tree, v)`)
SOURCE_POSITIONS = {"equinox.tree_at": 1, "jax.tree_util.tree_map": 1, "jax.tree.map": 1}
# maps over a pytree: pure when the function mapped is (a lambda of arithmetic and jax.numpy)
TREE_MAPS = frozenset({"jax.tree_util.tree_map", "jax.tree.map"})
PURE_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.")
TRAIN_STATE = "flax.training.train_state.TrainState"
TRAIN_STATE_CREATE = f"{TRAIN_STATE}.create"
# methods of flax's `TrainState` and struct dataclasses that return an updated copy
RECORD_UPDATES = frozenset({"apply_gradients", "replace"})
# methods that return an updated copy whatever the receiver: only a NamedTuple has `_replace`
COPYING_METHODS = frozenset({"_replace"})
# methods of a JAX array that return a new array and change nothing
PURE_ARRAY_METHODS = frozenset(
    {
        "astype",
        "clip",
        "reshape",
        "transpose",
        "squeeze",
        "flatten",
        "ravel",
        "round",
        "sort",
        "argsort",
        "cumsum",
        "cumprod",
        "swapaxes",
        "conj",
    }
)


class DiscardedPureResult(Rule):
    """## What it does
    Finds a call that computes an updated version of a value, used as a statement so the result
    is thrown away while the code goes on reading the old value: `jnp.clip(x, -1, 1)` and other
    `jax.numpy` functions that transform their first argument, `lax.dynamic_update_slice` and
    the `lax.scatter` family, `jax.random.split(key)`, optax's
    `apply_updates`, `equinox.tree_at`, `equinox.nn.inference_mode`, `dataclasses.replace`, a
    NamedTuple's `_replace`, or a method of a JAX array that returns a new one
    (`g.clip(-1.0, 1.0)`, `x.astype(jnp.float32)`), or `state.apply_gradients(...)`/`.replace(...)`
    on a flax `TrainState` (made by `TrainState.create`, or a traced pytree argument of a
    compiled function). A lone call whose input is not read again, a call in a `try` or under
    `pytest.raises`, and tests (where a call is often made to see that it runs) are left alone.

    ## Why is this bad?
    JAX arrays are immutable and these functions change nothing: they return a new value. Called
    as a statement, the new value is dropped, and the code goes on with the old one: the
    gradient is not clipped, the parameters are not updated, the key is not split (every later
    draw repeats). NumPy's in-place habits (`np.clip(x, 0, 1, out=x)`, `arr.sort()`) do not
    carry over.

    ## Example
    ```python
    import jax
    import optax

    def step(params, updates):
        optax.apply_updates(params, updates)
        return params
    ```

    ## Use instead
    ```python
    import jax
    import optax

    def step(params, updates):
        params = optax.apply_updates(params, updates)
        return params
    ```

    ## Fix safety
    No automatic fix: which name the result belongs to (the argument, or a new one) is the
    author's call.

    ## References
    - [JAX: Common gotchas, in-place updates](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates)
    """

    code = "JAX204"
    name = "discarded-pure-result"
    message = "The result of a pure JAX function is thrown away"
    outcome = "nothing changes: the code goes on with the old value"
    severity = "warning"
    visits_anywhere = frozenset({ast.Expr})

    def visit_Expr(self, node: ast.Expr, ctx: Context) -> None:
        call = node.value
        if not isinstance(call, ast.Call) or _expected_to_raise(ctx) or _in_test(ctx):
            return
        func = call.func
        qualname = ctx.qualname(func) if isinstance(func, (ast.Name, ast.Attribute)) else None
        if qualname in UPDATING_FUNCTIONS:
            what = f"`{snippet(ctx, call)}` returns a new value and changes nothing"
        elif qualname in TREE_MAPS and call.args and _pure_lambda(ctx, call.args[0]):
            what = (
                f"`{snippet(ctx, call)}` returns a new pytree and changes nothing (JAX arrays are immutable)"
            )
        elif (
            qualname is None
            and isinstance(func, ast.Attribute)
            and func.attr in PURE_ARRAY_METHODS
            and (_array(ctx.value(func.value)) or passed_array(ctx, func.value) is not None)
        ):
            what = (
                f"`{snippet(ctx, call)}` returns a new array and leaves `{snippet(ctx, func.value)}` "
                f"unchanged (JAX arrays are immutable)"
            )
        elif qualname is None and isinstance(func, ast.Attribute) and func.attr in COPYING_METHODS:
            what = (
                f"`{snippet(ctx, call)}` returns an updated copy and leaves `{snippet(ctx, func.value)}` "
                f"unchanged (a NamedTuple is immutable)"
            )
        elif (
            qualname is None
            and isinstance(func, ast.Attribute)
            and func.attr in RECORD_UPDATES
            and ctx.traced_to_run
            and is_traced(ctx.value(func.value))
        ):
            what = (
                f"`{snippet(ctx, call)}` returns an updated copy of traced `{snippet(ctx, func.value)}` "
                f"(a pytree argument of the compiled function: nothing done to it reaches the caller)"
            )
        elif (
            isinstance(func, ast.Attribute) and func.attr in RECORD_UPDATES and _train_state(ctx, func.value)
        ):
            what = (
                f"`{snippet(ctx, call)}` returns an updated copy of the `TrainState` "
                f"`{snippet(ctx, func.value)}` (a frozen dataclass) and changes nothing"
            )
        else:
            return
        if not _read_afterwards(ctx, node, _source(call, qualname)):
            return  # `jnp.ones(1)` on its own: a call made to see that it runs (a test)
        ctx.report(
            node, f"{what}: its result is thrown away here; assign it, {_assignment(ctx, call, qualname)}"
        )


def _train_state(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` names a flax ``TrainState``: everything it may hold (:func:`origins`: a
    name bound once, a parameter every call in sight passes one) is ``TrainState.create(...)``
    of flax's class, or of a class of this module derived from it."""
    if not isinstance(expr, ast.Name):
        return False
    found = origins(ctx, expr, ctx.scope)
    return bool(found) and all(_created_train_state(ctx, value, scope) for value, scope in found or [])


def _created_train_state(ctx: Context, value: ast.expr, scope: Scope) -> bool:
    if not (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "create"
    ):
        return False
    if ctx.model.qualname(value.func, scope) == TRAIN_STATE_CREATE:
        return True
    cls = ctx.model.class_named(value.func.value, scope)
    return cls is not None and any(ctx.model.qualname(base, scope) == TRAIN_STATE for base in cls.bases)


def _pure_lambda(ctx: Context, function: ast.expr) -> bool:
    """A lambda computing only with operators and ``jax.numpy``/``lax``/``nn`` functions: mapped
    over a pytree it has no effect but its result (``lambda x: x.block_until_ready()`` has)."""
    if not isinstance(function, ast.Lambda):
        return False
    for node in ast.walk(function.body):
        if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield)):
            return False
        if isinstance(node, ast.Call):
            qualname = ctx.model.qualname(node.func, ctx.scope)
            if qualname is None or not qualname.startswith(PURE_MODULES):
                return False
    return True


def _in_test(ctx: Context) -> bool:
    """Whether the code is a test (a ``test_*``/``*_test.py`` file, a ``test*`` function), where
    a lone call is made to see that it runs (``jnp.pad(x, ...)  # doesn't crash``)."""
    name = os.path.basename(ctx.path)
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return True
    function = ctx.function
    while function is not None:
        if function.name.startswith("test"):
            return True
        function = function.parent
    return False


# context managers of tests that check what a call does (`assertRaises`, `assertWarns`,
# `count_jit_and_pmap_lowerings`, `transfer_guard`)
CHECKING_WORDS = ("raise", "warn", "assert", "count", "guard", "check")


def _expected_to_raise(ctx: Context) -> bool:
    """Whether the statement is called for the error it raises: in a ``try`` body, or under
    ``pytest.raises``/``self.assertRaises`` (a test that the call fails)."""
    for ancestor in ctx.ancestors():
        if isinstance(ancestor, ast.Try):
            return True
        if isinstance(ancestor, (ast.With, ast.AsyncWith)) and any(
            word in snippet(ctx, item.context_expr).lower()
            for item in ancestor.items
            for word in CHECKING_WORDS
        ):
            return True
    return False


def _array(value: Value) -> bool:
    """A JAX array: known as one, or a tracer that is no container (a pytree has no ``.clip``)."""
    return is_jax_array(value) or (is_traced(value) and not is_container(value))


def _source(call: ast.Call, qualname: str | None) -> ast.expr | None:
    """The value the call computes from: a method's receiver, else its first argument."""
    func = call.func
    if qualname is None and isinstance(func, ast.Attribute):
        return func.value
    position = SOURCE_POSITIONS.get(qualname or "", 0)
    return call.args[position] if position < len(call.args) else None


def _read_afterwards(ctx: Context, statement: ast.stmt, source: ast.expr | None) -> bool:
    """Whether the name the call computes from is read again after it, in the same function:
    the code goes on with the old value (a lone call is more often made to see that it runs)."""
    if not isinstance(source, ast.Name):
        return False
    scope = ctx.scope.function.node  # the function around (or the module), traced or not
    return any(
        isinstance(n, ast.Name)
        and n.id == source.id
        and isinstance(n.ctx, ast.Load)
        and (n.lineno, n.col_offset)
        >= (statement.end_lineno or statement.lineno, statement.end_col_offset or 0)
        for n in ast.walk(scope)
    )


def _assignment(ctx: Context, call: ast.Call, qualname: str | None) -> str:
    """How to keep the result: back into the name it was computed from, where there is one."""
    source = _source(call, qualname)
    if qualname == "jax.random.split" and isinstance(source, ast.Name):
        return f"`{source.id}, subkey = {snippet(ctx, call)}`"
    name = source.id if isinstance(source, ast.Name) else "result"
    return f"`{name} = {snippet(ctx, call)}`"
