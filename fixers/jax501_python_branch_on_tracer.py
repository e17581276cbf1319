"""JAX501 fix: a flag parameter becomes static; an ``if`` becomes ``jnp.where`` (returns and
assignments, with double-where NaN guards) or ``lax.cond``; a ``while`` becomes
``lax.while_loop``; ``a if c else b`` becomes ``jnp.where(c, a, b)``."""

from __future__ import annotations

import ast
from typing import Any

import libcst as cst

from jaxlint.diagnostics import Applicability, Diagnostic, Edit, Fix
from jaxlint.fix import CannotFix, Document, Fixer, parse_expression, parse_statements
from jaxlint.rewrites import (
    WhereBuilder,
    add_static_argname,
    array_condition,
    block_statements,
    function_def,
    jitted_function,
    pack,
    tuple_expression,
)

__all__ = ["BranchOnTracerRewrite"]


class BranchOnTracerRewrite(Fixer):
    code = "JAX501"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data or {}
        scope = diagnostic.scope
        if data.get("static_flag"):
            edits = add_static_argname(doc, jitted_function(doc, scope), data["static_flag"])
            return doc.fix(Applicability.UNSAFE, f"Mark `{data['static_flag']}` static", edits)
        plan = data.get("plan")
        if not plan:
            return None
        form = plan["form"]
        node = diagnostic.node
        if form == "where-expression":
            return self.where_expression(diagnostic, doc, plan)
        snippet = doc.snippet(node)
        if form == "where-return":
            edits = self.where_return(doc, snippet, node, plan, scope, diagnostic)
        elif form == "where-assign":
            edits = self.where_assign(doc, snippet, plan, scope)
        elif form == "cond":
            edits = self.cond(doc, snippet, node, plan, scope)
        elif form == "while":
            edits = self.while_loop(doc, snippet, node, plan, scope)
        else:
            return None
        return doc.fix(Applicability.UNSAFE, _MESSAGES[form], edits, scope)

    # ------------------------------------------------------------------ jnp.where

    def where_expression(self, diagnostic: Diagnostic, doc: Document, plan: dict[str, Any]) -> Fix:
        node = diagnostic.node
        assert isinstance(node, ast.IfExp) and diagnostic.statement is not None
        snippet = doc.snippet(diagnostic.statement)
        where = WhereBuilder(doc, snippet, diagnostic.scope)
        tests = [where.condition(node.test)]
        body_guards, orelse_guards = plan["guards"]
        values = [
            where.guarded(node.body, body_guards, where.selector(tests, 0)),
            where.guarded(node.orelse, orelse_guards, where.selector(tests, 1)),
        ]
        replacement = parse_expression(where.chain(tests, values))
        statement = snippet.statement.deep_replace(snippet.expression(node), replacement)
        edits = [snippet.replace([statement]), *where.edits]  # type: ignore[list-item]
        return doc.fix(Applicability.UNSAFE, _MESSAGES["where-expression"], edits)

    def where_return(
        self,
        doc: Document,
        snippet: Any,
        node: ast.If,
        plan: dict[str, Any],
        scope: Any,
        diagnostic: Diagnostic,
    ) -> list[Edit]:
        where = WhereBuilder(doc, snippet, scope)
        tests = [where.condition(t) for t in plan["tests"]]
        values = plan["values"]
        if plan["consumes_next"]:
            following = _following_return(node, diagnostic)
            fallback_snippet = doc.snippet(following)
            fallback_where = WhereBuilder(doc, fallback_snippet, scope)
            last = fallback_where.guarded(values[-1], plan["guards"][-1], where.selector(tests, len(tests)))
        else:
            last = where.guarded(values[-1], plan["guards"][-1], where.selector(tests, len(tests)))
        codes = [
            where.guarded(v, g, where.selector(tests, i))
            for i, (v, g) in enumerate(zip(values[:-1], plan["guards"][:-1], strict=True))
        ]
        code = f"return {where.chain(tests, [*codes, last])}"
        if plan["consumes_next"]:
            following = _following_return(node, diagnostic)
            text = (snippet.indent + code).replace("\n", doc.newline)
            return [doc.edit(snippet.line_start, doc.end(following), text), *where.edits]
        return [snippet.replace_code(code), *where.edits]

    def where_assign(self, doc: Document, snippet: Any, plan: dict[str, Any], scope: Any) -> list[Edit]:
        where = WhereBuilder(doc, snippet, scope)
        tests = [where.condition(t) for t in plan["tests"]]
        names: list[str] = plan["names"]
        lines = []
        test_reads_assigned = any(
            isinstance(n, ast.Name) and n.id in names for t in plan["tests"] for n in ast.walk(t)
        )
        if test_reads_assigned and len(names) > 1:
            fresh = doc.fresh_names("pred", scope, len(tests))
            lines += [f"{name} = {test}" for name, test in zip(fresh, tests, strict=True)]
            tests = fresh
        for name, values, guards in zip(names, plan["values"], plan["guards"], strict=True):
            codes = [
                name if value is None else where.guarded(value, guard, where.selector(tests, i))
                for i, (value, guard) in enumerate(zip(values, guards, strict=True))
            ]
            lines.append(f"{name} = {where.chain(tests, codes)}")
        return [snippet.replace_code("\n".join(lines)), *where.edits]

    # ------------------------------------------------------------------ lax.cond

    def cond(self, doc: Document, snippet: Any, node: ast.If, plan: dict[str, Any], scope: Any) -> list[Edit]:
        outputs: list[str] = plan["outputs"]
        operands: list[str] = plan["operands"]
        if not outputs:
            raise CannotFix("the branches bind nothing used later")
        lax, edits = doc.reference("jax.lax", scope)
        test, test_edits = array_condition(doc, snippet, node.test, scope)
        statement = snippet.statement
        assert isinstance(statement, cst.If)
        on_true = doc.fresh_name("true_branch", scope)
        on_false = doc.fresh_name("false_branch", scope)
        result = f"return {pack(outputs)}"
        true_body = block_statements(statement.body)
        false_block = statement.orelse.body if isinstance(statement.orelse, cst.Else) else None
        false_body = block_statements(false_block) if false_block is not None else []
        if statement.orelse is not None and not isinstance(statement.orelse, cst.Else):
            raise CannotFix("an elif chain")
        functions = [
            function_def(doc, on_true, operands, "", true_body, result, statement.body),
            function_def(doc, on_false, operands, "", false_body, result, false_block),
        ]
        call = f"{pack(outputs)} = {lax}.cond({test}, {on_true}, {on_false}, {', '.join(operands)})"
        return [snippet.replace([*functions, *parse_statements(call + "\n")]), *edits, *test_edits]

    # ------------------------------------------------------------------ lax.while_loop

    def while_loop(
        self, doc: Document, snippet: Any, node: ast.While, plan: dict[str, Any], scope: Any
    ) -> list[Edit]:
        carried: list[str] = plan["carried"]
        lax, edits = doc.reference("jax.lax", scope)
        test, test_edits = array_condition(doc, snippet, node.test, scope)
        statement = snippet.statement
        assert isinstance(statement, cst.While)
        cond_name = doc.fresh_name("cond_fun", scope)
        body_name = doc.fresh_name("body_fun", scope)
        carry = carried[0] if len(carried) == 1 else doc.fresh_name("carry", scope)
        unpack = "" if len(carried) == 1 else f"{pack(carried)} = {carry}"
        functions = [
            function_def(doc, cond_name, [carry], unpack, [], f"return {test}"),
            function_def(
                doc,
                body_name,
                [carry],
                unpack,
                block_statements(statement.body),
                f"return {pack(carried)}",
                statement.body,
            ),
        ]
        call = f"{pack(carried)} = {lax}.while_loop({cond_name}, {body_name}, {tuple_expression(carried)})"
        return [snippet.replace([*functions, *parse_statements(call + "\n")]), *edits, *test_edits]


def _following_return(node: ast.If, diagnostic: Diagnostic) -> ast.stmt:
    parent_body = _enclosing_block(diagnostic)
    index = next(i for i, s in enumerate(parent_body) if s is node)
    following = parent_body[index + 1]
    if not isinstance(following, ast.Return):
        raise CannotFix("no return after the if")
    return following


def _enclosing_block(diagnostic: Diagnostic) -> list[ast.stmt]:
    node = diagnostic.node
    function = diagnostic.scope.function.node
    for candidate in ast.walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(candidate, field, None)
            if isinstance(block, list) and any(s is node for s in block):
                return block
    raise CannotFix("cannot find the enclosing block")


_MESSAGES = {
    "where-expression": "Rewrite with `jnp.where`",
    "where-return": "Rewrite the branches with `jnp.where`",
    "where-assign": "Rewrite the branches with `jnp.where`",
    "cond": "Rewrite the branches with `jax.lax.cond`",
    "while": "Rewrite the loop with `jax.lax.while_loop`",
}
