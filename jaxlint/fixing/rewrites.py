"""Rewrites several fixers share: ``static_argnames``, ``jnp.where`` with NaN guards, and
lifting a block into local functions for ``lax.cond`` / ``while_loop`` / ``fori_loop``."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from functools import reduce
from typing import TYPE_CHECKING

from jaxlint.engine.diagnostics import Applicability, Edit, Fix, Site
from jaxlint.fixing.document import Document, Snippet, argument_code, parse_statements
from jaxlint.fixing.fixer import CannotFix
from jaxlint.fixing.plans import (
    ClosedOver,
    ForiLoop,
    JaxNumpyFunction,
    LocalLeaf,
    MarkStatic,
    NanGuard,
    NumpyAtTraceTime,
    RecordField,
)
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.scopes import Scope

if TYPE_CHECKING:
    import libcst as cst


# ---------------------------------------------------------------------------- static_argnames


def mark_static(doc: Document, scope: Scope, request: MarkStatic) -> Fix:
    """The fix of a ``MarkStatic`` request: the parameter joins the ``static_argnames`` of the one
    jit applied to its function. Alone in its pass for that function: two such fixes of one
    jit would each add the keyword."""
    function = jitted_function(doc, scope, request.function)
    edits = add_static_argname(doc, function, request.param)
    applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
    return doc.fix(applicability, f"Mark `{request.param}` static", edits, function.scope)


def add_static_argname(doc: Document, function: FunctionInfo, name: str) -> list[Edit]:
    """Edits that add ``name`` to ``static_argnames`` of the one ``jax.jit`` applied to ``function``."""
    sites = function.static_jit_sites()
    if len(sites) != 1 or name not in {p.arg for p in function.param_nodes()}:
        raise CannotFix("the function is not jitted at exactly one place")
    site = sites[0]
    bound = site in function.bound_jit_sites
    if bound and any(k.arg == "static_argnums" for k in getattr(site, "keywords", [])):
        raise CannotFix("`static_argnums` of a bound method count without its `self`")
    scope = doc.model.index.parents.get(function.node, doc.model.index.module)
    if isinstance(site, (ast.Name, ast.Attribute)):
        partial, edits = doc.reference("functools.partial", scope)
        text = f"{partial}({doc.segment(site)}, static_argnames=({_quote(name)},))"
        return [doc.edit(doc.start(site), doc.end(site), text), *edits]
    if not isinstance(site, ast.Call):
        raise CannotFix("unexpected jit site")
    numbers = next((k for k in site.keywords if k.arg == "static_argnums"), None)
    if numbers is not None:
        # with both given, JAX maps neither onto the other: a positional argument named in
        # static_argnames alone stays traced, so its position joins static_argnums
        return _add_static_argnum(doc, function, numbers, name)
    keyword = next((k for k in site.keywords if k.arg == "static_argnames"), None)
    if keyword is None:
        anchor = max(
            [*site.args, *site.keywords], key=lambda n: (n.end_lineno, n.end_col_offset), default=None
        )
        if anchor is None:
            offset = doc.end(site) - 1
            return [doc.edit(offset, offset, f"static_argnames=({_quote(name)},)")]
        offset = doc.end(anchor)
        return [doc.edit(offset, offset, f", static_argnames=({_quote(name)},)")]
    names = _string_list(keyword.value)
    if name in names:
        raise CannotFix("already static")
    text = "(" + ", ".join(_quote(n) for n in [*names, name]) + ("," if not names else "") + ")"
    return [doc.edit(doc.start(keyword.value), doc.end(keyword.value), text)]


def _add_static_argnum(doc: Document, function: FunctionInfo, keyword: ast.keyword, name: str) -> list[Edit]:
    """Edits that add the position of parameter ``name`` to the literal ``static_argnums``."""
    node = function.node
    if isinstance(node, ast.Lambda) or name in {a.arg for a in node.args.kwonlyargs}:
        raise CannotFix("not a positional parameter of a def")
    positions = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
    value = keyword.value
    if isinstance(value, ast.Constant) and type(value.value) is int:
        numbers = [value.value]
    elif isinstance(value, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Constant) and type(e.value) is int for e in value.elts
    ):
        numbers = [e.value for e in value.elts]  # pyright: ignore[reportAttributeAccessIssue]
    else:
        raise CannotFix("static_argnums is not a literal")
    position = positions.index(name)
    if position in numbers:
        raise CannotFix("already static")
    text = "(" + ", ".join(str(n) for n in [*numbers, position]) + ")"
    return [doc.edit(doc.start(value), doc.end(value), text)]


def _string_list(value: ast.expr) -> list[str]:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return [e.value for e in value.elts]  # pyright: ignore[reportAttributeAccessIssue]
    raise CannotFix("static_argnames is not a literal")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def jitted_function(doc: Document, scope: Scope, function: ast.AST | None = None) -> FunctionInfo:
    """The function whose ``jax.jit`` takes the static argument: ``function`` when given (a jitted
    caller), else the one ``scope`` is in."""
    info = doc.model.infos.get(function if function is not None else scope.function.node)
    if info is None:
        raise CannotFix("not inside a function")
    return info


# ---------------------------------------------------------------------------- jnp.where

Selector = Callable[[str, str], str]


class WhereBuilder:
    """Builds ``jnp.where`` expressions from the original code of a statement's parts."""

    def __init__(self, doc: Document, snippet: Snippet, scope: Scope) -> None:
        self.snippet = snippet
        self.jnp, self.edits = doc.reference("jax.numpy", scope)

    def code(self, node: ast.expr) -> str:
        return self.snippet.bare_code_of(self.snippet.expression(node))

    def condition(self, test: ast.expr) -> str:
        """The code of an ``if`` condition as an array expression (see :func:`array_condition`)."""
        return condition_code(test, self.jnp, self.code)

    def guarded(self, value: ast.expr, guards: Sequence[NanGuard], selected: Selector) -> str:
        """``value``'s code with each NaN-prone operand replaced by a ``jnp.where`` that keeps it
        where ``value`` is selected and a safe value elsewhere: the double-where that keeps the
        gradients of the unselected branch finite."""
        import libcst as cst

        node = self.snippet.expression(value)
        for operand, safe in guards:
            inner = self.snippet.expression(operand)
            replacement = cst.parse_expression(selected(self.code(operand), safe))
            node = node.deep_replace(inner, replacement)
        return argument_code(self.snippet.module, node)

    def chain(self, tests: Sequence[str], values: Sequence[str]) -> str:
        """``where(t1, v1, where(t2, v2, v3))`` for an if/elif/else chain."""
        expression = values[-1]
        for test, value in zip(reversed(tests), reversed(values[:-1]), strict=True):
            expression = f"{self.jnp}.where({test}, {value}, {expression})"
        return expression

    def selector(self, tests: Sequence[str], branch: int) -> Selector:
        """Keep an operand where branch ``branch`` of an if/elif/else chain is the one taken."""
        jnp = self.jnp

        def select(operand: str, safe: str) -> str:
            if branch < len(tests):
                return f"{jnp}.where({tests[branch]}, {operand}, {safe})"
            for test in reversed(tests):
                operand = f"{jnp}.where({test}, {safe}, {operand})"
            return operand

        return select


# ---------------------------------------------------------------------------- conditions


def array_condition(doc: Document, snippet: Snippet, test: ast.expr, scope: Scope) -> tuple[str, list[Edit]]:
    """The code of an ``if``/``while`` condition that works on arrays: ``and``, ``or``, ``not``
    and chained comparisons call ``bool()`` on their operands, so they become
    ``jnp.logical_and``/``logical_or``/``logical_not``; with the import that needs, if any."""
    jnp, edits = doc.reference("jax.numpy", scope) if _python_logic(test) else ("jnp", [])
    return condition_code(test, jnp, lambda n: snippet.bare_code_of(snippet.expression(n))), edits


def condition_code(test: ast.expr, jnp: str, code: Callable[[ast.expr], str]) -> str:
    if isinstance(test, ast.BoolOp):
        function = f"{jnp}.logical_and" if isinstance(test.op, ast.And) else f"{jnp}.logical_or"
        operands = [condition_code(value, jnp, code) for value in test.values]
        return reduce(lambda left, right: f"{function}({left}, {right})", operands)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return f"{jnp}.logical_not({condition_code(test.operand, jnp, code)})"
    if isinstance(test, ast.Compare) and len(test.ops) > 1:
        if not all(isinstance(c, (ast.Name, ast.Constant)) for c in test.comparators[:-1]):
            raise CannotFix("a chained comparison would evaluate its middle operands twice")
        operands = [code(test.left), *map(code, test.comparators)]
        pairs = [
            f"{left} {_COMPARISONS[type(op)]} {right}"
            for left, op, right in zip(operands, test.ops, operands[1:], strict=False)
        ]
        return reduce(lambda left, right: f"{jnp}.logical_and({left}, {right})", pairs)
    if isinstance(test, ast.Compare) and isinstance(test.ops[0], (ast.In, ast.NotIn)):
        if not isinstance(test.comparators[0], (ast.List, ast.Tuple)):
            raise CannotFix("membership in a value not written out asks Python for each comparison")
        found = f"{jnp}.isin({code(test.left)}, {jnp}.array({code(test.comparators[0])}))"
        return found if isinstance(test.ops[0], ast.In) else f"{jnp}.logical_not({found})"
    return code(test)


def _python_logic(test: ast.expr) -> bool:
    return any(
        isinstance(n, ast.BoolOp)
        or (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not))
        or (isinstance(n, ast.Compare) and (len(n.ops) > 1 or isinstance(n.ops[0], (ast.In, ast.NotIn))))
        for n in _condition_parts(test)
    )


def _condition_parts(test: ast.expr) -> list[ast.expr]:
    """``test`` and the operands of its boolean operators, recursively (not inside calls)."""
    if isinstance(test, ast.BoolOp):
        return [test, *(part for value in test.values for part in _condition_parts(value))]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return [test, *_condition_parts(test.operand)]
    return [test]


_COMPARISONS: dict[type, str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}


# ---------------------------------------------------------------------------- lifting blocks


def function_def(
    doc: Document,
    name: str,
    params: Sequence[str],
    prologue: str,
    body: Sequence[cst.BaseStatement],
    epilogue: str,
    block: cst.BaseSuite | None = None,
) -> cst.FunctionDef:
    """``def name(params):`` with ``prologue``, the original ``body`` statements, ``epilogue``;
    the comment after the colon of ``block`` (the one ``body`` came from) stays after the colon."""
    import libcst as cst

    template = parse_statements(f"def {name}({', '.join(params)}):\n    pass\n")[0]
    assert isinstance(template, cst.FunctionDef)
    statements: list[cst.BaseStatement] = []
    if prologue:
        statements.extend(parse_statements(prologue + "\n"))
    statements.extend(body)
    if epilogue:
        statements.extend(parse_statements(epilogue + "\n"))
    suite = cst.IndentedBlock(body=statements, indent=doc.indent_unit)
    if isinstance(block, cst.IndentedBlock):
        suite = suite.with_changes(header=block.header)
    return template.with_changes(body=suite)


def block_statements(block: cst.BaseSuite) -> list[cst.BaseStatement]:
    import libcst as cst

    if isinstance(block, cst.IndentedBlock):
        return list(block.body)
    raise CannotFix("a one-line block")


def pack(names: Sequence[str]) -> str:
    """``a`` for one name, ``a, b`` for several (a tuple)."""
    if not names:
        raise CannotFix("nothing to carry")
    return names[0] if len(names) == 1 else ", ".join(names)


def tuple_expression(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


# ---------------------------------------------------------------------------- fori_loop


def fori_loop_edits(doc: Document, plan: ForiLoop, scope: Scope) -> list[Edit]:
    """``for i in range(a, b): body`` -> ``carry = lax.fori_loop(a, b, body_fun, carry)`` (JAX502,
    JAX608); a counted ``while`` loop likewise (JAX608)."""
    import libcst as cst

    snippet = doc.snippet(plan.node)
    statement = snippet.statement
    if isinstance(statement, cst.While) and isinstance(statement.test, cst.Comparison):
        lower = plan.index  # the counter's value when the loop starts
        upper = snippet.bare_code_of(statement.test.comparisons[0].comparator)
        upper = f"{upper} + 1" if plan.inclusive else upper
        body = block_statements(statement.body)[:-1]  # the counter's `+= 1`
    elif isinstance(statement, cst.For) and isinstance(statement.iter, cst.Call):
        bounds = [snippet.bare_code_of(arg.value) for arg in statement.iter.args]
        lower, upper = ("0", bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])
        body = block_statements(statement.body)
    else:
        raise CannotFix("not a for loop over range() or a counted while loop")
    carried = plan.carried
    lax, edits = doc.reference("jax.lax", scope)
    body_name = doc.fresh_name("body_fun", scope)
    carry = carried[0] if len(carried) == 1 else doc.fresh_name("carry", scope)
    unpack = "" if len(carried) == 1 else f"{pack(carried)} = {carry}"
    function = function_def(
        doc,
        body_name,
        [plan.index, carry],
        unpack,
        body,
        f"return {pack(carried)}",
        statement.body,
    )
    initial = carried[0] if len(carried) == 1 else f"({pack(carried)})"
    call = f"{pack(carried)} = {lax}.fori_loop({lower}, {upper}, {body_name}, {initial})"
    return [snippet.replace([function, *parse_statements(call + "\n")]), *edits]


def jax_numpy_namesake(request: JaxNumpyFunction, site: Site, doc: Document) -> Fix | None:
    """``np.<name>(...)`` -> ``jnp.<name>(...)``, the arguments as written."""
    node = site.node
    if not isinstance(node, ast.Call):
        return None
    jnp, imports = doc.reference("jax.numpy", site.scope)
    func = node.func
    edits = [doc.edit(doc.start(func), doc.end(func), f"{jnp}.{request.name}"), *imports]
    applicability = Applicability.SAFE if request.safe else Applicability.UNSAFE
    return doc.fix(applicability, f"Use `jnp.{request.name}`", edits)


def where_update(jnp: str, mask: str, value: str, base: str, cast: bool) -> str:
    """``jnp.where(mask, value, base)``, what ``base.at[mask].set(value)`` gives for one scalar
    ``value``; ``cast``: the value is put in ``base``'s dtype first, as ``.at[].set`` does
    (``jnp.zeros_like(base)`` for ``0.0``, ``jnp.full_like(base, v)``), where its own type would
    promote ``base`` (``0.5`` makes an integer array float)."""
    if cast:
        value = _fill_like(jnp, base, value)
    return f"{jnp}.where({mask}, {value}, {base})"


def _fill_like(jnp: str, base: str, value: str) -> str:
    try:
        number = float(value)
    except ValueError:
        number = None
    if number == 0.0 and not value.startswith("-"):
        return f"{jnp}.zeros_like({base})"
    if number == 1.0:
        return f"{jnp}.ones_like({base})"
    return f"{jnp}.full_like({base}, {value})"


def assign_update(
    doc: Document,
    scope: Scope,
    base: str,
    updated: str,
    record: RecordField | None,
    leaf: LocalLeaf | ClosedOver | None = None,
) -> tuple[str, list[Edit]]:
    """``base = updated``; for a field of a record, the record rebuilt around it; for a name of
    the function around, that name declared ``nonlocal``; for a leaf the function cannot assign
    into, a new local name that the later reads of the leaf take."""
    if isinstance(leaf, ClosedOver):
        return f"{leaf.name} = {updated}", [] if leaf.declared else [_declare_nonlocal(doc, leaf)]
    if leaf is not None:
        name = doc.fresh_name(leaf.hint, scope)
        return f"{name} = {updated}", [doc.edit(doc.start(read), doc.end(read), name) for read in leaf.reads]
    if record is None:
        return f"{base} = {updated}", []
    owner, attr = record.owner, record.attr
    if record.kind == "tuple":
        return f"{owner} = {owner}._replace({attr}={updated})", []
    if record.kind == "layer":  # an equinox layer's constructor takes no fields
        tree_at, imports = doc.reference("equinox.tree_at", scope)
        return f"{owner} = {tree_at}(lambda m: m.{attr}, {owner}, {updated})", imports
    replace, imports = doc.reference("dataclasses.replace", scope)
    return f"{owner} = {replace}({owner}, {attr}={updated})", imports


def _declare_nonlocal(doc: Document, closed: ClosedOver) -> Edit:
    """``nonlocal <name>`` as the first statement of the function (after its docstring)."""
    body = closed.function.body
    docstring = isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    first = body[1] if docstring and len(body) > 1 else body[0]
    return doc.line_before(first, f"nonlocal {closed.name}")


def numpy_at_trace_time(request: NumpyAtTraceTime, site: Site, doc: Document) -> Fix:
    """Each staged ``jnp.<f>`` of the request spelt ``np.<f>`` (JAX403, JAX502)."""
    numpy, edits = doc.reference("numpy", site.scope)
    for function in request.functions:
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
        if name is None:
            raise CannotFix("an unexpected callee")
        edits.append(doc.edit(doc.start(function), doc.end(function), f"{numpy}.{name}"))
    return doc.fix(Applicability.UNSAFE, "Compute it with NumPy while tracing", edits)
