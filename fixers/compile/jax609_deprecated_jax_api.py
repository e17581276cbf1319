"""JAX609 fix: deprecated JAX APIs -> their current form (renames, ``from`` imports,
``jax.ops.index_*`` -> ``.at[]``, ``tie_in(x, y)`` -> ``y``)."""

from __future__ import annotations

import ast

from jaxlint.engine.diagnostics import Applicability, Edit, Fix, Site
from jaxlint.fixing.document import Document
from jaxlint.fixing.fixer import CannotFix, Fixer
from jaxlint.semantic.scopes import Scope

from ...rules.compile.migrations import (
    AT_KEYWORDS,
    ApiMigration,
    DisableX64,
    DropTieIn,
    IndexUpdateToAt,
    RenameKeywords,
    ReplaceName,
    RewriteImport,
)

ATOMIC = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)


class MigrateDeprecatedApi(Fixer[ApiMigration]):
    """Safe for renames, imports and `disable_x64` (the same function under its current name);
    `.at[]` is safe when the updated value is known to be a JAX array (a NumPy array was updated in
    place) and `tie_in` when its first argument is pure; unsafe otherwise."""

    code = "JAX609"

    def fix(self, request: ApiMigration, site: Site, doc: Document) -> Fix | None:
        scope = site.scope
        match request:
            case ReplaceName(new):
                node = site.node
                spelled, imports = doc.reference(new, scope)
                edits = [doc.edit(doc.start(node), doc.end(node), spelled), *imports]
                return doc.fix(Applicability.SAFE, f"Use `{new}`", edits)
            case RenameKeywords(renamed):
                edits = [doc.edit(doc.start(k), doc.start(k) + len(k.arg or ""), new) for k, new in renamed]
                return doc.fix(Applicability.SAFE, "Use the current keyword names", edits)
            case RewriteImport():
                return doc.fix(Applicability.SAFE, "Import the current APIs", _import_edits(doc, request))
            case IndexUpdateToAt(call, method, safe):
                text = _at_text(doc, call, method, scope)
                applicability = Applicability.SAFE if safe else Applicability.UNSAFE
            case DropTieIn(call, safe, bare):
                text = doc.segment(call.args[1]) if bare else f"({doc.segment(call.args[1])})"
                applicability = Applicability.SAFE if safe else Applicability.UNSAFE
            case DisableX64(call):
                enable, imports = doc.reference("jax.enable_x64", scope)
                if imports:
                    raise CannotFix("jax is not imported")
                text, applicability = f"{enable}(False)", Applicability.SAFE
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


def _import_edits(doc: Document, request: RewriteImport) -> list[Edit]:
    """Rewrite ``from module import a, b``: names with a current form are imported from it on a
    line inserted above (still bound to their old names), unused removed names are dropped, the
    others stay. The insertion comes first, so it is the span checked after the fix."""
    statement = request.statement
    start, end = doc.start(statement), doc.end(statement)
    line_start = doc.line_starts[statement.lineno - 1]
    indent = doc.text[line_start:start]
    if indent.strip() or "#" in doc.text[start:end] or "\\" in doc.text[start:end]:
        raise CannotFix("the import shares its line or holds a comment")
    moved = {id(alias) for alias, _ in request.migrate} | {id(alias) for alias in request.drop}
    lines = []
    for alias, new in request.migrate:
        parent, _, leaf = new.rpartition(".")
        bound = alias.asname or alias.name
        lines.append(f"{indent}from {parent} import {leaf}" + ("" if leaf == bound else f" as {bound}"))
    edits = [doc.edit(line_start, line_start, "".join(line + doc.newline for line in lines))] if lines else []
    kept = [a for a in statement.names if id(a) not in moved]
    if kept:
        names = ", ".join(f"{a.name} as {a.asname}" if a.asname else a.name for a in kept)
        edits.append(doc.edit(start, end, f"from {statement.module} import {names}"))
    else:
        last = statement.end_lineno or statement.lineno
        after = doc.line_starts[last] if last < len(doc.line_starts) else len(doc.text)
        edits.append(doc.edit(line_start, after, ""))
    return edits
