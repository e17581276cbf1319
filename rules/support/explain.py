"""Helpers rules share to inspect nodes and word their messages."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from typing import TypeVar

from jaxlint.engine.context import Context
from jaxlint.fixing.plans import FailureRewrite, ForiLoop, MarkStatic, WhileLoop
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope
from jaxlint.semantic.tracing import array_parameters
from jaxlint.semantic.transforms import ABSTRACT, NONE
from jaxlint.semantic.values import UNKNOWN, is_jax_array, is_static, is_traced

from .blocks import mention_counts, reached_on_every_call

R = TypeVar("R")

MAX_SNIPPET = 48


def snippet(ctx: Context, node: ast.AST, limit: int = MAX_SNIPPET) -> str:
    """The source text of ``node`` on one line, shortened to ``limit`` characters."""
    try:
        text = ast.unparse(node)
    except (ValueError, RecursionError):
        return "..."
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def index_snippet(ctx: Context, node: ast.AST) -> str:
    """:func:`snippet` of the index of ``x[...]`` as written there: ``0, 0``, not ``(0, 0)``."""
    if isinstance(node, ast.Tuple) and len(node.elts) > 1:
        return ", ".join(snippet(ctx, element) for element in node.elts)
    return snippet(ctx, node)


def operand_snippet(ctx: Context, node: ast.AST) -> str:
    """:func:`snippet` of ``node`` as the operand of ``[...]`` or ``.attr``: parenthesised unless
    a name, attribute, call, item or constant (``(pred - target)[valid]``)."""
    text = snippet(ctx, node)
    atomic = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple, ast.Dict)
    return text if isinstance(node, atomic) else f"({text})"


def traced_name(ctx: Context, expr: ast.AST) -> str | None:
    """The first name inside ``expr`` whose value is traced, in source order."""
    names = sorted(
        (n for n in ast.walk(expr) if isinstance(n, ast.Name)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for name in names:
        if is_traced(ctx.value(name)):
            return name.id
    return None


def why_traced(ctx: Context, expr: ast.AST | None = None) -> str:
    """Why values here are tracers: which argument and which transformation."""
    function = ctx.function
    reason = ctx.trace_reason()
    if function is None or not reason:
        return ""
    if expr is None:
        return reason
    name = traced_name(ctx, expr)
    if name is not None and name in function.params:
        return f"`{name}` is an argument of `{function.name}`, and {reason}"
    if name is not None:
        return f"`{name}` is computed in traced code, and {reason}"
    return f"JAX operations in traced code give tracers, even on constants, and {reason}"


def function_name(ctx: Context) -> str:
    function = ctx.function
    return "<module>" if function is None else function.name


def in_test_position(ctx: Context, node: ast.AST) -> bool:
    """Whether ``node`` is (part of) the condition of an if/while/assert/ternary/comprehension."""
    child = node
    for ancestor in ctx.ancestors():
        if isinstance(ancestor, ast.BoolOp) or (
            isinstance(ancestor, ast.UnaryOp) and isinstance(ancestor.op, ast.Not)
        ):
            child = ancestor
            continue
        if isinstance(ancestor, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            return child is ancestor.test
        if isinstance(ancestor, ast.comprehension):
            return any(child is condition for condition in ancestor.ifs)
        return False
    return False


def outer_owner(ctx: Context, name: str) -> Scope | None:
    """The module or enclosing function scope that binds ``name``, when the current function
    reads it as a free variable (not a local, an import or a builtin)."""
    owner = ctx.scope.lookup(name)
    if owner is None or owner.function is ctx.scope.function:
        return None
    if owner.imports.get(name) is not None or name in owner.defs:
        return None
    return owner


CONTAINER_FACTORIES = frozenset(
    {
        "builtins.list",
        "builtins.dict",
        "builtins.set",
        "collections.deque",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.Counter",
        "queue.Queue",
    }
)


def holds_container(ctx: Context, owner: Scope, name: str) -> bool:
    """Whether ``name`` in ``owner`` is bound to a list, dict, set or similar container."""
    value = owner.assigned.get(name)
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        return ctx.model.qualname(value.func, owner) in CONTAINER_FACTORIES
    return False


def names_assigned_in(ctx: Context, node: ast.AST) -> frozenset[str]:
    """Names (re)bound anywhere inside ``node``, memoised per file."""
    key = ("assigned", node)
    cached = ctx.memo.get(key)
    if cached is None:
        cached = frozenset(
            child.id
            for child in ast.walk(node)
            if isinstance(child, ast.Name) and not isinstance(child.ctx, ast.Load)
        )
        ctx.memo[key] = cached
    return cached


def next_statement(ctx: Context, node: ast.stmt) -> ast.stmt | None:
    """The statement after ``node`` in its block, if any."""
    parent = ctx.parent
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list):
            for index, statement in enumerate(block):
                if statement is node:
                    return block[index + 1] if index + 1 < len(block) else None
    return None


def jit_parameter(ctx: Context, name: str | None) -> str | None:
    """``name`` when it is a parameter of the current function, never rebound, that a
    ``jax.jit`` in this module traces: adding it to ``static_argnames`` is the remedy. Never one
    known to be an array (annotated so, or read as one, ``x.shape``): an array cannot be static
    ("Non-hashable static arguments are not supported")."""
    function = ctx.function
    if name is None or function is None or name not in function.params or not function.static_jit_sites():
        return None
    if is_array_parameter(ctx, name) or (
        function.bound_jit_sites and function.positional_names()[:1] == [name]
    ):
        return None  # an array, or the `self` a bound jit keeps
    return name if function.scope.bound.get(name) == 1 else None


def static_request(ctx: Context, name: str | None, needed: ast.expr | None = None) -> MarkStatic | None:
    """The ``static_argnames`` remedy for a traced ``name`` that must be concrete: the current
    function's parameter where it is jitted itself (:func:`jit_parameter`), else the parameter of
    the jitted function it closes over (:func:`enclosing_jit_parameter`) or of the one jitted
    caller that hands it over (:func:`jitted_caller_parameter`). None where the value ``needed``
    reads a part of ``name`` (``poly.degree``): the whole object would become static."""
    if name is not None and needed is not None and _reads_a_part(needed, name):
        return None
    param = jit_parameter(ctx, name)
    if param is not None and ctx.function is not None:
        found: tuple[str, FunctionInfo] | None = (param, ctx.function)
    else:
        found = enclosing_jit_parameter(ctx, name) or jitted_caller_parameter(ctx, name)
    if found is None or _called_while_traced(found[1]) or _handed_an_array(ctx, *found):
        return None
    if _variadic(found[1], found[0]):
        return None  # `*dims`: positional only, which `static_argnames` cannot name (measured)
    return MarkStatic(found[0]) if param is not None else MarkStatic(found[0], found[1].node)


def _variadic(function: FunctionInfo, param: str) -> bool:
    args = getattr(function.node, "args", None)
    return args is not None and any(p is not None and p.arg == param for p in (args.vararg, args.kwarg))


def _reads_a_part(expr: ast.expr, name: str) -> bool:
    """Whether ``expr`` reads an attribute or an item of the name ``name``."""
    return any(
        isinstance(node, (ast.Attribute, ast.Subscript))
        and isinstance(node.value, ast.Name)
        and node.value.id == name
        for node in ast.walk(expr)
    )


def _handed_an_array(ctx: Context, param: str, function: FunctionInfo) -> bool:
    """Whether a call of the jitted ``function`` in this module passes an array or a list for
    ``param`` (``step(x, jnp.int32(3))``, ``step(x, SIZES[0])`` with ``SIZES`` a module-level
    array, ``make(x, [2, 3])``), which no static argument accepts ("Non-hashable static
    arguments"); also through a name or attribute the jit is bound to (``self.run``)."""
    names = {getattr(function.node, "name", "")} | _names_bound_to(ctx, function.static_jit_sites())
    positions = function.positional_names()
    if function.bound_jit_sites or _bound_method(function):
        positions = positions[1:]
    for call in _calls_named(ctx, names):
        argument = argument_expression(call, positions, param)
        if argument is not None and _unhashable(ctx, argument):
            return True
    return False


def _names_bound_to(ctx: Context, sites: list[ast.expr]) -> set[str]:
    """The names the jit calls among ``sites`` are assigned to (``step = jax.jit(f)``,
    ``self.run = jax.jit(self.pad)``); the assignments are indexed once per file."""
    targets: dict[ast.AST, set[str]] | None = ctx.memo.get("assigned-to")
    if targets is None:
        targets = ctx.memo["assigned-to"] = {}
        for node in ast.walk(ctx.model.tree):
            if isinstance(node, ast.Assign):
                names = {t.id for t in node.targets if isinstance(t, ast.Name)}
                names |= {t.attr for t in node.targets if isinstance(t, ast.Attribute)}
                targets[node.value] = names
    return {name for site in sites for name in targets.get(site, ())}


def _calls_named(ctx: Context, names: set[str]) -> list[ast.Call]:
    calls = ctx.memo.get("calls-by-name")
    if calls is None:
        calls = ctx.memo["calls-by-name"] = {}
        for node in ast.walk(ctx.model.tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name is not None:
                    calls.setdefault(name, []).append(node)
    return [call for name in names for call in calls.get(name, [])]


def argument_expression(call: ast.Call, positions: list[str], name: str) -> ast.expr | None:
    keyword = next((k.value for k in call.keywords if k.arg == name), None)
    if keyword is not None or name not in positions:
        return keyword
    index = positions.index(name)
    if index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return call.args[index]
    return None


def _unhashable(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` is a value no static argument accepts whatever the code around it: a
    list, dict or set display, a JAX or NumPy call, or an item of a module-level JAX array."""
    if isinstance(expr, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if isinstance(expr, ast.Call):
        qualname = ctx.model.qualname(expr.func, ctx.model.index.module) or ""
        return qualname.startswith(("jax.numpy.", "jax.random.", "numpy."))
    root = expr
    while isinstance(root, (ast.Subscript, ast.Attribute)):
        root = root.value
    if not isinstance(root, ast.Name) or root.id not in ctx.model.index.module.bound:
        return False
    return is_jax_array(ctx.model.module_summary.get(root.id, UNKNOWN))


def _called_while_traced(function: FunctionInfo) -> bool:
    """Whether traced code calls the jitted ``function`` (a jit inside a jit): what it passes may
    be a tracer, which a static argument rejects ("Non-hashable static arguments")."""
    return any(caller.effective_level > NONE for caller in function.callers)


def enclosing_jit_parameter(ctx: Context, name: str | None) -> tuple[str, FunctionInfo] | None:
    """``name`` where the current function closes over it from an enclosing jitted function,
    whose parameter it is (never rebound, nor known to be an array), and that function."""
    function = ctx.function
    if name is None or function is None or name in function.params or function.scope.bound.get(name):
        return None
    binding = (f for f in _enclosing(function) if name in f.params or f.scope.bound.get(name))
    outer = next(binding, None)
    if (
        outer is None
        or name not in outer.params
        or outer.scope.bound.get(name) != 1
        or not outer.static_jit_sites()
    ):
        return None
    if is_jax_array(outer.params[name]) or name in array_parameters(outer):
        return None  # an array cannot be static
    return name, outer


def static_advice(request: MarkStatic, ctx: Context) -> str:
    """``mark `n` static with `static_argnames```, naming the jitted caller where it is another."""
    if request.function is None:
        return f"mark `{request.param}` static with `static_argnames`"
    outer = ctx.model.infos[request.function]
    enclosing = ctx.function is not None and outer in _enclosing(ctx.function)
    how = "which it closes over" if enclosing else "which passes it"
    return f"mark `{request.param}` of jitted `{outer.name}`, {how}, static with `static_argnames`"


def _enclosing(function: FunctionInfo) -> Iterator[FunctionInfo]:
    outer = function.parent
    while outer is not None:
        yield outer
        outer = outer.parent


MAX_HELPER_DEPTH = 8  # helpers between the jitted function and the one needing a static value


def jitted_caller_parameter(ctx: Context, name: str | None) -> tuple[str, FunctionInfo] | None:
    """Where the current function is not jitted but a helper of one jitted function, reached
    through a chain of helpers that each have one caller, the only place that names them, and
    each pass their own parameter on for ``name`` every time: the jitted function's parameter
    ``p`` and that function (``p`` never rebound anywhere on the way, nor known to be an array)."""
    function = ctx.function
    if name is None or function is None or is_array_parameter(ctx, name):
        return None
    for _ in range(MAX_HELPER_DEPTH):
        if function.static_jit_sites():
            return None
        found = _passed_by_the_caller(ctx, function, name)
        if found is None:
            return None
        name, function = found
        if function.static_jit_sites():
            return (name, function) if len(function.static_jit_sites()) == 1 else None
    return None


def _passed_by_the_caller(ctx: Context, function: FunctionInfo, name: str) -> tuple[str, FunctionInfo] | None:
    """The parameter of ``function``'s one caller that it passes for ``name`` on every call of
    ``function``, the only place naming it, and that caller (never rebound, nor an array)."""
    node = function.node
    if name not in function.params or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if function.scope.bound.get(name) != 1 or len(function.callers) != 1:
        return None
    caller = next(iter(function.callers))
    outer = caller.node
    if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    method = _bound_method(function)
    calls = [c for c in ast.walk(outer) if isinstance(c, ast.Call) and _names(c.func, node.name, method)]
    if not calls or mention_counts(ctx)[node.name] != len(calls):
        return None  # the helper is named elsewhere too: other callers, or handed on
    positions = function.positional_names()[1:] if method else function.positional_names()
    passed = {_argument_for(call, positions, name) for call in calls}
    if len(passed) != 1:
        return None
    param = passed.pop()
    if param is None or param not in caller.params or caller.scope.bound.get(param) != 1:
        return None
    if is_jax_array(caller.params[param]) or param in array_parameters(caller):
        return None  # an array cannot be static
    return param, caller


def _names(node: ast.AST, name: str, method: bool = False) -> bool:
    """Whether ``node`` names the function ``name``: ``name``, or ``obj.name`` for a method."""
    if method:
        return isinstance(node, ast.Attribute) and node.attr == name
    return isinstance(node, ast.Name) and node.id == name


def _bound_method(function: FunctionInfo) -> bool:
    """Whether ``function`` is a method called on its object (``self`` bound): not a
    ``staticmethod``."""
    decorators = getattr(function.node, "decorator_list", [])
    return function.is_method and not any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in decorators
    )


def _argument_for(call: ast.Call, positions: list[str], name: str) -> str | None:
    """The name ``call`` passes for the parameter ``name`` (a plain name), if any."""
    keyword = next((k.value for k in call.keywords if k.arg == name), None)
    if keyword is None and name in positions:
        index = positions.index(name)
        before = call.args[: index + 1]
        if len(call.args) > index and not any(isinstance(a, ast.Starred) for a in before):
            keyword = call.args[index]
    return keyword.id if isinstance(keyword, ast.Name) else None


def is_array_parameter(ctx: Context, name: str | None) -> bool:
    """Whether ``name`` is a parameter of the current function known to be an array: annotated
    so, or read as one (``x.shape``, ``x.at[...]``)."""
    function = ctx.function
    if name is None or function is None or name not in function.params:
        return False
    return is_jax_array(function.params[name]) or name in array_parameters(function)


BOUND_KEY_ADVICE = (
    "it is bound to the function called (by `partial`, or as a default evaluated when "
    "the function was defined), so every call draws from it, whatever the name holds later: pass "
    "each call a key of its own instead of binding one"
)


def split_advice(key: str) -> str:
    """The split line a PRNG finding suggests, with a subkey name distinct from ``key`` (for a key
    that is not a name, ``keys[0]``: give each use a key of its own)."""
    if not key.isidentifier():
        return f"give each use a key of its own (split more keys than `{key}` comes from)"
    subkey = "subkey" if key != "subkey" else "subkey_2"
    return f"`{key}, {subkey} = jax.random.split({key})`"


def shows_tracer(ctx: Context, expr: ast.expr) -> bool:
    """Whether printing ``expr`` shows a tracer: it is one, or formats one into a string (an
    f-string field, ``"%s" % x``, ``"{}".format(x)``, ``str(x)``)."""
    if is_traced(ctx.value(expr)):
        return True
    if isinstance(expr, ast.JoinedStr):
        return any(
            isinstance(part, ast.FormattedValue) and shows_tracer(ctx, part.value) for part in expr.values
        )
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        operands = expr.right.elts if isinstance(expr.right, ast.Tuple) else [expr.right]
        return any(shows_tracer(ctx, operand) for operand in operands)
    if isinstance(expr, ast.Call):
        formats = isinstance(expr.func, ast.Attribute) and expr.func.attr == "format"
        if formats or ctx.qualname(expr.func) in ("builtins.str", "builtins.repr"):
            return any(shows_tracer(ctx, a) for a in [*expr.args, *(k.value for k in expr.keywords)])
    return False


def runs_only_traced(ctx: Context, level: int = ABSTRACT) -> bool:
    """Whether the current function only ever runs traced, as far as this module shows (see
    :meth:`SemanticModel.runs_only_traced`): code of it that fails on a tracer always failed.
    ``level``: ``CONCRETE`` for code that fails on a ``grad`` tracer too (NumPy conversion)."""
    return ctx.function is not None and ctx.model.runs_only_traced(ctx.function, level)


def safe_where_it_always_failed(ctx: Context, request: R, node: ast.AST) -> R:
    """``request`` (a plan with a ``safe`` field), made safe where the code it rewrites failed
    on every run in sight, so the rewrite breaks nothing that worked: the function only ever runs
    traced (:func:`runs_only_traced`). A loop made a ``lax`` loop must also not be under
    reverse-mode differentiation, which JAX cannot take through one with traced bounds. A
    parameter made static must be the function's own, and every call must reach ``node``: no call
    that worked then needed it traced."""
    if not isinstance(request, FailureRewrite) or not runs_only_traced(ctx):
        return request
    if isinstance(request, (WhileLoop, ForiLoop)) and ctx.model.differentiated(ctx.function):  # pyright: ignore[reportArgumentType]
        return request
    if isinstance(request, MarkStatic) and (
        request.function is not None or not reached_on_every_call(ctx, node)
    ):
        return request
    return dataclasses.replace(request, safe=True)


def prints_alike_at_run_time(ctx: Context, expr: ast.expr) -> bool:
    """Whether a printed value, made an argument of ``jax.debug.print``, prints the same text:
    an array (traced or not) or a pytree of them, or a Python number (a shape entry, a length).
    Not a tuple such as ``x.shape`` (it prints as a tuple of arrays), a dtype or a string."""
    value = ctx.value(expr)
    return is_traced(value) or is_jax_array(value) or (is_static(value) and _python_number(expr, ctx.scope))


def _python_number(expr: ast.expr, scope: Scope, depth: int = 0) -> bool:
    """``3``, ``len(xs)``, ``x.ndim``, ``x.size``, ``x.shape[0]`` and arithmetic of them, also
    through a local name bound once to one (``dim = x.shape[0] / 2.0``)."""
    if isinstance(expr, ast.Name) and depth < 4:
        owner = scope.lookup(expr.id)
        bound = owner.single_value(expr.id) if owner is not None and owner is scope.function else None
        return bound is not None and _python_number(bound, scope, depth + 1)
    if isinstance(expr, ast.Constant):
        return type(expr.value) in (int, float)
    if isinstance(expr, ast.UnaryOp):
        return _python_number(expr.operand, scope, depth)
    if isinstance(expr, ast.BinOp):
        return _python_number(expr.left, scope, depth) and _python_number(expr.right, scope, depth)
    if isinstance(expr, ast.Call):
        return isinstance(expr.func, ast.Name) and expr.func.id == "len"
    if isinstance(expr, ast.Attribute):
        return expr.attr in ("ndim", "size")
    if (
        isinstance(expr, ast.Subscript)
        and isinstance(expr.value, ast.Attribute)
        and expr.value.attr == "shape"
    ):
        index = expr.slice
        index = index.operand if isinstance(index, ast.UnaryOp) else index
        return isinstance(index, ast.Constant) and type(index.value) is int
    return False
