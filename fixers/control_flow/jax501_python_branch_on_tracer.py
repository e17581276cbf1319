"""JAX501 fix: a flag parameter becomes static; an ``if`` becomes ``jnp.where`` (returns and
assignments, with double-where NaN guards) or ``lax.cond``; a ``while`` becomes
``lax.while_loop``; ``a if c else b`` becomes ``jnp.where(c, a, b)``."""

from __future__ import annotations

import ast

import libcst as cst

from jaxlint.engine.diagnostics import Applicability, Edit, Fix, Site
from jaxlint.fixing.document import Document, Snippet, parse_expression, parse_statements
from jaxlint.fixing.fixer import CannotFix, Fixer
from jaxlint.fixing.plans import (
    CondBranches,
    MarkStatic,
    NanGuard,
    WhereAssign,
    WhereExpression,
    WhereReturn,
    WhileLoop,
)
from jaxlint.fixing.rewrites import (
    WhereBuilder,
    array_condition,
    block_statements,
    function_def,
    mark_static,
    pack,
    tuple_expression,
)
from jaxlint.semantic.scopes import Scope

from ...rules.control_flow.jax501_python_branch_on_tracer import BranchFix


class BranchOnTracerRewrite(Fixer[BranchFix]):
    """Rewrites the branch the way the rule planned it. Safe where the plan says so (the branch
    failed on every run in sight); else unsafe, every form: making a flag static recompiles per
    value and rejects traced callers; `jnp.where` evaluates both branches and, like `lax.cond`,
    needs them to agree in shape and dtype; `while_loop` fixes the carried types."""

    code = "JAX501"

    def fix(self, request: BranchFix, site: Site, doc: Document) -> Fix | None:
        scope = site.scope
        match request:
            case MarkStatic():
                return mark_static(doc, scope, request)
            case WhereExpression():
                return self.where_expression(request, site, doc)
            case WhereReturn():
                edits, message = (
                    self.where_return(doc, request, scope),
                    "Rewrite the branches with `jnp.where`",
                )
            case WhereAssign():
                edits, message = (
                    self.where_assign(doc, request, scope),
                    "Rewrite the branches with `jnp.where`",
                )
            case CondBranches():
                edits, message = self.cond(doc, request, scope), "Rewrite the branches with `jax.lax.cond`"
            case WhileLoop():
                edits, message = (
                    self.while_loop(doc, request, scope),
                    "Rewrite the loop with `jax.lax.while_loop`",
                )
        return doc.fix(Applicability.SAFE if request.safe else Applicability.UNSAFE, message, edits, scope)

    # ------------------------------------------------------------------ jnp.where

    def where_expression(self, plan: WhereExpression, site: Site, doc: Document) -> Fix:
        node = plan.node
        if site.statement is None:
            raise CannotFix("no statement around the expression")
        snippet = doc.snippet(site.statement)
        where = WhereBuilder(doc, snippet, site.scope)
        tests = [where.condition(node.test)]
        values = [
            where.guarded(node.body, plan.body_guards, where.selector(tests, 0)),
            where.guarded(node.orelse, plan.orelse_guards, where.selector(tests, 1)),
        ]
        replacement = parse_expression(where.chain(tests, values))
        statement = snippet.statement.deep_replace(snippet.expression(node), replacement)
        edits = [snippet.replace([statement]), *where.edits]  # pyright: ignore[reportArgumentType]
        return doc.fix(
            Applicability.SAFE if plan.safe else Applicability.UNSAFE, "Rewrite with `jnp.where`", edits
        )

    def where_return(self, doc: Document, plan: WhereReturn, scope: Scope) -> list[Edit]:
        snippet = doc.snippet(plan.node)
        where = WhereBuilder(doc, snippet, scope)
        tests = [where.condition(t) for t in plan.tests]
        values, guards = plan.values, plan.guards
        # the fallback's code comes from the `return` after the `if` when the plan consumes it
        fallback = WhereBuilder(doc, doc.snippet(plan.following), scope) if plan.following else where
        if plan.width:
            rows = [v.elts for v in values if isinstance(v, ast.Tuple)]
            columns = [
                self.where_column(where, fallback, tests, [row[k] for row in rows], guards[k :: plan.width])
                for k in range(plan.width)
            ]
            code = f"return {', '.join(columns)}" + ("," if plan.width == 1 else "")
        else:
            code = f"return {self.where_column(where, fallback, tests, list(values), guards)}"
        if plan.following is not None:
            following = doc.snippet(plan.following)
            comments = [c for c in [*snippet.comments(), *following.comments()] if c not in code]
            text = "".join(f"{snippet.indent}{c}\n" for c in comments) + snippet.indent + code
            text = text.replace("\n", doc.newline)
            return [doc.edit(snippet.line_start, doc.end(plan.following), text), *where.edits]
        return [snippet.replace_code(code), *where.edits]

    @staticmethod
    def where_column(
        where: WhereBuilder,
        fallback: WhereBuilder,
        tests: list[str],
        values: list[ast.expr],
        guards: tuple[tuple[NanGuard, ...], ...],
    ) -> str:
        """The ``jnp.where`` chain choosing among ``values`` (one per test, then the fallback, whose
        code ``fallback`` reads); the value itself where every branch returns the same code."""
        pairs = enumerate(zip(values[:-1], guards[:-1], strict=True))
        codes = [where.guarded(v, g, where.selector(tests, i)) for i, (v, g) in pairs]
        codes.append(fallback.guarded(values[-1], guards[-1], where.selector(tests, len(tests))))
        if len(set(codes)) == 1 and not any(guards):
            return codes[0]
        return where.chain(tests, codes)

    def where_assign(self, doc: Document, plan: WhereAssign, scope: Scope) -> list[Edit]:
        snippet = doc.snippet(plan.node)
        where = WhereBuilder(doc, snippet, scope)
        tests = [where.condition(t) for t in plan.tests]
        names = plan.names
        lines = []
        test_reads_assigned = any(
            isinstance(n, ast.Name) and n.id in names for t in plan.tests for n in ast.walk(t)
        )
        if test_reads_assigned and len(names) > 1:
            fresh = doc.fresh_names("pred", scope, len(tests))
            lines += [f"{name} = {test}" for name, test in zip(fresh, tests, strict=True)]
            tests = fresh
        for name, values, guards in zip(names, plan.values, plan.guards, strict=True):
            codes = [
                name if value is None else where.guarded(value, guard, where.selector(tests, i))
                for i, (value, guard) in enumerate(zip(values, guards, strict=True))
            ]
            lines.append(f"{name} = {where.chain(tests, codes)}")
        return [snippet.replace_code("\n".join(lines)), *where.edits]

    # ------------------------------------------------------------------ lax.cond

    def cond(self, doc: Document, plan: CondBranches, scope: Scope) -> list[Edit]:
        outputs, operands = plan.outputs, plan.operands
        snippet = doc.snippet(plan.node)
        lax, edits = doc.reference("jax.lax", scope)
        test, test_edits = array_condition(doc, snippet, plan.node.test, scope)
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

    def while_loop(self, doc: Document, plan: WhileLoop, scope: Scope) -> list[Edit]:
        carried = plan.carried
        snippet: Snippet = doc.snippet(plan.node)
        lax, edits = doc.reference("jax.lax", scope)
        test, test_edits = array_condition(doc, snippet, plan.node.test, scope)
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
