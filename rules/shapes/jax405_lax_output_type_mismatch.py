"""JAX405: a ``lax`` loop body that hands back its carry with another structure or dtype than
it was given, or ``cond``/``switch`` branches that return different ones."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from jaxlint.engine.astutil import call_argument, callee_leaf, encloses
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes, returned_expressions
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.values import is_jax_array

from ..support.dtypes import DtypeKind, carry_mismatch, dtype_kind
from ..support.explain import snippet

# loop -> (body position and keyword, carry position and keyword, whether the body returns
# (carry, output) rather than the carry)
LOOPS = {
    "jax.lax.fori_loop": ((2, "body_fun"), (3, "init_val"), False),
    "jax.lax.while_loop": ((1, "body_fun"), (2, "init_val"), False),
    "jax.lax.scan": ((0, "f"), (1, "init"), True),
}
BRANCHES = ("jax.lax.cond", "jax.lax.switch")
LEAVES = frozenset(name.rsplit(".", 1)[1] for name in [*LOOPS, *BRANCHES])
DISPLAYS = (ast.Tuple, ast.List)
IMPLICIT_NONE = ast.Constant(None)  # what a def without `return` hands back


@dataclass(frozen=True)
class Output:
    """One value a function hands back, as far as its expression shows: ``None``, a tuple or
    list display, or a leaf (a number or an array) with its dtype kind where known."""

    node: ast.expr
    scope: Scope
    shape: str  # "none", "tuple", "list", "dict", "carry_dict", "leaf" or "unknown"
    items: tuple[Output, ...] = ()
    kind: DtypeKind | None = None
    implicit: bool = False  # the `None` a def without `return` hands back
    keys: tuple[str, ...] = ()  # a dict's keys (items in their order); a carry copy's added keys
    removed: tuple[str, ...] = ()  # the keys a carry copy deletes
    sites: tuple[ast.stmt, ...] = ()  # the statements that set a carry copy's keys, then delete

    def describe(self) -> str:
        if self.shape in ("tuple", "list"):
            return f"a {self.shape} of {len(self.items)}"
        if self.shape == "dict":
            return f"a dict of keys {', '.join(repr(k) for k in self.keys)}" if self.keys else "an empty dict"
        if self.shape == "carry_dict":
            changes = [f"sets {', '.join(repr(k) for k in self.keys)}"] if self.keys else []
            changes += [f"deletes {', '.join(repr(k) for k in self.removed)}"] if self.removed else []
            return f"a copy of the carry dict that {' and '.join(changes)}"
        if self.shape == "none":
            return "`None`"
        if isinstance(self.node, ast.Constant) and self.kind is not None:
            return {"bool": "a Python bool", "int": "a Python int", "float": "a Python float"}[self.kind.kind]
        return self.kind.describe() if self.kind is not None else "an array"


class LaxOutputTypeMismatch(Rule):
    """## What it does
    Finds a `lax.fori_loop`, `lax.while_loop` or `lax.scan` whose body hands back its carry
    with another structure (a tuple of three for a tuple of two, a list for a tuple) or another
    dtype (a float where the carry starts as `jnp.int32(0)` or `jnp.arange(n)`; an integer
    cast where it starts as a float) than the carry it starts with; and `lax.cond`/`lax.switch`
    branches that return different structures (a tuple and an array, `None` and an array) or
    dtypes (`0` in one branch, `0.5` in the other).

    Only what the code shows is compared: tuple and list displays, `None`, numbers, explicit
    dtypes (`jnp.int32(0)`, `.astype(jnp.int32)`, `dtype=jnp.int32`), and operations whose
    result is a float whatever their input (`c + 0.5`, `c / 2`, `jnp.exp(c)`).

    ## Why is this bad?
    A `lax` loop compiles its body once, for a carry of fixed structure, shape and dtype, and a
    `cond` compiles both branches into one program with one output type. JAX raises `TypeError`
    when it traces them ("body function carry input and carry output must have equal types",
    "cond branches must have equal output types"). A Python number as the initial carry is the
    one exception: JAX promotes `0` to the float the body returns, so a loop started at `0` may
    add `0.5`, while one started at `jnp.int32(0)` may not. Branches get no such promotion.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(i, total):
        return total + 0.5 * i

    lax.fori_loop(0, 10, body, jnp.int32(0))
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(i, total):
        return total + 0.5 * i

    lax.fori_loop(0, 10, body, jnp.float32(0))
    ```

    ## Fix safety
    No automatic fix: which of the two types the program meant is the author's call.

    ## References
    - [Control flow](https://docs.jax.dev/en/latest/control-flow.html)
    - [Type promotion semantics](https://docs.jax.dev/en/latest/type_promotion.html)
    """

    code = "JAX405"
    name = "lax-output-type-mismatch"
    message = "A `lax` loop carry or `cond` branch output changes structure or dtype"
    outcome = "TypeError when JAX traces the loop or branch"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in LEAVES:
            return
        qualname = ctx.qualname(node.func)
        if qualname in LOOPS:
            self.check_loop(node, ctx, qualname)
        elif qualname in BRANCHES:
            self.check_branches(node, ctx, qualname)

    def check_loop(self, node: ast.Call, ctx: Context, qualname: str) -> None:
        (body_at, body_keyword), (carry_at, carry_keyword), pairs = LOOPS[qualname]
        body_argument = call_argument(node, body_at, body_keyword)
        start = call_argument(node, carry_at, carry_keyword)
        if body_argument is None or start is None:
            return
        found = ctx.model.resolve_function(body_argument, ctx.scope)
        if found is None:
            return
        body = found[0]
        initial = _output(ctx, start, ctx.scope)
        loop = "lax." + qualname.rsplit(".", 1)[1]
        for returned in _returns(body):
            if pairs and self.check_pair(node, ctx, body, _output(ctx, returned, body.scope)):
                return
            carried = _carry_of(returned, pairs)
            if carried is None:
                continue
            carry = _carry_parameter(body, qualname)
            differing = _carry_difference(
                initial, _output(ctx, carried, body.scope, function=body, carry=carry)
            )
            if differing is not None:
                before, after = differing
                handed = _handing_back(ctx, body, after)
                at, through = _site(body, after)
                changed = _changed_key_site(before, after)
                if changed is not None:  # where the body adds or deletes the key
                    at = through = changed
                ctx.report(
                    at,
                    f"{handed} where the carry of `{loop}` (line {node.lineno}) starts as {before.describe()} "
                    f"(`{snippet(ctx, before.node)}`): a loop carry keeps its structure and dtype, so "
                    f"JAX raises `TypeError` (carry input and output types differ); start the carry "
                    f"with the type the body returns",
                    end=through,
                )
                return

    def check_pair(self, node: ast.Call, ctx: Context, body: FunctionInfo, out: Output) -> bool:
        """A ``scan`` body must return a pair, ``(carry, output)``: report one that does not."""
        if out.shape in ("unknown", "tuple", "list") and (out.shape == "unknown" or len(out.items) == 2):
            return False
        handed = _handing_back(ctx, body, out)
        at, through = _site(body, out)
        ctx.report(
            at,
            f"{handed}, but a `lax.scan` body must return a pair, `(carry, output)` (line "
            f"{node.lineno}): JAX raises `TypeError` (scan body output must be a pair); return "
            f"`new_carry, y`, or `new_carry, None` when there is no per-step output",
            end=through,
        )
        return True

    def check_branches(self, node: ast.Call, ctx: Context, qualname: str) -> None:
        if any(isinstance(a, ast.Starred) for a in node.args):
            return
        if qualname == "jax.lax.cond":
            if len(node.args) == 5 or len(node.args) < 3:
                return  # the old `cond(pred, true_operand, true_fun, false_operand, false_fun)`
            branches = node.args[1:3]
        elif len(node.args) > 1 and isinstance(node.args[1], DISPLAYS):
            branches = list(node.args[1].elts)
        else:
            return
        outputs: list[tuple[FunctionInfo, Output]] = []
        for branch in branches:
            found = ctx.model.resolve_function(branch, ctx.scope)
            if found is None:
                return
            function = found[0]
            outputs += [
                (function, _output(ctx, r, function.scope, function=function)) for r in _returns(function)
            ]
        if not outputs:
            return
        primitive = "lax." + qualname.rsplit(".", 1)[1]
        first, a = outputs[0]
        for second, b in outputs[1:]:
            differing = _branch_difference(a, b)
            if differing is None:
                continue
            here, there = differing
            at, through = _site(second, there)
            ctx.report(
                at,
                f"{_returning(ctx, second, there)} where {_returning(ctx, first, here)}: the "
                f"branches of `{primitive}` (line {node.lineno}) must return the same structure and "
                f"dtype, so JAX raises `TypeError`; return the same type from every branch",
                end=through,
            )
            return


def _site(function: FunctionInfo, output: Output) -> tuple[ast.AST, ast.AST]:
    """Where to report ``output`` (from, through): a def without ``return`` from its ``def``
    through its last parameter."""
    if not output.implicit:
        return output.node, output.node
    node = function.node
    parameters = [*node.args.posonlyargs, *node.args.args]
    return node, parameters[-1] if parameters else node


def _handing_back(ctx: Context, body: FunctionInfo, output: Output) -> str:
    if output.implicit:
        return f"`{body.name}` has no `return`, so it hands back `None`"
    return f"`{snippet(ctx, output.node)}` in `{body.name}` hands back {output.describe()}"


def _returning(ctx: Context, function: FunctionInfo, output: Output) -> str:
    if output.implicit:
        return f"`{function.name}` returns `None` (it has no `return`)"
    return f"`{snippet(ctx, output.node)}` in `{function.name}` returns {output.describe()}"


def _returns(function: FunctionInfo) -> list[ast.expr]:
    """What the function returns, when it has one ``return`` (with several, a Python branch on
    a static value may pick which one is traced): ``None`` for a def that never returns a value
    and cannot end otherwise (no ``raise``, no ``yield``)."""
    returned = returned_expressions(function.node)
    if _always_raises(function):
        return []
    if returned or isinstance(function.node, ast.Lambda):
        return returned if len(returned) == 1 else []
    body = getattr(function.node, "body", [])
    nodes = list(own_nodes(body))
    if any(isinstance(n, (ast.Return, ast.Raise, ast.Yield, ast.YieldFrom)) for n in nodes):
        return []
    return [IMPLICIT_NONE]


def _always_raises(function: FunctionInfo) -> bool:
    """A def whose body raises before it can return: a ``raise`` or ``assert False`` at its top."""
    body = function.node.body
    return isinstance(body, list) and any(
        isinstance(s, ast.Raise)
        or (isinstance(s, ast.Assert) and isinstance(s.test, ast.Constant) and not s.test.value)
        for s in body
    )


def _carry_of(returned: ast.expr, pairs: bool) -> ast.expr | None:
    if not pairs:
        return returned
    if isinstance(returned, DISPLAYS) and len(returned.elts) == 2:
        return returned.elts[0]
    return None


def _output(
    ctx: Context,
    expr: ast.expr,
    scope: Scope,
    depth: int = 0,
    function: FunctionInfo | None = None,
    carry: str | None = None,
) -> Output:
    """What ``expr`` shows of the value it makes; a name bound once is read through, and so,
    in what ``function`` returns, is a name's last assignment before its ``return``, and a
    dict it builds from ``carry`` (its carry parameter) there."""
    if isinstance(expr, ast.Name) and depth < 3:
        owner = scope.lookup(expr.id)
        value = None if owner is None else owner.single_value(expr.id)
        if isinstance(value, (*DISPLAYS, ast.Constant)):
            inner = _output(ctx, value, owner or scope, depth + 1)
            return Output(expr, scope, inner.shape, inner.items, inner.kind)
        built = None if function is None or carry is None else _dict_built(function, expr, carry)
        if built is not None:
            return built
        if function is not None and owner is function.scope:
            assigned = value if value is not None else _assigned_before_return(function, expr)
            if assigned is not None:
                return _output(ctx, assigned, scope, depth + 1)  # reported where it is computed
    if isinstance(expr, ast.Constant) and expr.value is None:
        return Output(expr, scope, "none", implicit=expr is IMPLICIT_NONE)
    if isinstance(expr, DISPLAYS):
        if any(isinstance(e, ast.Starred) for e in expr.elts):
            return Output(expr, scope, "unknown")
        items = tuple(_output(ctx, e, scope, depth, function, carry) for e in expr.elts)
        return Output(expr, scope, "tuple" if isinstance(expr, ast.Tuple) else "list", items)
    if isinstance(expr, ast.Dict):
        keys = _constant_keys(expr)
        if keys is None:
            return Output(expr, scope, "unknown")
        items = tuple(_output(ctx, v, scope, depth, function, carry) for v in expr.values)
        return Output(expr, scope, "dict", items, keys=keys)
    kind = dtype_kind(ctx.model, expr, scope)
    if kind is not None or _is_leaf(ctx, expr, scope):
        return Output(expr, scope, "leaf", kind=kind)
    return Output(expr, scope, "unknown")


def _assigned_before_return(function: FunctionInfo, name: ast.Name) -> ast.expr | None:
    """What ``name``, read in the ``return`` that ends ``function``'s body, was last assigned
    (``n = n + 0.5``) in the straight-line statements before it, where nothing else between
    binds it (a loop, a branch, an unpacking: unknown)."""
    body = function.node.body
    if not isinstance(body, list) or not body or not isinstance(body[-1], ast.Return):
        return None
    if not encloses(body[-1], name):
        return None
    for statement in reversed(body[:-1]):
        if not any(
            isinstance(n, ast.Name) and n.id == name.id and not isinstance(n.ctx, ast.Load)
            for n in ast.walk(statement)
        ):
            continue
        simple = isinstance(statement, ast.Assign) and len(statement.targets) == 1
        if simple and isinstance(statement.targets[0], ast.Name):  # pyright: ignore[reportAttributeAccessIssue]
            return statement.value  # pyright: ignore[reportAttributeAccessIssue]
        return None
    return None


def _is_leaf(ctx: Context, expr: ast.expr, scope: Scope) -> bool:
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float))
    return is_jax_array(ctx.model.value(expr, scope))


def _structure_differs(a: Output, b: Output) -> bool:
    if a.shape == "dict" and b.shape == "carry_dict":  # the carry started as `a`, copied and changed
        return bool(set(b.keys) - set(a.keys) or set(b.removed) & set(a.keys))
    known = ("none", "tuple", "list", "dict", "leaf")
    if a.shape not in known or b.shape not in known:
        return False
    if a.shape != b.shape:
        return True
    if a.shape == "dict":
        return set(a.keys) != set(b.keys)
    return a.shape in ("tuple", "list") and len(a.items) != len(b.items)


def _pairs(a: Output, b: Output) -> Iterator[tuple[Output, Output]]:
    """``a`` and ``b`` and, where both are displays of one length (dicts of one key set), their
    items, depth first."""
    yield a, b
    if a.shape == b.shape and a.shape in ("tuple", "list") and len(a.items) == len(b.items):
        for x, y in zip(a.items, b.items):
            yield from _pairs(x, y)
    if a.shape == b.shape == "dict" and set(a.keys) == set(b.keys):
        by_key = dict(zip(b.keys, b.items))
        for key, x in zip(a.keys, a.items):
            yield from _pairs(x, by_key[key])


def _constant_keys(display: ast.Dict) -> tuple[str, ...] | None:
    """The keys of a dict display, when each is a string literal (no ``**`` spread)."""
    keys = [
        k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None for k in display.keys
    ]
    return None if any(k is None for k in keys) else tuple(keys)  # pyright: ignore[reportReturnType]


def _carry_parameter(body: FunctionInfo, loop: str) -> str | None:
    """The parameter of a loop body that receives the carry (``fori_loop`` bodies take the
    index first)."""
    names = body.positional_names()
    index = 1 if loop == "jax.lax.fori_loop" else 0
    return names[index] if index < len(names) else None


COPIES = frozenset({"dict", "copy"})  # `dict(carry)`, `carry.copy()`, `copy.copy(carry)`


def _copies_carry(value: ast.expr, carry: str) -> bool:
    """``dict(carry)``, ``{**carry}``, ``carry.copy()`` or ``copy.copy(carry)``."""
    if isinstance(value, ast.Dict):
        return value.keys == [None] and isinstance(value.values[0], ast.Name) and value.values[0].id == carry
    if not isinstance(value, ast.Call) or value.keywords:
        return False
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr == "copy" and not value.args:
        return isinstance(func.value, ast.Name) and func.value.id == carry
    leaf = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    arguments = value.args
    return (
        leaf in COPIES
        and len(arguments) == 1
        and isinstance(arguments[0], ast.Name)
        and arguments[0].id == carry
    )


def _dict_built(function: FunctionInfo, name: ast.Name, carry: str) -> Output | None:
    """The dict ``name`` holds at the ``return`` that ends ``function``'s body, when the
    straight-line statements before it build it: a copy of the carry (or a display) whose
    string keys are then set (``d["max"] = ...``) or deleted. Anything else that touches
    the name makes it unknown."""
    body = function.node.body
    if not isinstance(body, list) or not body or not isinstance(body[-1], ast.Return):
        return None
    if not encloses(body[-1], name):
        return None
    added: dict[str, ast.stmt] | None = None  # key -> the statement that sets it
    removed: dict[str, ast.stmt] = {}
    for statement in body[:-1]:
        if not any(isinstance(n, ast.Name) and n.id == name.id for n in ast.walk(statement)):
            continue
        key = _keyed_store(statement, name.id)
        if isinstance(statement, ast.Assign) and _assigns_name(statement, name.id):
            added, removed = ({}, {}) if _copies_carry(statement.value, carry) else (None, {})
        elif added is not None and key is not None:
            storing = isinstance(statement, ast.Assign)  # else `del d["k"]`
            (added if storing else removed)[key] = statement
            (removed if storing else added).pop(key, None)
        else:
            added = None
    if added is None or not (added or removed):
        return None
    sites = (*added.values(), *removed.values())
    return Output(name, function.scope, "carry_dict", keys=tuple(added), removed=tuple(removed), sites=sites)


def _changed_key_site(start: Output, out: Output) -> ast.stmt | None:
    """The statement of a carry copy that adds a key the carry did not start with, or deletes
    one it did."""
    if start.shape != "dict" or out.shape != "carry_dict":
        return None
    for key, site in zip([*out.keys, *out.removed], out.sites):
        if (key in start.keys) == (key in out.removed):
            return site
    return None


def _assigns_name(statement: ast.Assign, name: str) -> bool:
    return (
        len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == name
    )


def _keyed_store(statement: ast.stmt, name: str) -> str | None:
    """The string key of ``name["k"] = value`` (with ``name`` not read in ``value``) or
    ``del name["k"]``."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(statement.value)):
            target = None  # `d["k"] = f(d)`: what `f` does with `d` is unknown
    elif isinstance(statement, ast.Delete) and len(statement.targets) == 1:
        target = statement.targets[0]
    else:
        return None
    if not (
        isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name
    ):
        return None
    key = target.slice
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def _carry_difference(start: Output, out: Output) -> tuple[Output, Output] | None:
    for a, b in _pairs(start, out):
        if _structure_differs(a, b):
            return a, b
        if a.kind is not None and b.kind is not None and carry_mismatch(a.kind, b.kind):
            return a, b
    return None


def _branch_difference(a: Output, b: Output) -> tuple[Output, Output] | None:
    for x, y in _pairs(a, b):
        if _structure_differs(x, y):
            return x, y
        if x.kind is not None and y.kind is not None and x.kind.kind != y.kind.kind:
            return x, y
    return None
