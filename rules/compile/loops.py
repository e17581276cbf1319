"""Loops: how many times they run when that is static, and what their bodies do (JAX601,
JAX607, JAX608).

Trip counts come from literals and from names bound once to them (``N = 1000`` at module level);
anything else is unknown (None), and the rules stay silent on it.
"""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.semantic.api import MUTATING_METHODS
from jaxlint.semantic.values import is_jax_array, is_traced

from ..support.blocks import counter_step, own_nodes, side_effect_free, stores_name

MAX_TRIPS = 10**9
SWEEPS = frozenset({"itertools.product", "builtins.zip", "builtins.enumerate"})
SWEEP = 10  # a literal `range` shorter than this is a handful of configurations
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def range_trips(ctx: Context, loop: ast.For) -> int | None:
    """How many times ``for ... in range(...)`` runs, when its bounds are literal integers or
    names bound once to them."""
    call = loop.iter
    if not (isinstance(call, ast.Call) and ctx.qualname(call.func) == "builtins.range"):
        return None
    if call.keywords or not 1 <= len(call.args) <= 3:
        return None
    bounds = [static_int(ctx, arg) for arg in call.args]
    if any(b is None for b in bounds):
        return None
    try:
        return min(len(range(*bounds)), MAX_TRIPS)  # pyright: ignore[reportArgumentType, reportCallIssue]
    except (ValueError, OverflowError):
        return None


def while_trips(ctx: Context, loop: ast.While) -> int | None:
    """How many times ``i = a; while i < b: ...; i += k`` runs, for static ``a``, ``b``, ``k``."""
    test = loop.test
    if loop.orelse or not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
    ):
        return None
    name, op, bound = test.left.id, test.ops[0], static_int(ctx, test.comparators[0])
    steps = [k for k in (counter_step(statement, name) for statement in loop.body) if k is not None]
    stores = [n for n in own_nodes(loop.body) if stores_name(n, name)]
    start = _initial_value(ctx, loop, name)
    if bound is None or start is None or len(steps) != 1 or len(stores) != 1 or not steps[0]:
        return None
    step = steps[0]
    inclusive = isinstance(op, (ast.LtE, ast.GtE))
    span = bound - start + ((1 if step > 0 else -1) if inclusive else 0)
    if (isinstance(op, (ast.Lt, ast.LtE)) and step > 0) or (isinstance(op, (ast.Gt, ast.GtE)) and step < 0):
        return min(max(0, -(-span // step)), MAX_TRIPS)
    return None


def _initial_value(ctx: Context, loop: ast.While, name: str) -> int | None:
    """The static value ``name`` gets from the last statement before the loop that binds it."""
    parent = ctx.parent
    block = next(
        (
            b
            for f in ("body", "orelse", "finalbody")
            if isinstance(b := getattr(parent, f, None), list) and loop in b
        ),
        None,
    )
    if block is None:
        return None
    for statement in reversed(block[: block.index(loop)]):
        stores = [n for n in own_nodes([statement]) if stores_name(n, name)]
        if not stores:
            continue
        if isinstance(statement, ast.Assign) and statement.targets == stores:
            return static_int(ctx, statement.value)
        return None
    return None


def static_int(ctx: Context, node: ast.expr, depth: int = 0) -> int | None:
    """The value of an integer expression built from literals and names bound once to them."""
    if depth > 8:
        return None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = static_int(ctx, node.operand, depth + 1)
        return None if value is None else -value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
        left, right = static_int(ctx, node.left, depth + 1), static_int(ctx, node.right, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add):
            value = left + right
        elif isinstance(node.op, ast.Sub):
            value = left - right
        elif isinstance(node.op, ast.Mult):
            value = left * right
        elif right:
            value = left // right
        else:
            return None
        return value if abs(value) <= MAX_TRIPS else None
    if isinstance(node, ast.Name):
        owner = ctx.scope.lookup(node.id)
        if owner is None or owner.bound.get(node.id) != 1:
            return None
        value = owner.assigned.get(node.id)
        return None if value is None else static_int(ctx, value, depth + 1)
    return None


def computes_on_arrays(ctx: Context, loop: ast.For | ast.While) -> bool:
    """Whether the body rebinds a name to a traced value, or appends one to a container."""
    for node in own_nodes(loop.body):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and is_traced(ctx.value(node)):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATING_METHODS
            and any(is_traced(ctx.value(a)) for a in node.args)
        ):
            return True
    return False


def liftable(ctx: Context, loop: ast.For | ast.While) -> bool:
    """Whether the body can become a ``fori_loop`` body: it only computes with JAX (no calls of
    helpers or layer constructors, which may create parameters or have effects), and its index
    (a ``for`` target, a ``while`` loop's counter) only indexes JAX arrays."""
    if isinstance(loop, ast.For):
        index, body = (loop.target.id if isinstance(loop.target, ast.Name) else None), loop.body
    else:
        test = loop.test
        name = test.left if isinstance(test, ast.Compare) else None
        index, body = (name.id if isinstance(name, ast.Name) else None), loop.body[:-1]
    calls = [node for node in own_nodes(body) if isinstance(node, ast.Call)]
    return all(side_effect_free(ctx, call) for call in calls) and _index_only_indexes_arrays(ctx, index, body)


def _index_only_indexes_arrays(ctx: Context, index: str | None, body: list[ast.stmt]) -> bool:
    """Whether the loop index is unused, or only indexes JAX arrays (``x[i]``, ``x.at[i]``): after
    the rewrite it is a tracer, which Python lists, ``range`` and ``if`` cannot take."""
    if index is None:
        return False
    parents: dict[ast.AST, ast.AST] = {}
    for node in own_nodes(body):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in own_nodes(body):
        if not (isinstance(node, ast.Name) and node.id == index):
            continue
        top, parent = node, parents.get(node)
        while isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Tuple)):
            top, parent = parent, parents.get(parent)
        if (
            isinstance(parent, ast.Subscript)
            and top is parent.slice
            and is_jax_array(ctx.value(parent.value))
        ):
            continue
        if isinstance(top, (ast.BinOp, ast.UnaryOp)) and is_traced(ctx.value(top)):
            continue  # arithmetic with traced arrays works on a traced index too
        return False
    return True


def bounded_sweep(ctx: Context, loop: ast.AST) -> bool:
    """A loop over a short literal collection (``for lr in (0.1, 0.01)``, ``range(3)``,
    ``itertools.product((4, 8), (1024, 2048))``): a sweep over configurations, where compiling
    each one is the point."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        iterable = loop.iter
    elif isinstance(loop, COMPREHENSIONS) and len(loop.generators) == 1:
        iterable = loop.generators[0].iter
    else:
        return False
    return literal_collection(ctx, iterable)


def literal_collection(ctx: Context, node: ast.expr, depth: int = 0) -> bool:
    if isinstance(node, ast.Name) and depth < 4:
        owner = ctx.scope.lookup(node.id)
        value = None if owner is None else owner.single_value(node.id)
        return value is not None and literal_collection(ctx, value, depth + 1)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return not any(isinstance(e, ast.Starred) for e in node.elts)
    if not isinstance(node, ast.Call) or node.keywords:
        return False
    qualname = ctx.qualname(node.func)
    if qualname == "builtins.range":
        bounds = node.args
        if not all(isinstance(b, ast.Constant) and type(b.value) is int for b in bounds):
            return False
        try:
            return len(range(*(b.value for b in bounds))) < SWEEP  # pyright: ignore[reportAttributeAccessIssue]
        except (TypeError, ValueError):
            return False
    if qualname in SWEEPS:
        return bool(node.args) and all(literal_collection(ctx, a, depth + 1) for a in node.args)
    return False
