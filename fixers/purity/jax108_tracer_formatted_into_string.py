"""JAX108 fix: ``jax.debug.print(f"loss {loss}")`` -> ``jax.debug.print("loss {}", loss)``."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Fix, Site
from jaxlint.fixing.document import Document, parse_expression
from jaxlint.fixing.fixer import CannotFix, Fixer

from ...rules.purity.jax108_tracer_formatted_into_string import FieldsAsArguments
from .jax101_print_in_traced_function import fstring_template, string_literal


class FieldsToArguments(Fixer[FieldsAsArguments]):
    """Safe: the f-string was formatted once, while tracing, so every call printed the tracers'
    descriptions; with the fields passed as arguments, `jax.debug.print` formats the values of
    each call with the same template (conversions and format specs kept). Not where the call
    passes more positional arguments: the f-string may hold their `{}` fields."""

    code = "JAX108"

    def fix(self, request: FieldsAsArguments, site: Site, doc: Document) -> Fix | None:
        call = request.call
        template = call.args[0]
        if len(call.args) != 1 or not isinstance(template, ast.JoinedStr):
            raise CannotFix("other positional arguments besides the format string")
        arguments: list[str] = []
        text = fstring_template(template, arguments)
        snippet = doc.snippet(site.statement)
        code = ", ".join([string_literal(text), *arguments])
        replaced = parse_expression(f"f({code})").args  # pyright: ignore[reportAttributeAccessIssue]
        call_node = snippet.expression(call)
        new_call = call_node.with_changes(args=[*replaced, *call_node.args[1:]])  # pyright: ignore[reportAttributeAccessIssue]
        statement = snippet.statement.deep_replace(call_node, new_call)
        return doc.fix(
            Applicability.SAFE,
            "Pass the values to `jax.debug.print` as arguments",
            [snippet.replace([statement])],  # pyright: ignore[reportArgumentType]
        )
