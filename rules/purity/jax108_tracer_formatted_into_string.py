"""JAX108: a traced value formatted into a string that the code then uses as data."""

from __future__ import annotations

import ast
import re
import string
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.transforms import ABSTRACT
from jaxlint.semantic.values import is_traced

from ..support.explain import function_name, prints_alike_at_run_time, snippet, why_traced


@dataclass(frozen=True)
class FieldsAsArguments(FixRequest):
    """``jax.debug.print(f"loss {loss}")`` -> ``jax.debug.print("loss {}", loss)``."""

    call: ast.Call


class TracerFormattedIntoString(Rule):
    """## What it does
    Finds a traced value formatted into a string (an f-string, `str.format`, `%`, `str()` or
    `repr()`) in traced code, where the string is then used as data: passed to a function (not
    to `print`, logging, a warning or an exception), used as a key or an index; and an f-string
    of tracers (or `str.format` of them) handed to `jax.debug.print` as its format string. Also a
    traced value formatted with a format spec or a numeric `%` conversion (`f"{x:.2f}"`,
    `"layer_%d" % i`), which raises `TypeError` while tracing (in a `print`, JAX101 says so;
    in the message of an error raised anyway, nothing is said).

    ## Why is this bad?
    While JAX traces a function, its arguments and what is computed from them are tracers: a
    tracer has no value yet, and formats as a description of itself (`JitTracer(~int32[])` in
    JAX 0.10). The string is made once, while tracing, and the compiled function
    never makes it again: a name built from a loop counter in a `lax.scan` body is the same
    string on every step, and a cache keyed by it holds one entry. `jax.debug.print(f"{loss}")`
    prints that description on every call, since the f-string was formatted before
    `jax.debug.print` saw the value (or raises `TypeError`, for a format spec such as `{loss:.3f}`).

    ## Example
    ```python
    import jax
    from jax import lax

    SITES = {}

    def record(name, value):
        SITES[name] = value
        return value

    def body(carry, x):
        i, total = carry
        total = record("step_{}".format(i), total + x)
        jax.debug.print(f"step {i}: {total}")
        return (i + 1, total), total

    def run(xs):
        return lax.scan(body, (0, 0.0), xs)
    ```

    ## Use instead
    Keep the value an array and pass it on (`record_step(i, total)`), or build the string from
    static values (a Python loop counter, a shape). To see run-time values, use
    `jax.debug.print` with the values as arguments, `jax.debug.print("step {}: {}", i, total)`,
    or `jax.debug.callback`.

    ## Fix safety
    The fix rewrites the f-string given to `jax.debug.print` to a template with the values as
    arguments (conversions and format specs kept), where every field is an array or a Python
    number (a shape tuple would print as a tuple of arrays) and the text has no literal braces.
    Safe: the values of each call are printed, as the code meant. A string used as data gets no fix: what the string is for decides the remedy.
    The Example, fixed:
    ```python
    import jax
    from jax import lax

    SITES = {}

    def record(name, value):
        SITES[name] = value
        return value

    def body(carry, x):
        i, total = carry
        total = record("step_{}".format(i), total + x)
        jax.debug.print("step {}: {}", i, total)
        return (i + 1, total), total

    def run(xs):
        return lax.scan(body, (0, 0.0), xs)
    ```

    ## References
    - [JAX: Key concepts, tracing](https://docs.jax.dev/en/latest/key-concepts.html#tracing)
    - [JAX FAQ: printing inside jit](https://docs.jax.dev/en/latest/faq.html)
    """

    code = "JAX108"
    traced_only = True
    name = "tracer-formatted-into-string"
    message = "A traced value is formatted into a string used as data"
    outcome = "the string holds the tracer's description, made once while tracing"
    fix_title = "Pass the values to `jax.debug.print` as arguments"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_JoinedStr(self, node: ast.JoinedStr, ctx: Context) -> None:
        fields = [v for v in node.values if isinstance(v, ast.FormattedValue)]
        if _debug_print_format(ctx, node) is not None:
            self.check(node, [v.value for v in fields], ctx, [v.value for v in fields if v.format_spec])
            return
        # a format spec (`{x:.2f}`) makes the tracer raise TypeError instead
        self.check_raising(node, spec_formatted(node), ctx)
        self.check(node, [v.value for v in fields if v.format_spec is None], ctx)

    def check_raising(self, node: ast.expr, specified: list[ast.expr], ctx: Context) -> None:
        """``f"{loss:.3f}"``, ``"%d" % step``: a tracer formats only as its description (``%s``,
        ``{}``); a format spec or a numeric conversion raises `TypeError` while tracing."""
        if ctx.level < ABSTRACT or not specified:
            return
        traced = next((p for p in specified if is_traced(ctx.value(p))), None)
        if traced is None or _in_print(ctx):
            return  # (a `print` of it is JAX101's, whose fix keeps the spec in `jax.debug.print`)
        if any(isinstance(a, (ast.Raise, ast.Assert)) for a in ctx.ancestors()):
            return  # the message of an error raised anyway (its check is what fails under `jit`)
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` formats traced `{snippet(ctx, traced)}` with a numeric format "
            f"while JAX traces `{function_name(ctx)}` ({why_traced(ctx, traced)}): a tracer has no "
            f"value yet, so JAX raises `TypeError`; build the string from static values, or print "
            f"the value with `jax.debug.print`",
        )

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("str", "repr") and ctx.qualname(func) in STRINGIFIERS:
            self.check(node, node.args[:1], ctx)
        elif (
            isinstance(func, ast.Attribute)
            and func.attr == "format"
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
        ):
            values = [*node.args, *(k.value for k in node.keywords)]
            if _plain_fields(func.value.value):
                self.check(node, values, ctx)
            elif _debug_print_format(ctx, node) is not None:  # `{:.1f}` raises on a tracer there
                self.check(node, values, ctx, values)
            else:
                self.check_raising(node, spec_formatted(node), ctx)

    def visit_BinOp(self, node: ast.BinOp, ctx: Context) -> None:
        left = node.left
        if (
            isinstance(node.op, ast.Mod)
            and isinstance(left, ast.Constant)
            and isinstance(left.value, str)
            and PERCENT_CONVERSION.sub("", left.value.replace("%%", "")).count("%") == 0
        ):
            right = node.right
            self.check(node, list(right.elts) if isinstance(right, ast.Tuple) else [right], ctx)
        else:
            self.check_raising(node, spec_formatted(node), ctx)

    def check(
        self, node: ast.expr, parts: list[ast.expr], ctx: Context, specified: list[ast.expr] | None = None
    ) -> None:
        """``parts``: the values formatted into ``node``; ``specified``: those with a format spec."""
        if ctx.level < ABSTRACT:  # under a bare grad a tracer formats with its primal value
            return
        traced = next((p for p in parts if not isinstance(p, ast.Starred) and is_traced(ctx.value(p))), None)
        if traced is None:
            return
        printer = _debug_print_format(ctx, node)
        if printer is not None:
            raising = next((p for p in specified or [] if is_traced(ctx.value(p))), None)
            traced = raising or traced
            effect = (
                "a format spec on a tracer raises `TypeError`"
                if raising is not None
                else "every call prints the tracer's description, not its value"
            )
            ctx.report(
                node,
                f"`{snippet(ctx, node)}` formats traced `{snippet(ctx, traced)}` while JAX traces "
                f"`{function_name(ctx)}` ({why_traced(ctx, traced)}), before `jax.debug.print` gets "
                f"it: {effect}; pass the value as an argument, "
                f'`jax.debug.print("... {{}}", {snippet(ctx, traced)})`',
                fix=FieldsAsArguments(printer) if _movable_fields(ctx, node, printer) else None,
            )
            return
        if not _used_as_data(ctx, node):
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` formats traced `{snippet(ctx, traced)}` into a string while JAX "
            f"traces `{function_name(ctx)}` ({why_traced(ctx, traced)}): the string holds a description of "
            f"the tracer, not its value, and is made once per trace, not on every call "
            f"or step; pass the value itself, or build the string from static values",
        )


# `%s` and `%r` format a tracer as its description; `%d`, `%f`... raise TypeError instead
PERCENT_CONVERSION = re.compile(r"%(\([^)]*\))?[-#0 +]*(\d+|\*)?(\.(\d+|\*))?[sr]")


# one `%` conversion of a template: its mapping key, and its conversion character
ANY_CONVERSION = re.compile(r"%(\([^)]*\))?[-#0 +]*(\d+|\*)?(\.(\d+|\*))?[hlL]?([a-zA-Z%])")


def _numeric_conversions(template: str, right: ast.expr) -> list[ast.expr]:
    """The values ``template % right`` formats with a conversion other than ``%s``/``%r``/``%a``
    (``%d``, ``%.3f``: they raise on a tracer), for a tuple or a single value and no ``*`` width."""
    conversions = [m for m in ANY_CONVERSION.finditer(template) if m.group(5) != "%"]
    if any(m.group(1) or "*" in m.group(0) for m in conversions):
        return []
    values = list(right.elts) if isinstance(right, ast.Tuple) else [right]
    if len(values) != len(conversions):
        return []
    return [value for value, m in zip(values, conversions) if m.group(5) not in "sra"]


def _specified_fields(template: str, call: ast.Call) -> list[ast.expr]:
    """The arguments of ``template.format(...)`` that fields with a format spec take."""
    try:
        fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(template) if name is not None]
    except ValueError:
        return []
    found: list[ast.expr] = []
    automatic = 0
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    for name, spec in fields:
        if name == "":
            index, automatic = automatic, automatic + 1
            value = call.args[index] if index < len(call.args) else None
        elif name.isdigit():
            value = call.args[int(name)] if int(name) < len(call.args) else None
        else:
            value = keywords.get(name)
        if spec and value is not None and not isinstance(value, ast.Starred):
            found.append(value)
    return found


def spec_formatted(node: ast.expr) -> list[ast.expr]:
    """The values a string expression formats with a format spec or a numeric ``%``
    conversion (``f"{x:.2f}"``, ``"{:d}".format(i)``, ``"%d" % i``): on a tracer they raise."""
    if isinstance(node, ast.JoinedStr):
        return [
            v.value for v in node.values if isinstance(v, ast.FormattedValue) and v.format_spec is not None
        ]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        return _specified_fields(node.func.value.value, node)
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mod)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
    ):
        return _numeric_conversions(node.left.value, node.right)
    return []


def _in_print(ctx: Context) -> bool:
    """Whether the string is (part of) an argument of the built-in ``print``."""
    for ancestor in ctx.ancestors():
        if isinstance(ancestor, ast.Call):
            return ctx.qualname(ancestor.func) == "builtins.print"
        if isinstance(ancestor, ast.stmt):
            return False
    return False


def _plain_fields(template: str) -> bool:
    """Whether every field of a ``str.format`` template has no format spec (``{:d}`` raises)."""
    try:
        return all(not spec for _, field, spec, _ in string.Formatter().parse(template) if field is not None)
    except ValueError:
        return False


STRINGIFIERS = frozenset({"builtins.str", "builtins.repr", None})

# callees for whom a formatted tracer is a message, not data (JAX101/JAX102 speak of them)
MESSAGE_CALLEES = frozenset({"builtins.print", "warnings.warn", "builtins.ValueError", "builtins.TypeError"})


def _movable_fields(ctx: Context, node: ast.expr, printer: ast.Call) -> bool:
    """Whether every field of the f-string can become an argument of ``jax.debug.print``: each
    prints alike as an argument (an array or a Python number, not a shape tuple), the template has no literal braces
    (`jax.debug.print` reads placeholders in the first part only) and the call passes no other
    values that the template may name (`{l:.2f}`, `l=loss`)."""
    if printer.args[:1] != [node] or not isinstance(node, ast.JoinedStr):
        return False
    if any(k.arg != "ordered" for k in printer.keywords):
        return False
    for part in node.values:
        if isinstance(part, ast.Constant) and ("{" in str(part.value) or "}" in str(part.value)):
            return False
        if isinstance(part, ast.FormattedValue) and not prints_alike_at_run_time(ctx, part.value):
            return False
    return True


def _debug_print_format(ctx: Context, node: ast.expr) -> ast.Call | None:
    """The ``jax.debug.print`` call whose format string ``node`` is."""
    ancestors = ctx.ancestors()
    parent = next(ancestors, None)
    if isinstance(parent, ast.keyword) and parent.arg == "fmt":  # `jax.debug.print(fmt=...)`
        parent = next(ancestors, None)
    elif not (isinstance(parent, ast.Call) and parent.args[:1] == [node]):
        return None
    if isinstance(parent, ast.Call) and ctx.qualname(parent.func) in DEBUG_PRINTS:
        return parent
    return None


DEBUG_PRINTS = frozenset({"jax.debug.print", "jax._src.debugging.debug_print"})


def _used_as_data(ctx: Context, node: ast.expr) -> bool:
    """Whether the string ``node`` is an argument of a call that is not a message (print,
    logging, a warning, an exception), a key or an index, or stored into an item or attribute;
    also through a concatenation (`"ckpt-" + str(step)`)."""
    ancestors = ctx.ancestors()
    parent = next(ancestors, None)
    while isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        node, parent = parent, next(ancestors, None)  # the concatenation is the string used
    if isinstance(parent, ast.Subscript):
        return parent.slice is node
    if isinstance(parent, ast.Dict):
        return any(key is node for key in parent.keys)
    if isinstance(parent, ast.Assign) and parent.value is node:
        # `os.environ["LOSS"] = str(loss)`, `self.tag = f"{step}"`: stored where others read it
        return any(isinstance(target, (ast.Subscript, ast.Attribute)) for target in parent.targets)
    if not isinstance(parent, ast.Call) or parent.func is node:
        return False
    if any(isinstance(a, (ast.Raise, ast.Assert)) for a in ctx.ancestors()):
        return False
    qualname = ctx.qualname(parent.func) or ""
    leaf = qualname.rsplit(".", 1)[-1]
    if qualname in MESSAGE_CALLEES or qualname.startswith(("logging.", "jax.debug.", "absl.logging.")):
        return False
    if leaf.endswith(("Error", "Exception", "Warning")) or leaf in LOGGING_METHODS:
        return False
    # `logger.info(...)`, `f.write(...)` (JAX102), `"".join(...)`
    return not (
        isinstance(parent.func, ast.Attribute) and parent.func.attr in (*LOGGING_METHODS, "write", "join")
    )


LOGGING_METHODS = ("debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print")
