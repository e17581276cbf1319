"""JAX101 fix: ``print(a, b)`` -> ``jax.debug.print("{} {}", a, b)``, f-strings included."""

from __future__ import annotations

import ast
import string

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document, parse_expression
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.purity.jax101_print_in_traced_function import DebugPrint


class PrintToDebugPrint(Fixer[DebugPrint]):
    """Safe: under `jit` the `print` ran once at trace time and showed tracers; `jax.debug.print`
    prints the same text with the values of every call. `print` keywords other than `sep` and a
    default `end` have no equivalent: no fix then."""

    code = "JAX101"

    def fix(self, request: DebugPrint, site: Site, doc: Document) -> Fix | None:
        call = request.call
        template, arguments = debug_print_arguments(call)
        if arguments and next(iter(string.Formatter().parse(template)))[1] is None:
            # `"{{x}} {}"`: JAX sees no placeholder in the first part and prints the text raw
            raise CannotFix("literal braces before the first value")
        if not arguments and template != template.replace("{{", "{").replace("}}", "}"):
            raise CannotFix("literal braces in a text JAX prints raw")
        jax, edits = doc.reference("jax", site.scope)
        code = f"{jax}.debug.print({', '.join([string_literal(template), *arguments])})"
        snippet = doc.snippet(site.statement)
        old = snippet.expression(call)
        statement = snippet.statement.deep_replace(old, parse_expression(code))
        return doc.fix(
            Applicability.SAFE,
            "Replace with `jax.debug.print`",
            [snippet.replace([statement]), *edits],  # pyright: ignore[reportArgumentType]
        )


def debug_print_arguments(call: ast.Call) -> tuple[str, list[str]]:
    """The format string and argument expressions that print what ``print(...)`` printed."""
    separator = " "
    for keyword in call.keywords:
        if keyword.arg == "sep" and isinstance(keyword.value, ast.Constant):
            separator = " " if keyword.value.value is None else str(keyword.value.value)
        elif (
            keyword.arg == "end"
            and isinstance(keyword.value, ast.Constant)
            and keyword.value.value in (None, "\n")
        ):
            continue
        else:
            raise CannotFix(f"`print(..., {keyword.arg}=...)` has no `jax.debug.print` equivalent")
    parts: list[str] = []
    arguments: list[str] = []
    for argument in call.args:
        if isinstance(argument, ast.Starred):
            raise CannotFix("starred arguments")
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            parts.append(_escape(argument.value))
        elif isinstance(argument, ast.JoinedStr):
            parts.append(fstring_template(argument, arguments))
        else:
            parts.append("{}")
            arguments.append(ast.unparse(argument))
    return _escape(separator).join(parts), arguments


def fstring_template(node: ast.JoinedStr, arguments: list[str]) -> str:
    """The ``str.format`` template of an f-string; its fields' expressions go to ``arguments``."""
    text = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            text.append(_escape(str(value.value)))
            continue
        assert isinstance(value, ast.FormattedValue)
        conversion = "" if value.conversion == -1 else "!" + chr(value.conversion)
        spec = ""
        if value.format_spec is not None:
            pieces = value.format_spec.values  # pyright: ignore[reportAttributeAccessIssue]
            if not all(isinstance(p, ast.Constant) for p in pieces):
                raise CannotFix("a computed format spec")
            spec = ":" + "".join(_escape(str(p.value)) for p in pieces)
        text.append("{" + conversion + spec + "}")
        arguments.append(ast.unparse(value.value))
    return "".join(text)


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def string_literal(text: str) -> str:
    """A double-quoted Python string literal for ``text``."""
    body = repr(text)[1:-1]
    if repr(text).startswith("'"):
        body = body.replace("\\'", "'").replace('"', '\\"')
    return f'"{body}"'
