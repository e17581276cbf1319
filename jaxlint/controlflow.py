"""When Python control flow on tracers can be rewritten, and into what: the fix plans.

The control-flow rules call these functions and hand the plan to their fixer as ``fix_data``;
the fixer only does syntax. The preconditions are AutoGraph's: every variable a rewritten block
rebinds is defined on every path (before the block, or in every branch), no ``return``/``break``/
``continue``/``yield``/``raise`` is left inside a lifted body, and (for ``jnp.where``) the branches
are side-effect-free expressions, since ``jnp.where`` evaluates both.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from jaxlint.astutil import encloses
from jaxlint.context import Context
from jaxlint.semantic import api
from jaxlint.semantic.scopes import FUNCTION_NODES, MUTATING_METHODS

EXITS = (ast.Return, ast.Break, ast.Continue, ast.Raise, ast.Global, ast.Nonlocal, ast.Delete)
GENERATORS = (ast.Yield, ast.YieldFrom, ast.Await)
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
SIMPLE_BINDERS = (
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.Import,
    ast.ImportFrom,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
)
PURE_BUILTINS = frozenset({"builtins.abs", "builtins.len", "builtins.range", "builtins.round"})

Plan = dict[str, Any]


# ---------------------------------------------------------------------------- syntax facts


def own_nodes(statements: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of ``statements``, not descending into nested functions or classes."""
    stack: list[ast.AST] = list(reversed(statements))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (*FUNCTION_NODES, ast.ClassDef)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def stored_names(statements: list[ast.stmt]) -> list[str]:
    """Names the statements bind, in first-binding order."""
    names: list[str] = []
    for node in own_nodes(statements):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            name = node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        else:
            continue
        if name not in names:
            names.append(name)
    return names


def loaded_names(nodes: list[ast.AST]) -> set[str]:
    return {
        n.id
        for node in nodes
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def leaves_block(statements: list[ast.stmt], in_loop: bool = False) -> bool:
    """Whether control can leave the statements other than by falling through (or yield)."""
    for node in own_nodes(statements):
        if isinstance(node, GENERATORS):
            return True
        if isinstance(node, (ast.Return, ast.Raise, ast.Global, ast.Nonlocal, ast.Delete)):
            return True
        if isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
            return True
        if isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            # break/continue inside an inner loop stay inside it
            if leaves_block(node.body, in_loop=True) or leaves_block(node.orelse, in_loop=False):
                return True
            continue
    return False


def stores_into_containers(statements: list[ast.stmt]) -> bool:
    """Item/attribute stores and mutating calls: effects a lifted body would run only once."""
    for node in own_nodes(statements):
        if isinstance(node, (ast.Subscript, ast.Attribute)) and not isinstance(node.ctx, ast.Load):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATING_METHODS
            and not _functional_update(node.func.value)
        ):
            return True
    return False


def _functional_update(receiver: ast.expr) -> bool:
    """``x.at[i]``: its ``.add()``/``.set()`` return a new array, they mutate nothing."""
    return (
        isinstance(receiver, ast.Subscript)
        and isinstance(receiver.value, ast.Attribute)
        and receiver.value.attr == "at"
    )


def definitely_bound_before(ctx: Context, statement: ast.stmt) -> set[str]:
    """Names certainly bound when ``statement`` starts: parameters, and names bound by earlier
    simple statements of the blocks that lead to it (not inside branches or loops)."""
    function = ctx.function
    if function is None or isinstance(function.node, ast.Lambda):
        return set()
    bound = {p.arg for p in function.param_nodes()}
    body: list[ast.stmt] = function.node.body
    while True:
        for item in body:
            if item is statement:
                return bound
            if _contains(item, statement):
                inner = _block_holding(item, statement)
                if inner is None:
                    return bound
                if isinstance(item, (ast.With, ast.AsyncWith)):
                    bound |= {
                        n.id
                        for i in item.items
                        if i.optional_vars is not None
                        for n in ast.walk(i.optional_vars)
                        if isinstance(n, ast.Name)
                    }
                body = inner
                break
            if isinstance(item, SIMPLE_BINDERS):
                bound |= set(stored_names([item]))
            elif isinstance(item, ast.If) and item.orelse:
                both = set(stored_names(item.body)) & set(stored_names(item.orelse))
                if not leaves_block(item.body) and not leaves_block(item.orelse):
                    bound |= both
        else:
            return bound


def _contains(outer: ast.AST, inner: ast.AST) -> bool:
    return outer is not inner and encloses(outer, inner)


def _block_holding(item: ast.stmt, statement: ast.stmt) -> list[ast.stmt] | None:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(item, field, None)
        if isinstance(block, list) and any(s is statement or _contains(s, statement) for s in block):
            return block
    for handler in getattr(item, "handlers", []):
        if any(s is statement or _contains(s, statement) for s in handler.body):
            return handler.body
    return None


def read_later(ctx: Context, statement: ast.stmt, names: set[str]) -> set[str]:
    """Which ``names`` are read after ``statement`` (textually later, or anywhere in an
    enclosing loop, whose next iteration reads them again)."""
    function = ctx.function
    if function is None:
        return set(names)
    end = (statement.end_lineno or statement.lineno, statement.end_col_offset or 0)
    found = set()
    loops = [loop for loop in ctx.loops if _contains(loop, statement)]
    for node in own_nodes(function.node.body if isinstance(function.node.body, list) else []):
        if isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load):
            position = (node.lineno, node.col_offset)
            if position > end or any(_contains(loop, node) for loop in loops):
                found.add(node.id)
    return found


def side_effect_free(ctx: Context, expression: ast.AST) -> bool:
    """Whether evaluating the expression has no effect but its value (jax/jnp calls, array
    methods and arithmetic): ``jnp.where`` evaluates both branches."""
    for node in ast.walk(expression):
        if isinstance(node, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Lambda)):
            return False
        if isinstance(node, ast.Call):
            qualname = ctx.qualname(node.func)
            if qualname is None:
                if not (isinstance(node.func, ast.Attribute) and node.func.attr in api.ARRAY_METHODS):
                    return False
            elif not (qualname.startswith(api.JAX_ARRAY_NAMESPACES) or qualname in PURE_BUILTINS):
                return False
    return True


# ---------------------------------------------------------------------------- NaN guards


def nan_guards(ctx: Context, expression: ast.expr) -> list[tuple[ast.expr, str]]:
    """Sub-expressions that are NaN (or infinite) outside their domain, with a value inside it:
    under ``jnp.where`` the unselected branch still runs, and its NaN poisons gradients."""
    guards: list[tuple[ast.expr, str]] = []
    for node in ast.walk(expression):
        if isinstance(node, ast.Call) and node.args:
            safe = NAN_PRONE.get(ctx.qualname(node.func) or "")
            if safe is not None:
                guards.append((node.args[0], safe))
        elif isinstance(node, ast.BinOp) and _divides_by_operand(node):
            guards.append((node.right, "1.0"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and not _natural_power(node.right):
            guards.append((node.left, "1.0"))
    return [(g, safe) for g, safe in guards if not isinstance(g, ast.Constant)]


def _divides_by_operand(node: ast.BinOp) -> bool:
    return isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and not _nonzero_constant(node.right)


def _natural_power(exponent: ast.expr) -> bool:
    return isinstance(exponent, ast.Constant) and isinstance(exponent.value, int) and exponent.value >= 0


def _nonzero_constant(node: ast.expr) -> bool:
    value = node.operand if isinstance(node, ast.UnaryOp) else node
    return isinstance(value, ast.Constant) and isinstance(value.value, (int, float)) and value.value != 0


# ---------------------------------------------------------------------------- plans


def if_plan(ctx: Context, node: ast.If, following: ast.stmt | None) -> Plan | None:
    """How to rewrite a Python ``if`` on a tracer: ``jnp.where`` over returns or assignments,
    else ``lax.cond`` with lifted branches; None when no rewrite is correct."""
    branches = _branches(node)
    if branches is None:
        return None
    tests, bodies, orelse = branches
    returned = _return_form(ctx, node, tests, bodies, orelse, following)
    if returned is not None:
        return returned
    assigned = _assign_form(ctx, node, tests, bodies, orelse)
    if assigned is not None:
        return assigned
    if len(tests) == 1:
        return _cond_form(ctx, node)
    return None


def _branches(node: ast.If) -> tuple[list[ast.expr], list[list[ast.stmt]], list[ast.stmt]] | None:
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
) -> Plan | None:
    values = [_single_return(body) for body in bodies]
    if any(v is None for v in values):
        return None
    if orelse:
        fallback = _single_return(orelse)
        consumes_next = False
    else:
        fallback = _single_return([following]) if following is not None else None
        consumes_next = True
    if fallback is None:
        return None
    every = [*tests, *values, fallback]
    if not all(side_effect_free(ctx, e) for e in every):  # type: ignore[arg-type]
        return None
    return {
        "form": "where-return",
        "tests": tests,
        "values": [*values, fallback],
        "guards": [nan_guards(ctx, v) for v in [*values, fallback]],  # type: ignore[arg-type]
        "consumes_next": consumes_next,
    }


def _assign_form(
    ctx: Context, node: ast.If, tests: list[ast.expr], bodies: list[list[ast.stmt]], orelse: list[ast.stmt]
) -> Plan | None:
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
    return {
        "form": "where-assign",
        "tests": tests,
        "names": names,
        "values": [[pairs.get(name) for pairs in assignments] for name in names],
        "guards": [
            [nan_guards(ctx, v) if v is not None else [] for v in (pairs.get(n) for pairs in assignments)]
            for n in names
        ],
    }


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


def _cond_form(ctx: Context, node: ast.If) -> Plan | None:
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
    local = _local_names(ctx)
    reads = (loaded_names(list(node.body)) | loaded_names(list(node.orelse))) & local & before
    operands = sorted(reads | (set(outputs) & before))
    return {"form": "cond", "outputs": outputs, "operands": operands}


def _local_names(ctx: Context) -> set[str]:
    function = ctx.function
    if function is None:
        return set()
    return set(function.scope.bound) - set(function.scope.imports)


def while_plan(ctx: Context, node: ast.While) -> Plan | None:
    """``while cond: body`` -> ``lax.while_loop`` carrying every name the body rebinds."""
    if node.orelse or leaves_block(node.body) or stores_into_containers(node.body):
        return None
    carried = stored_names(node.body)
    before = definitely_bound_before(ctx, node)
    if not carried or any(name not in before for name in carried):
        return None
    return {"form": "while", "carried": carried}


def fori_plan(ctx: Context, node: ast.For) -> Plan | None:
    """``for i in range(a, b): body`` -> ``lax.fori_loop(a, b, body, carry)``."""
    call = node.iter
    if not (isinstance(call, ast.Call) and ctx.qualname(call.func) == "builtins.range"):
        return None
    if call.keywords or not 1 <= len(call.args) <= 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if not isinstance(node.target, ast.Name) or node.orelse:
        return None
    if leaves_block(node.body) or stores_into_containers(node.body):
        return None
    index = node.target.id
    body_names = stored_names(node.body)
    before = definitely_bound_before(ctx, node)
    later = read_later(ctx, node, {*body_names, index})
    if index in later - {"_"} or index in body_names:
        return None
    carried = [name for name in body_names if name in before]
    temporaries = [name for name in body_names if name not in before]
    if any(name in later for name in temporaries) or not carried:
        return None
    first_reads = _read_before_write(node.body, temporaries)
    if first_reads:
        return None
    return {"form": "fori", "index": index, "carried": carried}


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
