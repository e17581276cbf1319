"""Small facts about ``ast`` nodes and their positions, used by every layer (this module imports
nothing of jaxlint)."""

from __future__ import annotations

import ast
import bisect
import operator
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

Position = tuple[int, int]


def span(node: ast.AST) -> tuple[Position, Position]:
    """``((row, col), (end_row, end_col))`` of a node that has a position."""
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
    end = (getattr(node, "end_lineno", None) or start[0], getattr(node, "end_col_offset", None) or start[1])
    return start, end


def encloses(outer: ast.AST, inner: ast.AST) -> bool:
    """Whether ``inner``'s text lies within ``outer``'s (a node encloses itself)."""
    (outer_start, outer_end), (inner_start, inner_end) = span(outer), span(inner)
    return outer_start <= inner_start and inner_end <= outer_end


def callee_leaf(call: ast.Call) -> str | None:
    """The last name of a call's callee (``exp`` in ``np.exp(x)``): a cheap gate before resolving."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


CONTAINER_DISPLAYS = (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)


def container_display(expr: ast.expr | None) -> bool:
    """``{...}``, ``[...]``, ``(a, b)``, a comprehension, ``dict(...)``/``list(...)``/``tuple(...)``/
    ``set(...)``: an expression that makes a plain container."""
    if isinstance(expr, CONTAINER_DISPLAYS):
        return True
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id in ("dict", "list", "tuple", "set")
    )


def without_not(test: ast.expr) -> tuple[ast.expr, bool]:
    """``test`` with one leading ``not`` taken off, and whether there was one."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand, True
    return test, False


def never_run(statement: ast.If, truth: bool) -> list[ast.stmt]:
    """The branch of ``if test:`` that never runs when ``test`` (after a ``not``) is ``truth``."""
    negated = without_not(statement.test)[1]
    return statement.orelse if truth != negated else statement.body


def keyword_argument(call: ast.Call | None, name: str | None) -> ast.expr | None:
    """The value passed as ``name=`` to ``call``, if any."""
    if call is None or name is None:
        return None
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def call_argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    """The argument ``call`` passes at ``position`` or as ``keyword=``; None where a ``*args``
    before it hides the position, or where it is not passed."""
    if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return None
    if position < len(call.args):
        return call.args[position]
    return keyword_argument(call, keyword)


MODULE_CODE = "<module>"  # what lies outside every definition ``definitions`` names


def definitions(
    body: list[ast.stmt], prefix: str = ""
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Module-level functions and methods (``Class.method``, nested classes dotted): the units a
    fix changes and the runtime verifies one at a time."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append((prefix + node.name, node))
        elif isinstance(node, ast.ClassDef):
            found.extend(definitions(node.body, f"{prefix}{node.name}."))
    return found


def definition_locator(tree: ast.Module) -> Callable[[int], str]:
    """A function from a line to the name ``definitions`` gives the function enclosing it
    (decorators included), or ``MODULE_CODE``; built once, each lookup a binary search."""
    spans = sorted(
        (min([node.lineno, *(d.lineno for d in node.decorator_list)]), node.end_lineno or node.lineno, name)
        for name, node in definitions(tree.body)
    )
    starts = [first for first, _, _ in spans]

    def definition_at(line: int) -> str:
        index = bisect.bisect_right(starts, line) - 1
        if index >= 0 and line <= spans[index][1]:
            return spans[index][2]
        return MODULE_CODE

    return definition_at


def definition_codes(tree: ast.Module) -> dict[str, str]:
    """Each definition's code (position-free ``ast.dump``), plus ``MODULE_CODE`` for the module's
    other statements (imports left out: fixes add them)."""
    codes = {name: ast.dump(node, include_attributes=False) for name, node in definitions(tree.body)}
    rest = [
        node
        for node in tree.body
        if not isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Import | ast.ImportFrom
        )
    ]
    codes[MODULE_CODE] = ast.dump(ast.Module(body=rest, type_ignores=[]), include_attributes=False)
    return codes


def parses(text: str) -> bool:
    """Whether ``text`` is Python this interpreter compiles (a fix must leave it so): it parses,
    and passes the checks the compiler makes after parsing (a keyword argument given twice, a
    parameter named twice, ``nonlocal`` of no enclosing name)."""
    return parse_quietly(text, compiled=True) is not None


def parse_quietly(text: str, compiled: bool = False) -> ast.Module | None:
    """The syntax tree of ``text``, None when it does not parse (with ``compiled``, when it does
    not compile either); no warnings."""

    def work() -> ast.Module:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like
            tree = ast.parse(text)
            if compiled:
                compile(tree, "<fixed>", "exec", dont_inherit=True)
            return tree

    try:
        try:
            return work()
        except RecursionError:
            if room_to_recurse():
                raise
            return run_deeply(work)  # deeper than the default limit, as Python compiles it
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


_ROOM = threading.local()


def mark_room_to_recurse() -> None:
    """Said by the thread ``run_deeply`` starts: this thread has a large stack and limit."""
    _ROOM.deep = True


def room_to_recurse() -> bool:
    """Whether this thread already has all the stack ``run_deeply`` gives: below that, a
    ``RecursionError`` is worth a retry with room rather than giving up on the code."""
    return getattr(_ROOM, "deep", False)


T = TypeVar("T")
DEEP_STACK = 512 * 1024 * 1024  # bytes of stack for the thread that handles a deep file
DEEP_LIMIT = 200_000


def run_deeply(work: Callable[[], T]) -> T:
    """``work()`` on a thread with a large stack and recursion limit: for syntax trees deeper
    than the default limit allows (the parse, the semantic model and the rules all recurse)."""
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        mark_room_to_recurse()
        try:
            result.append(work())
        except BaseException as error:  # handed back to the caller's thread
            failure.append(error)

    limit = sys.getrecursionlimit()
    previous = threading.stack_size(DEEP_STACK)
    try:
        sys.setrecursionlimit(max(limit, DEEP_LIMIT))
        thread = threading.Thread(target=target, name="jaxlint-deep")
        thread.start()
        thread.join()
    finally:
        sys.setrecursionlimit(limit)
        threading.stack_size(previous)
    if failure:
        raise failure[0]
    return result[0]


NOT_CONSTANT = object()  # what `constant_value` gives for an expression it cannot decide
_COMPARISONS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def constant_value(expr: ast.expr | None, names: dict[str, object]) -> object:
    """The value of ``expr`` built from literals, ``names`` (known values), ``not``, ``and``,
    ``or``, unary minus and comparisons; ``NOT_CONSTANT`` where any part that decides it is
    unknown (``rate == 0.0 or deterministic`` is true once ``deterministic`` is)."""
    if isinstance(expr, ast.Constant):
        return expr.value
    if isinstance(expr, ast.Name):
        return names.get(expr.id, NOT_CONSTANT)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.Not, ast.USub)):
        operand = constant_value(expr.operand, names)
        if operand is NOT_CONSTANT:
            return NOT_CONSTANT
        try:
            return (not operand) if isinstance(expr.op, ast.Not) else -operand  # pyright: ignore[reportOperatorIssue]
        except TypeError:
            return NOT_CONSTANT
    if isinstance(expr, ast.BoolOp):
        deciding = isinstance(expr.op, ast.Or)  # the truth that ends an `or` (an `and`: falsity)
        unknown = False
        value: object = NOT_CONSTANT
        for part in expr.values:
            value = constant_value(part, names)
            if value is NOT_CONSTANT:
                unknown = True
            elif bool(value) == deciding:
                return value
        return NOT_CONSTANT if unknown else value
    if isinstance(expr, ast.Compare):
        left = constant_value(expr.left, names)
        for op, right_expr in zip(expr.ops, expr.comparators):
            right = constant_value(right_expr, names)
            compare = _COMPARISONS.get(type(op))
            if left is NOT_CONSTANT or right is NOT_CONSTANT or compare is None:
                return NOT_CONSTANT
            try:
                if not compare(left, right):
                    return False
            except TypeError:
                return NOT_CONSTANT
            left = right
        return True
    return NOT_CONSTANT
