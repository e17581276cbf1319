"""Facts about blocks of statements: what they bind and read, whether control can leave them,
whether they store into containers, and which names are certainly bound before a statement.

The rules that rewrite control flow (:mod:`.lifting`) and the compile-hygiene rules ask these.
"""

from __future__ import annotations

import ast
from collections import Counter

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.semantic import api
from jaxlint.semantic.api import MUTATING_METHODS
from jaxlint.semantic.bodies import own_nodes, stores
from jaxlint.semantic.scopes import FUNCTION_NODES

GENERATORS = (ast.Yield, ast.YieldFrom, ast.Await)
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


def statement_path(body: list[ast.stmt], node: ast.AST) -> list[tuple[list[ast.stmt], int]]:
    """The blocks from ``body`` down to the statement that holds ``node``, each with the index
    of its statement on the way (the last is ``node`` itself, or the innermost statement whose
    header or block holds it); empty where ``body`` does not hold ``node``."""
    path: list[tuple[list[ast.stmt], int]] = []
    block: list[ast.stmt] | None = body
    while block is not None:
        index = next((i for i, s in enumerate(block) if s is node or encloses(s, node)), None)
        if index is None:
            break
        path.append((block, index))
        block = None if block[index] is node else _block_holding(block[index], node)
    return path


def assigned_before(ctx: Context, node: ast.AST, name: str) -> ast.expr | None:
    """The value ``name`` holds where ``node`` runs, in straight-line code: the last statement
    before it that binds ``name`` is a plain ``name = value`` in the body of its function (or
    module) or in a ``try``/``with`` block on the way to ``node`` (blocks that always run); None
    where ``node`` is in a branch or a loop, or the binding before it is of another kind."""
    function = ctx.scope.function.node
    body = (
        function.body if isinstance(function, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)) else None
    )
    path = statement_path(body, node) if body is not None else []
    if not path:
        return None
    for depth in range(len(path) - 1, -1, -1):
        block, index = path[depth]
        if depth > 0 and not _always_entered(path[depth - 1][0][path[depth - 1][1]], block):
            return None
        for statement in reversed(block[:index]):
            if isinstance(statement, ast.Assign) and [_target_name(t) for t in statement.targets] == [name]:
                return statement.value
            if _binds(statement, name):
                return None
    return None


def _always_entered(statement: ast.stmt, block: list[ast.stmt]) -> bool:
    """Whether ``block`` of ``statement`` runs whenever the statement does: a ``try`` or ``with`` body."""
    return isinstance(statement, (ast.Try, ast.With, ast.AsyncWith)) and block is statement.body


def _binds(statement: ast.stmt, name: str) -> bool:
    """Whether ``statement`` binds ``name`` in its own scope, any way (not in a nested def):
    a store or a def (:func:`stores`), or an import."""
    return stores([statement], name) > 0 or any(
        isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name
        for node in own_nodes([statement])
    )


def _target_name(target: ast.expr) -> str | None:
    return target.id if isinstance(target, ast.Name) else None


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def reached_on_every_call(ctx: Context, node: ast.AST) -> bool:
    """Whether every call of the current function runs ``node``: it sits in a statement of the
    body itself (not in a branch or a loop's block, nor a conditional part of an expression) that
    no earlier ``return`` or ``raise`` can skip."""
    function = ctx.function.node if ctx.function is not None else None
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    path = statement_path(function.body, node)
    if len(path) != 1:
        return False
    index = path[0][1]
    if any(isinstance(n, (ast.Return, ast.Raise)) for s in function.body[:index] for n in own_nodes([s])):
        return False
    return not _conditional_part(parents(ctx), node, function.body[index])


def _conditional_part(parent_of: dict[ast.AST, ast.AST], node: ast.AST, statement: ast.stmt) -> bool:
    """Whether ``node`` is a part of ``statement`` that may not run: a branch of ``a if c else b``,
    an operand after the first of ``and``/``or``, a lambda or comprehension body."""
    child, parent = node, parent_of.get(node)
    while parent is not None and child is not statement:
        if isinstance(parent, ast.IfExp) and child is not parent.test:
            return True
        if isinstance(parent, ast.BoolOp) and child is not parent.values[0]:
            return True
        if isinstance(parent, COMPREHENSIONS) and child is not parent.generators[0]:
            return True
        if isinstance(parent, ast.comprehension) and child is not parent.iter:
            return True
        if isinstance(parent, FUNCTION_NODES):
            return True
        child, parent = parent, parent_of.get(parent)
    return False


def _contains(outer: ast.AST, inner: ast.AST) -> bool:
    return outer is not inner and encloses(outer, inner)


def _block_holding(item: ast.stmt, statement: ast.AST) -> list[ast.stmt] | None:
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


def is_local_name(ctx: Context, name: str) -> bool:
    """Whether assigning ``name`` here rebinds a variable of the current function (at module
    level, of the module): a fix that writes ``name = ...`` in a function where ``name`` is free
    (a global or closed-over value) would make it local and break every read before the write."""
    scope = ctx.function.scope if ctx.function is not None else ctx.scope
    return name in scope.bound and name not in scope.globals and name not in scope.nonlocals


def parents(ctx: Context) -> dict[ast.AST, ast.AST]:
    """Each node of the module and the node it is a child of (the model's one index of them)."""
    return ctx.model.parent_map


def name_loads(ctx: Context, name: str) -> list[tuple[ast.Name, ast.AST | None]]:
    """Every read of ``name`` in the file, with its parent node (indexed once per file)."""
    index = ctx.memo.get("name-loads")
    if index is None:
        index = {}
        for child, parent in parents(ctx).items():
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                index.setdefault(child.id, []).append((child, parent))
        ctx.memo["name-loads"] = index
    return index.get(name, [])


def literal_step(statement: ast.stmt, name: str) -> tuple[ast.operator, int | float] | None:
    """The operator and literal number of ``name op= k`` or ``name = name op k``; None for any
    other statement."""
    if isinstance(statement, ast.AugAssign) and stores_name(statement.target, name):
        op, amount = statement.op, statement.value
    elif (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and stores_name(statement.targets[0], name)
        and isinstance(statement.value, ast.BinOp)
        and isinstance(statement.value.left, ast.Name)
        and statement.value.left.id == name
    ):
        op, amount = statement.value.op, statement.value.right
    else:
        return None
    value = amount.value if isinstance(amount, ast.Constant) else None
    return (op, value) if type(value) in (int, float) and isinstance(value, (int, float)) else None


def counter_step(statement: ast.stmt, name: str) -> int | None:
    """How much ``statement`` advances the counter ``name``: ``k`` in ``i += k`` or
    ``i = i + k`` (``-k`` for ``-``), for a literal ``k``; None for any other statement."""
    step = literal_step(statement, name)
    if step is None or type(step[1]) is not int:
        return None
    op, amount = step
    if isinstance(op, ast.Add):
        return int(amount)
    return -int(amount) if isinstance(op, ast.Sub) else None


def stores_name(node: ast.AST, name: str) -> bool:
    """Whether ``node`` is the name ``name`` bound (or deleted), not read."""
    return isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)


def mention_counts(ctx: Context) -> Counter[str]:
    """How many times the module mentions each name, as a name or an attribute (``obj.name``):
    a method is named by its attribute."""
    found = ctx.memo.get("mention_counts")
    if found is None:
        found = ctx.memo["mention_counts"] = Counter(
            n.id if isinstance(n, ast.Name) else n.attr  # pyright: ignore[reportAttributeAccessIssue]
            for n in ast.walk(ctx.model.tree)
            if isinstance(n, (ast.Name, ast.Attribute))
        )
    return found


def name_counts(ctx: Context) -> Counter[str]:
    """How many times the module mentions each name (counted once per file)."""
    found = ctx.memo.get("name_counts")
    if found is None:
        found = ctx.memo["name_counts"] = Counter(
            n.id for n in ast.walk(ctx.model.tree) if isinstance(n, ast.Name)
        )
    return found


def names_by_function(ctx: Context) -> dict[ast.AST, frozenset[str]]:
    """Each function (and lambda) of the module and the names it mentions, nested code included
    (collected once per file)."""
    found = ctx.memo.get("names_by_function")
    if found is None:
        found = {}
        for node in ast.walk(ctx.model.tree):
            if isinstance(node, FUNCTION_NODES):
                found[node] = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
        ctx.memo["names_by_function"] = found
    return found
