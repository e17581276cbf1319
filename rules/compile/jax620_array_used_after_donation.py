"""JAX620: an array read again after it was donated to a jitted function."""

from __future__ import annotations

import ast
import itertools

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import returned_expressions
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import Value, is_container, is_jax_array, tree_leaves

from ..support.blocks import statement_path
from ..support.explain import snippet
from ..support.jitted import JitCall, donated_parameters, jitted_callee

DONATING = ("donate_argnums", "donate_argnames")
# what a deleted array still answers: its metadata
METADATA = frozenset({"shape", "dtype", "ndim", "size", "sharding", "is_deleted", "aval", "weak_type"})
METADATA_CALLS = frozenset({"len", "isinstance", "type", "id"})
# calls that only look at an array's type: tracing and lowering use its shape and dtype
ABSTRACT_CALLS = frozenset({"lower", "trace", "eval_shape", "make_jaxpr"})
LOOPS = (ast.For, ast.AsyncFor, ast.While)
OPAQUE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
# functions whose result has the structure of a pytree they are given (at this position)
SAME_TREE = {"optax.apply_updates": 0, "jax.tree.map": 1, "jax.tree_util.tree_map": 1}


class ArrayUsedAfterDonation(Rule):
    """## What it does
    Finds a JAX array passed, in eager code, to a jitted function at a position it donates
    (`donate_argnums`, `donate_argnames`) and then read again: later in the same code, or by
    the same call on the next iteration of a loop that never rebinds it. Only a donation JAX
    can use is counted: the function returns the donated parameter, or arithmetic on it, or a
    pytree mapped from it (`jax.tree.map`, `optax.apply_updates`), which JAX writes into the
    donated buffer. Metadata (`x.shape`, `x.dtype`, `len(x)`) stays readable and is not reported.

    ## Why is this bad?
    Donating an argument lets XLA reuse its memory for the result, and JAX deletes the array
    when the call runs. Any later use of its data raises `RuntimeError: Array has been deleted`
    (passed to another computation: `Buffer has been deleted or donated`). Rebind the name to the result
    (`params = sgd(params, grads)`), or stop donating what is still needed.

    ## Example
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, donate_argnums=0)
    def sgd(params, grads):
        return params - 0.1 * grads

    params = jnp.ones(3)
    new_params = sgd(params, jnp.ones(3))
    print(new_params - params)
    ```

    ## Use instead
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, donate_argnums=0)
    def sgd(params, grads):
        return params - 0.1 * grads

    params = jnp.ones(3)
    old = params.copy()
    params = sgd(params, jnp.ones(3))
    print(params - old)
    ```

    ## Fix safety
    No automatic fix: keeping a copy costs memory, which donation was meant to save.

    ## References
    - [JAX FAQ: buffer donation](https://docs.jax.dev/en/latest/faq.html#buffer-donation)
    """

    code = "JAX620"
    name = "array-used-after-donation"
    message = "An array is read again after it was donated to a jitted function"
    outcome = "an error: Array has been deleted (Buffer has been deleted or donated)"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.traced_to_run or not _donates_somewhere(ctx):
            return  # inside traced code, JAX ignores donation
        jit = jitted_callee(ctx, node)
        donated = None if jit is None else donated_parameters(jit.info, jit.site)
        if jit is None or not donated:
            return
        for argument in [*node.args, *(k.value for k in node.keywords if k.arg)]:
            parameter = jit.parameter(node, argument)
            if (
                parameter not in donated
                or not isinstance(argument, ast.Name)
                or not _arrays(ctx.value(argument))
                or not _reuses_buffer(ctx, jit, parameter)
            ):
                continue
            read = _read_after(ctx, node, argument.id)
            for alias in [] if read is not None else _aliases(ctx, node, argument.id):
                read = _read_after(ctx, node, alias, rebound_by_call=False)
                if read is not None:
                    break
            holders = [] if read is not None else _holders(ctx, node, argument.id)
            for holder in holders:
                read = _container_read_after(ctx, node, holder)
                if read is not None:
                    break
            if read is None:
                continue
            again = read is argument
            if read.id == argument.id:
                named = f"`{argument.id}`"
            elif read.id in holders:
                named = f"`{argument.id}`, which `{read.id}` holds,"
            else:
                named = f"`{read.id}` (the same arrays as `{argument.id}`)"
            ctx.report(
                read,
                f"{named} was donated to jitted `{snippet(ctx, node.func)}` (`{parameter}`) at "
                f"line {node.lineno}, which deletes it"
                + (", and the next iteration passes it again" if again else "")
                + ": using its data raises (`Array has been deleted`; in a computation, `Buffer has "
                f"been deleted or donated`); rebind the name to the result "
                f"(`{argument.id} = {snippet(ctx, node)}`), copy what is still needed, or do not donate it",
            )


def _arrays(value: Value) -> bool:
    """A JAX array, or a container whose every known leaf is one (each leaf is donated)."""
    if is_jax_array(value):
        return True
    leaves = tree_leaves(value) if is_container(value) else None
    return bool(leaves) and all(is_jax_array(leaf) for leaf in leaves)  # pyright: ignore[reportOptionalIterable]


def _aliases(ctx: Context, call: ast.Call, name: str) -> list[str]:
    """Names bound once, by ``alias = name``, before ``call`` in the same function: the same
    arrays, deleted with them."""
    function = ctx.function.node if ctx.function is not None else ctx.model.tree
    found = []
    for node in _own_nodes(function):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and (node.lineno, node.col_offset) < (call.lineno, call.col_offset)
            and ctx.scope.function.bound.get(node.targets[0].id) == 1
        ):
            found.append(node.targets[0].id)
    return found


# methods that put an object into a list, a set or a dict (`history.append(params)`)
STORING_METHODS = frozenset({"append", "extend", "insert", "add", "setdefault"})
# methods that add to a container without reading what it holds
ADDING_METHODS = frozenset({"append", "extend", "insert", "add"})


def _holders(ctx: Context, call: ast.Call, name: str) -> list[str]:
    """Containers that ``name`` is put into before ``call`` in the same function
    (``history.append(params)``, ``snapshots[step] = params``): they hold the same arrays."""
    function = ctx.function.node if ctx.function is not None else ctx.model.tree
    found = []
    for node in _own_nodes(function):
        if not isinstance(node, (ast.Call, ast.Assign)) or (node.lineno, node.col_offset) >= (
            call.lineno,
            call.col_offset,
        ):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in STORING_METHODS
            and isinstance(node.func.value, ast.Name)
            and any(isinstance(a, ast.Name) and a.id == name for a in node.args)
        ):
            found.append(node.func.value.id)
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
            and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) for t in node.targets)
        ):
            found.extend(
                t.value.id
                for t in node.targets
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)
            )  # pyright: ignore
    return found


def _container_read_after(ctx: Context, call: ast.Call, holder: str) -> ast.Name | None:
    """The first read of what container ``holder`` holds, after ``call`` in source order (not
    an ``append`` to it), outside the loop that runs the call; None once ``holder`` is rebound."""
    function = ctx.function.node if ctx.function is not None else ctx.model.tree
    after = max(
        (loop.end_lineno or loop.lineno for loop in ctx.loops if isinstance(loop, LOOPS)), default=call.lineno
    )
    uses = sorted(
        (n for n in _own_nodes(function) if isinstance(n, ast.Name) and n.id == holder and n.lineno > after),
        key=lambda n: (n.lineno, n.col_offset),
    )
    parents = {id(child): node for node in _own_nodes(function) for child in ast.iter_child_nodes(node)}
    for use in uses:
        if not isinstance(use.ctx, ast.Load):
            return None  # rebound first
        parent = parents.get(id(use))
        if isinstance(parent, ast.Attribute) and parent.attr in ADDING_METHODS:
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in METADATA:
            continue
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len":
            continue  # how many it holds, not what
        return use
    return None


def _donates_somewhere(ctx: Context) -> bool:
    """Whether some jit site of this file donates (a cheap gate), memoised."""
    found = ctx.memo.get("jitted-donates")
    if found is None:
        found = any(
            isinstance(site, ast.Call) and any(k.arg in DONATING for k in site.keywords)
            for info in ctx.model.infos.values()
            for site in info.jit_sites
        )
        ctx.memo["jitted-donates"] = found
    return bool(found)


def _reuses_buffer(ctx: Context, jit: JitCall, parameter: str) -> bool:
    """Whether the function returns something JAX can write into the donated buffer: the
    parameter, arithmetic on it, or a pytree mapped from it (else JAX warns and keeps it)."""
    scope = jit.info.scope
    return any(_from_parameter(ctx, scope, e, parameter) for e in _returned_parts(jit.info))


def _returned_parts(info: FunctionInfo) -> list[ast.expr]:
    parts: list[ast.expr] = []
    for returned in returned_expressions(info.node):
        parts += returned.elts if isinstance(returned, (ast.Tuple, ast.List)) else [returned]
    return parts


def _from_parameter(ctx: Context, scope: Scope, expr: ast.expr, parameter: str) -> bool:
    if isinstance(expr, ast.Name):
        return expr.id == parameter
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        return any(_from_parameter(ctx, scope, e, parameter) for e in (expr.left, expr.right))
    if isinstance(expr, ast.Call):
        position = SAME_TREE.get(ctx.model.qualname(expr.func, scope) or "")
        if position is not None and len(expr.args) > position:
            return _from_parameter(ctx, scope, expr.args[position], parameter)
    return False


def _read_after(ctx: Context, call: ast.Call, name: str, rebound_by_call: bool = True) -> ast.Name | None:
    """The first read of the array ``name`` after ``call`` deleted it: later in the blocks
    around the call, or the call's own argument when a loop around runs it again without
    rebinding ``name``. None once ``name`` is rebound first."""
    function = ctx.function.node if ctx.function is not None else ctx.model.tree
    body = getattr(function, "body", None)
    if not isinstance(body, list):
        return None
    path = statement_path(body, call)
    if not path or (rebound_by_call and _stores(path[-1][0][path[-1][1]], name)):
        return None
    for block, index in reversed(path):
        for statement in block[index + 1 :]:
            first = _first_use(statement, name)
            if first is not None:
                return first if isinstance(first.ctx, ast.Load) else None
        holder = _holder(path, block)
        if isinstance(holder, LOOPS) and block is holder.body and not _stores(holder, name):
            return next(a for a in call.args if isinstance(a, ast.Name) and a.id == name)
    return None


def _holder(path: list[tuple[list[ast.stmt], int]], block: list[ast.stmt]) -> ast.stmt | None:
    """The statement whose block ``block`` is, on ``path``."""
    for (outer, index), (inner, _) in itertools.pairwise(path):
        if inner is block:
            return outer[index]
    return None


def _stores(statement: ast.AST, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
        for n in _own_nodes(statement)
    )


def _first_use(statement: ast.stmt, name: str) -> ast.Name | None:
    """The first use of ``name`` in ``statement`` that reads its data or rebinds it, in the
    order Python runs an assignment (its value before its targets)."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        order: list[ast.AST] = [statement.value, *targets]
    else:
        order = [statement]
    for part in order:
        uses = [n for n in _own_nodes(part) if isinstance(n, ast.Name) and n.id == name]
        uses.sort(key=lambda n: (n.lineno, n.col_offset))
        for use in uses:
            if not isinstance(use.ctx, ast.Load) or not _metadata_read(part, use):
                return use
    return None


def _metadata_read(root: ast.AST, use: ast.Name) -> bool:
    for node in _own_nodes(root):
        if isinstance(node, ast.Attribute) and node.value is use and node.attr in METADATA:
            return True
        if isinstance(node, ast.Call) and any(a is use for a in node.args) and _looks_only(node.func):
            return True
    return False


def _looks_only(func: ast.expr) -> bool:
    """A callee that reads only an array's metadata: ``len``, ``f.lower``, ``jax.eval_shape``,
    or one that checks deletion (``assertDeleted``)."""
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if isinstance(func, ast.Name) and name in METADATA_CALLS:
        return True
    return name in ABSTRACT_CALLS or "deleted" in name.lower()


def _own_nodes(root: ast.AST) -> list[ast.AST]:
    """The nodes of ``root``, not those of functions or classes defined in it."""
    found: list[ast.AST] = []
    stack = [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, OPAQUE) or c is root)
    return found
