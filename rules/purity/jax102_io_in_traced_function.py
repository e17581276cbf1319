"""JAX102: logging, file I/O (files, CSV writers), writes to ``sys.stdout`` or ``time.sleep``
inside a traced function."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import is_static

from ..support.explain import function_name, shows_tracer, snippet, why_traced

if TYPE_CHECKING:
    from jaxlint.semantic.model import SemanticModel
    from jaxlint.semantic.scopes import Scope

LOG_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}
)
# Levels used for per-step progress; warnings about configuration belong at trace time.
PROGRESS_LEVELS = frozenset({"debug", "info", "log"})
LOGGER_FACTORIES = frozenset({"logging.getLogger", "absl.logging.get_absl_logger"})
OPENERS = frozenset({"builtins.open", "io.open"})
BUFFERS = frozenset({"io.StringIO", "io.BytesIO"})  # in-memory files: a log sink, a report
PATHS = frozenset({"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.WindowsPath"})
FILE_WRITES = frozenset({"write", "writelines"})
CSV_WRITERS = frozenset({"csv.writer", "csv.DictWriter"})
PAUSES = frozenset({"time.sleep"})
CSV_WRITES = frozenset({"writerow", "writerows", "writeheader"})
DATABASES = frozenset({"sqlite3.connect"})
# what a database connection (or its cursor) runs: a statement, a commit
DATABASE_CALLS = frozenset({"execute", "executemany", "executescript", "commit"})
_NUMERIC_CONVERSIONS = re.compile(r"%[-+ #0-9.*]*[diouxXeEfFgGc]")
IO_CALLS = frozenset(
    {
        "builtins.open",
        "io.open",
        "sys.stdout.write",
        "sys.stderr.write",
        "sys.stdout.writelines",
        "sys.stderr.writelines",
        "sys.stdout.flush",
        "json.dump",
        "pickle.dump",
        "numpy.save",
        "numpy.savez",
        "numpy.savetxt",
    }
)


class IoInTracedFunction(Rule):
    """## What it does
    Finds progress logging (`logger.info`/`debug`, or any log call that formats a traced value),
    `open(...)`, `sys.stdout.write(...)`, rows of a CSV writer, statements run on a `sqlite3`
    connection (which raises given a tracer to store), `time.sleep(...)` (a pause that
    only the tracing call takes) and similar I/O inside functions that JAX traces
    abstractly, and writes of a traced value to a file object (`fh.write(f"{x}")`, where `fh`
    came from `open`): under a bare `vmap`, which runs the function on every call, they write
    `VmapTracer(...)` instead of the values. A warning about configuration logged once at trace
    time is not reported, nor a log line of static values (`logger.info("tracing: %s", x.shape)`),
    the trace-time way to see what is compiled, as `print` of them is for JAX101.

    ## Why is this bad?
    The Python body of a jitted function runs only while JAX traces it. A log line or a file
    write there happens once per compilation, not once per call, and any traced value it
    formats appears as `Traced<ShapedArray(...)>`. Logs that look like per-step progress are
    silently missing after the first step.

    ## Example
    ```python
    import logging

    import jax

    logger = logging.getLogger(__name__)

    @jax.jit
    def step(params, grads):
        logger.info("updating %s", grads)
        return params - 0.1 * grads
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def step(params, grads):
        jax.debug.print("updating {}", grads)
        return params - 0.1 * grads
    ```

    ## Fix safety
    No automatic fix: whether a log line belongs at trace time (once per compilation) or at run
    time (`jax.debug.print`, `jax.debug.callback`) is the author's decision.

    ## References
    - [JAX: Common gotchas, pure functions](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions)
    - [JAX: External callbacks](https://docs.jax.dev/en/latest/external-callbacks.html)
    """

    code = "JAX102"
    traced_only = True
    name = "io-in-traced-function"
    message = "Logging or I/O in a traced function runs only while tracing"
    outcome = "logs or writes once per compilation, not once per call"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not ctx.traced_to_run:
            return
        if ctx.trace_reused and ctx.qualname(node.func) in PAUSES:
            ctx.report(  # `time.sleep(0.5)` as a rate limit: only the tracing call waits
                node,
                f"`{snippet(ctx, node)}` in `{function_name(ctx)}` waits only while JAX traces it, "
                f"not on each call ({why_traced(ctx)}): the compiled program never pauses; wait on "
                f"the host between calls",
            )
            return
        what = self.describe(node, ctx)
        if what is None:
            return
        arguments = [*node.args, *(kw.value for kw in node.keywords)]
        shown = any(shows_tracer(ctx, a) for a in arguments)
        if _writes_to_file(node):
            if ctx.trace_reused and _opened_here(node, ctx):
                return  # the `open(...)` around it is reported: it runs only while tracing
            text = any(_tracer_text(ctx, a) for a in arguments)
            if shown and not text:
                return  # a tracer itself, or formatted with a spec: `TypeError`, not a write
            shown = text
        if shown and _binds_tracer(node, ctx):
            ctx.report(
                node,
                f"{what} in `{function_name(ctx)}` is given a tracer to store ({why_traced(ctx)}): "
                f"`sqlite3` cannot bind it and raises `sqlite3.ProgrammingError`; return the value "
                f"and store it outside the traced function (or in `jax.debug.callback`)",
            )
            return
        if shown:
            effect = "runs only while JAX traces it, and writes" if ctx.trace_reused else "writes"
            effect += " tracers, not values"
        elif ctx.trace_reused:
            effect = "runs only while JAX traces it, not on each call"
        else:
            return  # traced again on every call (a bare vmap), with concrete values: it works
        ctx.report(
            node,
            f"{what} in `{function_name(ctx)}` {effect} "
            f"({why_traced(ctx)}); use `jax.debug.print` or `jax.debug.callback` for run-time output",
        )

    def describe(self, node: ast.Call, ctx: Context) -> str | None:
        func = node.func
        qualname = ctx.qualname(func)
        if qualname in IO_CALLS:
            return f"`{qualname.removeprefix('builtins.')}(...)`"
        if not isinstance(func, ast.Attribute):
            return None
        if func.attr in FILE_WRITES and _file_object(func.value, ctx):
            return f"`{snippet(ctx, func.value)}.{func.attr}(...)`"
        if func.attr in CSV_WRITES and _csv_writer(func.value, ctx):
            return f"`{snippet(ctx, func.value)}.{func.attr}(...)`"
        if func.attr in DATABASE_CALLS and _bound_to(func.value, ctx, DATABASES):
            return f"`{snippet(ctx, func.value)}.{func.attr}(...)`"
        if _opens_file(node, ctx.model, ctx.scope):
            return f"`{snippet(ctx, func)}(...)`"
        if func.attr not in LOG_METHODS:
            return None
        arguments = [*node.args, *(kw.value for kw in node.keywords)]
        quiet = func.attr not in PROGRESS_LEVELS or _logs_static_facts(node, ctx)
        if quiet and not any(shows_tracer(ctx, a) for a in arguments):
            return None  # a warning about configuration, or shapes logged while tracing
        if qualname is not None and qualname.startswith(("logging.", "absl.logging.")):
            return f"`{qualname}(...)`"
        if isinstance(func.value, ast.Name) and self.is_logger(func.value.id, ctx):
            return f"`{func.value.id}.{func.attr}(...)`"
        return None

    def is_logger(self, name: str, ctx: Context) -> bool:
        owner = ctx.scope.lookup(name)
        value = None if owner is None else owner.assigned.get(name)
        if owner is None or not isinstance(value, ast.Call) or owner.bound.get(name) != 1:
            return False
        return ctx.model.qualname(value.func, owner) in LOGGER_FACTORIES


def _logs_static_facts(node: ast.Call, ctx: Context) -> bool:
    """``logger.info("tracing: x.shape=%s", x.shape)``: a log line that formats static values
    (shapes, dtypes, static arguments), the trace-time way to see what is compiled, like a
    ``print`` of them."""
    values = [*node.args[1:], *(kw.value for kw in node.keywords if kw.arg not in LOG_KEYWORDS)]
    shown = [v for v in values if not isinstance(v, ast.Constant)]
    return bool(shown) and all(is_static(ctx.value(v)) for v in shown)


# keywords of a logging call that are not values it formats
LOG_KEYWORDS = frozenset({"exc_info", "stack_info", "stacklevel", "extra"})


def _csv_writer(receiver: ast.expr, ctx: Context) -> bool:
    """Whether ``receiver`` is a name bound once to ``csv.writer(...)`` or ``csv.DictWriter(...)``."""
    return _bound_to(receiver, ctx, CSV_WRITERS)


def _binds_tracer(node: ast.Call, ctx: Context) -> bool:
    """``db.execute("INSERT ... (?)", (loss,))`` on a database connection: a tracer among the
    parameters it binds (measured with JAX 0.10.2: ``sqlite3.ProgrammingError``)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("execute", "executemany")):
        return False
    if len(node.args) < 2 or not _bound_to(func.value, ctx, DATABASES):
        return False
    bound = node.args[1]
    parts = bound.elts if isinstance(bound, (ast.Tuple, ast.List)) else [bound]
    return any(shows_tracer(ctx, part) and not _tracer_text(ctx, part) for part in parts)


def _bound_to(receiver: ast.expr, ctx: Context, makers: frozenset[str]) -> bool:
    """Whether ``receiver`` is a name bound once to a call of one of ``makers``
    (``db = sqlite3.connect(...)``), or to a ``cursor()`` of such a name."""
    if not isinstance(receiver, ast.Name):
        return False
    owner = ctx.scope.lookup(receiver.id)
    value = None if owner is None else owner.single_value(receiver.id)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "cursor":
        return owner is not None and not value.args and _bound_to(value.func.value, ctx, makers)
    return (
        owner is not None and isinstance(value, ast.Call) and ctx.model.qualname(value.func, owner) in makers
    )


def _file_object(receiver: ast.expr, ctx: Context) -> bool:
    """Whether ``receiver`` is a file an opener gave (see :func:`_opens_file`): ``with open(...)
    as fh`` around the call, ``fh = open(...)`` bound once where the name is defined, or
    ``self.fh`` that ``__init__`` alone sets to ``open(...)``."""
    if isinstance(receiver, ast.Attribute):
        owner = receiver.value
        for cls in ctx.model.object_classes(ctx.value(owner), owner, ctx.scope):
            held = ctx.model.held_value(cls, receiver.attr)
            scope = None if held is None else ctx.model.index.scopes.get(held[0])
            if held is not None and scope is not None and _opens_file(held[1], ctx.model, scope, BUFFERS):
                return True
        return False
    if not isinstance(receiver, ast.Name):
        return False
    if _opened_here_as(receiver.id, ctx) is not None:
        return True
    owner = ctx.scope.lookup(receiver.id)
    value = None if owner is None else owner.single_value(receiver.id)
    return owner is not None and value is not None and _opens_file(value, ctx.model, owner, BUFFERS)


def _opens_file(
    node: ast.AST, model: SemanticModel, scope: Scope, buffers: frozenset[str] = frozenset()
) -> bool:
    """Whether ``node`` opens a file: ``open(...)``, ``io.open(...)``, or ``.open(...)`` of a
    ``pathlib.Path(...)``; or makes one of ``buffers`` (``io.StringIO()``)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if model.qualname(func, scope) in OPENERS | buffers:
        return True
    path = func.value if isinstance(func, ast.Attribute) and func.attr == "open" else None
    return isinstance(path, ast.Call) and model.qualname(path.func, scope) in PATHS


def _writes_to_file(node: ast.Call) -> bool:
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr in FILE_WRITES


def _tracer_text(ctx: Context, expr: ast.expr) -> bool:
    """Whether ``expr`` is text that holds a tracer's description: an f-string field without a
    format spec, ``str(x)``/``repr(x)``, ``"%s" % x``, joined or concatenated, a list of them
    (``writelines``). A tracer itself, or one formatted with a spec (``f"{x:.3f}"``, ``"%d"``),
    makes the write raise ``TypeError`` instead."""
    if isinstance(expr, ast.JoinedStr):
        fields = [part for part in expr.values if isinstance(part, ast.FormattedValue)]
        traced = [part for part in fields if shows_tracer(ctx, part.value)]
        return bool(traced) and all(part.format_spec is None for part in traced)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _tracer_text(ctx, expr.left) or _tracer_text(ctx, expr.right)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        template = expr.left
        return (
            isinstance(template, ast.Constant)
            and isinstance(template.value, str)
            and not _NUMERIC_CONVERSIONS.search(template.value)
            and shows_tracer(ctx, expr)
        )
    if isinstance(expr, (ast.List, ast.Tuple)):
        return any(_tracer_text(ctx, element) for element in expr.elts)
    if isinstance(expr, ast.Call):
        if ctx.qualname(expr.func) in ("builtins.str", "builtins.repr"):
            return shows_tracer(ctx, expr)
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "join" and expr.args:
            return _tracer_text(ctx, expr.args[0])
        template = expr.func.value if isinstance(expr.func, ast.Attribute) else None
        if (
            isinstance(template, ast.Constant)
            and isinstance(template.value, str)
            and expr.func.attr == "format"  # pyright: ignore[reportAttributeAccessIssue]
            and ":" not in template.value
        ):
            return shows_tracer(ctx, expr)
    return False


def _opened_here(node: ast.Call, ctx: Context) -> bool:
    """Whether the file ``node`` writes to was opened in this function (by ``with`` or ``=``)."""
    func = node.func
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
        return False
    name = func.value.id
    return _opened_here_as(name, ctx) is not None or (
        name in ctx.scope.bound and ctx.scope.lookup(name) is ctx.scope
    )


def _opened_here_as(name: str, ctx: Context) -> ast.With | None:
    """The ``with open(...) as name`` statement around the current node, if any."""
    for ancestor in ctx.ancestors():
        if not isinstance(ancestor, (ast.With, ast.AsyncWith)):
            continue
        for item in ancestor.items:
            target = item.optional_vars
            if (
                isinstance(target, ast.Name)
                and target.id == name
                and _opens_file(item.context_expr, ctx.model, ctx.scope)
            ):
                return ancestor  # pyright: ignore[reportReturnType]
    return None
