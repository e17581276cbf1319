"""JAX609 fix: deprecated JAX APIs -> their current form (renames, ``from`` imports,
``jax.ops.index_*`` -> ``.at[]``, ``tie_in(x, y)`` -> ``y``)."""

from __future__ import annotations

import ast

from jaxlint.diagnostics import Applicability, Diagnostic, Edit, Fix
from jaxlint.fix import CannotFix, Document, Fixer
from jaxlint.migrations import AT_KEYWORDS
from jaxlint.semantic.scopes import Scope

ATOMIC = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)


class MigrateDeprecatedApi(Fixer):
    code = "JAX609"

    def fix(self, diagnostic: Diagnostic, doc: Document) -> Fix | None:
        data = diagnostic.fix_data
        if not data:
            return None
        form, scope = data["form"], diagnostic.scope
        if form == "replace":
            node = diagnostic.node
            spelled, imports = doc.reference(data["new"], scope)
            edits = [doc.edit(doc.start(node), doc.end(node), spelled), *imports]
            return doc.fix(Applicability.SAFE, f"Use `{data['new']}`", edits)
        if form == "import":
            return doc.fix(Applicability.SAFE, f"Import `{data['new']}`", _import_edits(doc, data))
        if form == "drop-import":
            return doc.fix(Applicability.SAFE, "Remove the unused import", _import_edits(doc, data))
        call: ast.Call = data["call"]
        if form == "at":
            text = _at_text(doc, call, data["method"], scope)
            applicability = Applicability.SAFE if data["safe"] else Applicability.UNSAFE
        elif form == "tie_in":
            text = doc.segment(call.args[1]) if data["bare"] else f"({doc.segment(call.args[1])})"
            applicability = Applicability.SAFE if data["safe"] else Applicability.UNSAFE
        elif form == "disable_x64":
            enable, imports = doc.reference("jax.enable_x64", scope)
            if imports:
                raise CannotFix("jax is not imported")
            text, applicability = f"{enable}(False)", Applicability.SAFE
        else:
            raise CannotFix(form)
        edits = [doc.edit(doc.start(call), doc.end(call), text)]
        return doc.fix(applicability, "Rewrite to the current JAX API", edits)


def _at_text(doc: Document, call: ast.Call, method: str, scope: Scope) -> str:
    """``index_update(x, idx, y, sorted, unique)`` -> ``x.at[idx].set(y, indices_are_sorted=...)``."""
    target, index, value, *flags = call.args
    if isinstance(index, ast.Subscript) and doc.model.resolver.spelled(index.value, scope) == "jax.ops.index":
        index = index.slice  # jax.ops.index[...] was an index-expression helper, like np.s_
    arguments = [doc.segment(value)]
    arguments += [f"{name}={doc.segment(flag)}" for name, flag in zip(AT_KEYWORDS, flags)]
    arguments += [doc.segment(keyword) for keyword in call.keywords]
    return f"{_operand(doc, target)}.at[{doc.segment(index)}].{method}({', '.join(arguments)})"


def _operand(doc: Document, node: ast.expr) -> str:
    text = doc.segment(node)
    return text if isinstance(node, ATOMIC) else f"({text})"


def _import_edits(doc: Document, data: dict) -> list[Edit]:
    """Rewrite (or drop) one name of a ``from module import a, b`` statement."""
    statement: ast.ImportFrom = data["statement"]
    alias: ast.alias = data["alias"]
    start, end = doc.start(statement), doc.end(statement)
    line_start = doc.line_starts[statement.lineno - 1]
    indent = doc.text[line_start:start]
    if indent.strip() or "#" in doc.text[start:end] or "\\" in doc.text[start:end]:
        raise CannotFix("the import shares its line or holds a comment")
    others = [a for a in statement.names if a is not alias]
    lines = []
    if others:
        names = ", ".join(f"{a.name} as {a.asname}" if a.asname else a.name for a in others)
        lines.append(f"from {statement.module} import {names}")
    if data["form"] == "import":
        parent, _, leaf = data["new"].rpartition(".")
        bound = alias.asname or alias.name
        lines.append(f"from {parent} import {leaf}" + ("" if leaf == bound else f" as {bound}"))
    if not lines:  # drop the whole statement, with its line
        after = doc.line_starts[statement.end_lineno] if statement.end_lineno < len(doc.line_starts) else end  # type: ignore[operator]
        return [doc.edit(line_start, after, "")]
    return [doc.edit(start, end, (doc.newline + indent).join(lines))]
