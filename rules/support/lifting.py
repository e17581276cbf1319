"""When Python control flow on tracers can be rewritten, and into what: the lifting plans.

The control-flow and compile rules call these functions and hand the plan (a typed request of
:mod:`jaxlint.fixing.plans`) to their fixer; the fixer only does syntax. The preconditions are
AutoGraph's: every variable a rewritten block rebinds is defined on every path (before the
block, or in every branch), no ``return``/``break``/``continue``/``yield``/``raise`` is left
inside a lifted body, and (for ``jnp.where``) the branches are side-effect-free expressions,
since ``jnp.where`` evaluates both.
"""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.fixing.plans import CondBranches, ForiLoop, NanGuard, WhereAssign, WhereReturn, WhileLoop
from jaxlint.semantic.transforms import TREE_MAPS
from jaxlint.semantic.values import is_container, is_jax_array, refs

from .arrays import used_as_container
from .blocks import (
    counter_step,
    definitely_bound_before,
    leaves_block,
    loaded_names,
    read_later,
    side_effect_free,
    stored_names,
    stores_into_containers,
)

# jnp functions that are undefined (NaN) on part of their domain, with a value inside it.
NAN_PRONE = {
    "jax.numpy.log": "1.0",
    "jax.numpy.log2": "1.0",
    "jax.numpy.log10": "1.0",
    "jax.numpy.log1p": "0.0",
    "jax.numpy.sqrt": "1.0",
    "jax.numpy.arcsin": "0.0",
    "jax.numpy.arccos": "0.0",
    "jax.numpy.arctanh": "0.0",
    "jax.numpy.reciprocal": "1.0",
    "jax.lax.log": "1.0",
    "jax.lax.sqrt": "1.0",
    "jax.lax.rsqrt": "1.0",
}

# ---------------------------------------------------------------------------- NaN guards


def nan_guards(ctx: Context, expression: ast.expr) -> tuple[NanGuard, ...]:
    """Sub-expressions that are NaN (or infinite) outside their domain, with a value inside it:
    under ``jnp.where`` the unselected branch still runs, and its NaN poisons gradients."""
    guards: list[NanGuard] = []
    for node in ast.walk(expression):
        if isinstance(node, ast.Call) and node.args:
            safe = NAN_PRONE.get(ctx.qualname(node.func) or "")
            if safe is not None:
                guards.append((node.args[0], safe))
        elif isinstance(node, ast.BinOp) and _divides_by_operand(node):
            guards.append((node.right, "1.0"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and not _natural_power(node.right):
            guards.append((node.left, "1.0"))
    return tuple((g, safe) for g, safe in guards if not isinstance(g, ast.Constant))


def _divides_by_operand(node: ast.BinOp) -> bool:
    return isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and not _nonzero_constant(node.right)


def _natural_power(exponent: ast.expr) -> bool:
    return isinstance(exponent, ast.Constant) and isinstance(exponent.value, int) and exponent.value >= 0


def _nonzero_constant(node: ast.expr) -> bool:
    value = node.operand if isinstance(node, ast.UnaryOp) else node
    return isinstance(value, ast.Constant) and isinstance(value.value, (int, float)) and value.value != 0


# ---------------------------------------------------------------------------- plans


IfPlan = WhereReturn | WhereAssign | CondBranches


def if_plan(ctx: Context, node: ast.If, following: ast.stmt | None) -> IfPlan | None:
    """How to rewrite a Python ``if`` on a tracer: ``jnp.where`` over returns or assignments,
    else ``lax.cond`` with lifted branches; None when no rewrite is correct."""
    tests, bodies, orelse = _branches(node)
    returned = _return_form(ctx, node, tests, bodies, orelse, following)
    if returned is not None:
        return returned
    assigned = _assign_form(ctx, node, tests, bodies, orelse)
    if assigned is not None:
        return assigned
    if len(tests) == 1:
        return _cond_form(ctx, node)
    return None


def _branches(node: ast.If) -> tuple[list[ast.expr], list[list[ast.stmt]], list[ast.stmt]]:
    """An if/elif/else chain as (tests, bodies, final else)."""
    tests, bodies = [node.test], [node.body]
    orelse = node.orelse
    while len(orelse) == 1 and isinstance(orelse[0], ast.If):
        tests.append(orelse[0].test)
        bodies.append(orelse[0].body)
        orelse = orelse[0].orelse
    return tests, bodies, orelse


def _single_return(body: list[ast.stmt]) -> ast.expr | None:
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


def _return_form(
    ctx: Context,
    node: ast.If,
    tests: list[ast.expr],
    bodies: list[list[ast.stmt]],
    orelse: list[ast.stmt],
    following: ast.stmt | None,
) -> WhereReturn | None:
    values: list[ast.expr] = []
    for body in bodies:
        value = _single_return(body)
        if value is None:
            return None
        values.append(value)
    consumed = None if orelse or not isinstance(following, ast.Return) else following
    fallback = _single_return(orelse if orelse else [consumed] if consumed else [])
    if fallback is None:
        return None
    values.append(fallback)
    if not all(side_effect_free(ctx, e) for e in [*tests, *values]):
        return None
    width = _tuple_width(values)
    if width:  # `return loss, aux` in every branch: a `jnp.where` per element
        elements = [e for v in values if isinstance(v, ast.Tuple) for e in v.elts]
        if not all(_array_valued(ctx, e) for e in elements):
            return None
        guards = tuple(nan_guards(ctx, e) for e in elements)
        return WhereReturn(node, tuple(tests), tuple(values), guards, consumed, width)
    if not all(_array_valued(ctx, v) for v in values):
        return None  # `jnp.where` takes arrays: a dict or a tuple of unknown width needs `lax.cond`
    guards = tuple(nan_guards(ctx, v) for v in values)
    return WhereReturn(node, tuple(tests), tuple(values), guards, consumed)


def _tuple_width(values: list[ast.expr]) -> int:
    """The number of elements when every value is a tuple display of that many, none starred."""
    widths = {len(v.elts) if isinstance(v, ast.Tuple) else 0 for v in values}
    starred = any(isinstance(e, ast.Starred) for v in values if isinstance(v, ast.Tuple) for e in v.elts)
    return 0 if len(widths) != 1 or starred else widths.pop()


def _array_valued(ctx: Context, value: ast.expr) -> bool:
    """Whether ``value`` may be an array, as ``jnp.where`` takes it: not a display of a
    container (a dict, list, tuple or set, which it rejects or stacks into one array), nor a
    value known to be a container, a record or an object; nor a parameter of unknown kind
    passed on as it is (``grads``: a pytree as often as an array)."""
    if isinstance(value, (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return False
    known = ctx.value(value)
    if is_container(known) or refs(known):
        return False
    return is_jax_array(known) or not (isinstance(value, ast.Name) and _pytree_parameter(ctx, value.id))


def _pytree_parameter(ctx: Context, name: str) -> bool:
    """Whether ``name`` is a parameter of the current function that the function uses as a
    pytree: as a dict or list, or as a tree of ``tree_map``."""
    function = ctx.function
    if function is None or name not in function.params:
        return False
    return used_as_container(ctx, function.node, name) or name in _mapped_trees(ctx, function.node)


def _mapped_trees(ctx: Context, function: ast.AST) -> set[str]:
    """The names ``function`` hands to ``tree_map`` as trees (after the function mapped),
    found in one walk per function."""
    key = ("mapped-trees", function)
    found: set[str] | None = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and ctx.qualname(node.func) in TREE_MAPS:
                found |= {a.id for a in node.args[1:] if isinstance(a, ast.Name)}
    return found


def _assign_form(
    ctx: Context, node: ast.If, tests: list[ast.expr], bodies: list[list[ast.stmt]], orelse: list[ast.stmt]
) -> WhereAssign | None:
    arms = [*bodies, orelse]
    assignments: list[dict[str, ast.expr]] = []
    for arm in arms:
        pairs = _simple_assignments(arm)
        if pairs is None:
            return None
        assignments.append(pairs)
    names = [name for pairs in assignments for name in pairs]
    names = list(dict.fromkeys(names))
    if not names:
        return None
    before = definitely_bound_before(ctx, node)
    for name in names:
        if name not in before and any(name not in pairs for pairs in assignments):
            return None
    if not all(side_effect_free(ctx, e) for e in [*tests, *(v for p in assignments for v in p.values())]):
        return None
    if any(_reads_own_writes(pairs) for pairs in assignments):
        return None  # `a = ...; b = a + 1`: each where() would see the old `a`
    if not all(_array_valued(ctx, v) for p in assignments for v in p.values()):
        return None  # `state = {...}`: `jnp.where` takes arrays, a dict needs `lax.cond`
    if any(_pytree_parameter(ctx, name) for name in names):
        return None  # `grads` handed to `tree_map` later: so is what it holds now
    values = tuple(tuple(pairs.get(name) for pairs in assignments) for name in names)
    guards = tuple(tuple(nan_guards(ctx, v) if v is not None else () for v in arms) for arms in values)
    return WhereAssign(node, tuple(tests), tuple(names), values, guards)


def _reads_own_writes(pairs: dict[str, ast.expr]) -> bool:
    written: set[str] = set()
    for name, value in pairs.items():
        if loaded_names([value]) & written:
            return True
        written.add(name)
    return False


def _simple_assignments(body: list[ast.stmt]) -> dict[str, ast.expr] | None:
    """``{name: value}`` when the block only binds distinct plain names (``pass`` allowed)."""
    pairs: dict[str, ast.expr] = {}
    for statement in body:
        if isinstance(statement, ast.Pass):
            continue
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            return None
        name = statement.targets[0].id
        if name in pairs:
            return None
        pairs[name] = statement.value
    return pairs


def _cond_form(ctx: Context, node: ast.If) -> CondBranches | None:
    arms = [node.body, node.orelse]
    if any(leaves_block(arm) or stores_into_containers(arm) for arm in arms):
        return None
    outputs = list(dict.fromkeys(stored_names(node.body) + stored_names(node.orelse)))
    before = definitely_bound_before(ctx, node)
    both = set(stored_names(node.body)) & set(stored_names(node.orelse))
    if any(name not in before and name not in both for name in outputs):
        return None
    needed = read_later(ctx, node, set(outputs))
    outputs = [name for name in outputs if name in needed]
    if not outputs:
        return None  # the branches bind nothing used later: nothing for `lax.cond` to return
    local = _local_names(ctx)
    reads = (loaded_names(list(node.body)) | loaded_names(list(node.orelse))) & local & before
    operands = sorted(reads | (set(outputs) & before))
    return CondBranches(node, tuple(outputs), tuple(operands))


def _local_names(ctx: Context) -> set[str]:
    function = ctx.function
    if function is None:
        return set()
    return set(function.scope.bound) - set(function.scope.imports)


def while_plan(ctx: Context, node: ast.While) -> WhileLoop | None:
    """``while cond: body`` -> ``lax.while_loop`` carrying every name the body rebinds."""
    if node.orelse or leaves_block(node.body) or stores_into_containers(node.body):
        return None
    carried = stored_names(node.body)
    before = definitely_bound_before(ctx, node)
    if not carried or any(name not in before for name in carried):
        return None
    return WhileLoop(node, tuple(carried))


def fori_plan(ctx: Context, node: ast.For) -> ForiLoop | None:
    """``for i in range(a, b): body`` -> ``lax.fori_loop(a, b, body, carry)``."""
    call = node.iter
    if not (isinstance(call, ast.Call) and ctx.qualname(call.func) == "builtins.range"):
        return None
    if call.keywords or not 1 <= len(call.args) <= 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if not isinstance(node.target, ast.Name) or node.orelse:
        return None
    carried = _fori_carry(ctx, node, node.target.id, node.body)
    return ForiLoop(node, node.target.id, carried) if carried else None


def counted_while_plan(ctx: Context, node: ast.While) -> ForiLoop | None:
    """``while i < b: body; i += 1`` (or ``i = i + 1``) -> ``lax.fori_loop(i, b, body, carry)``: the counter is
    local, advanced by the last statement and nowhere else, read after the loop by nothing (the
    loop leaves it at ``b``, ``fori_loop`` does not change it), and ``b`` does not change in it."""
    test, body = node.test, node.body[:-1]
    if node.orelse or not body or not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    if not isinstance(test.left, ast.Name) or not isinstance(test.ops[0], (ast.Lt, ast.LtE)):
        return None
    index = test.left.id
    if counter_step(node.body[-1], index) != 1:
        return None
    stored = set(stored_names(body))
    if index in stored or loaded_names([test.comparators[0]]) & stored or index not in _local_names(ctx):
        return None
    if index in read_later(ctx, node, {index}) or _read_by_nested_code(ctx, index):
        return None
    carried = _fori_carry(ctx, node, index, body)
    return ForiLoop(node, index, carried, inclusive=isinstance(test.ops[0], ast.LtE)) if carried else None


def _read_by_nested_code(ctx: Context, name: str) -> bool:
    """Whether a function or lambda nested in the current one names ``name``: it may read the
    counter after the loop, whenever it is called."""
    function = ctx.function
    if function is None:
        return False
    return any(
        isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        and inner is not function.node
        and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(inner))
        for inner in ast.walk(function.node)
    )


def _fori_carry(ctx: Context, node: ast.stmt, index: str, body: list[ast.stmt]) -> tuple[str, ...] | None:
    """The names a ``fori_loop`` body made of ``body`` must carry: those it rebinds that were
    bound before the loop; None where the body cannot be lifted (it leaves the block, stores into
    containers, rebinds the index, or binds a temporary read after the loop or before it is
    written)."""
    if leaves_block(body) or stores_into_containers(body):
        return None
    body_names = stored_names(body)
    before = definitely_bound_before(ctx, node)
    later = read_later(ctx, node, {*body_names, index})
    if index in later - {"_"} or index in body_names:
        return None
    carried = [name for name in body_names if name in before]
    temporaries = [name for name in body_names if name not in before]
    if any(name in later for name in temporaries) or not carried:
        return None
    if _read_before_write(body, temporaries):
        return None
    return tuple(carried)


def _read_before_write(body: list[ast.stmt], names: list[str]) -> set[str]:
    """Of ``names``, those a straight-line body may read before binding them."""
    written: set[str] = set()
    early: set[str] = set()
    for statement in body:
        reads = (
            loaded_names([statement])
            if not isinstance(statement, ast.Assign)
            else loaded_names([statement.value])
        )
        early |= (reads & set(names)) - written
        written |= set(stored_names([statement]))
    return early
