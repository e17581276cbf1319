"""What a fixer works with: the document being fixed, statements parsed with libcst, imports.

A fixer never re-runs the analysis: the rule hands it a typed fix request and the finding's
site; the fixer rewrites syntax. Only the statement being rewritten is parsed with libcst (inside an
``if True:`` wrapper that keeps its indentation, so multi-line strings are untouched), and the
result becomes a text :class:`~jaxlint.engine.diagnostics.Edit`.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from jaxlint.engine.diagnostics import Applicability, Edit, Fix, Location
from jaxlint.fixing.fixer import CannotFix
from jaxlint.semantic.scopes import Scope

if TYPE_CHECKING:
    import libcst as cst

    from jaxlint.semantic.model import SemanticModel

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_WRAPPER = "if True:\n"

# How each API is imported when the file has no alias for it yet.
IMPORT_STATEMENTS = {
    "jax": ("jax", "import jax"),
    "jax.numpy": ("jnp", "import jax.numpy as jnp"),
    "jax.lax": ("lax", "from jax import lax"),
    "functools": ("functools", "import functools"),
    "numpy": ("np", "import numpy as np"),
    "dataclasses": ("dataclasses", "import dataclasses"),
}
# Spelt through an existing parent alias (`jax.lax.cond` after `import jax`) before importing.
PREFER_PARENT = frozenset({"jax.lax"})


class Document:
    """The source being fixed, with position conversions and access to the semantic model."""

    def __init__(self, text: str, model: SemanticModel) -> None:
        self.text = text
        self.model = model
        self.newline = _dominant_newline(text)
        self.line_starts = line_starts(text)
        self.indent_unit = _indent_unit(text)
        self._line_bytes: dict[int, bytes] = {}

    # ------------------------------------------------------------------ positions

    def line_text(self, row: int) -> str:
        start = self.line_starts[row - 1]
        end = self.line_starts[row] if row < len(self.line_starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset(self, row: int, byte_column: int) -> int:
        """Character offset of an ``ast`` position (row 1-based, column in UTF-8 bytes)."""
        line = self.line_text(row)
        column = byte_column
        if not line.isascii():
            column = len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))
        return self.line_starts[row - 1] + column

    def location(self, offset: int) -> Location:
        row = bisect_right(self.line_starts, offset)
        return Location(row, offset - self.line_starts[row - 1] + 1)

    def start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)  # pyright: ignore[reportAttributeAccessIssue]

    def end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)  # pyright: ignore[reportAttributeAccessIssue]

    def segment(self, node: ast.AST) -> str:
        return self.text[self.start(node) : self.end(node)]

    def edit(self, start: int, end: int, content: str) -> Edit:
        return Edit(content, self.location(start), self.location(end))

    # ------------------------------------------------------------------ statements

    def snippet(self, statement: ast.AST | None) -> Snippet:
        """``statement`` parsed with libcst (:class:`CannotFix` when it is not a statement)."""
        if not isinstance(statement, ast.stmt):
            raise CannotFix("not a statement")
        return Snippet(self, statement)

    # ------------------------------------------------------------------ names and imports

    def reference(self, qualname: str, scope: Scope) -> tuple[str, list[Edit]]:
        """How to spell ``qualname`` at ``scope``, reusing the file's aliases: an alias of it or of
        a parent module (``jax.random.split`` via ``import jax``), else its usual import
        (``import jax.numpy as jnp``), added after the module's imports."""
        alias = self._alias(qualname, scope)
        if alias is not None:
            return alias, []
        via_parent = self._via_parent(qualname, scope)
        if via_parent is not None and (qualname in PREFER_PARENT or qualname not in IMPORT_STATEMENTS):
            return via_parent, []
        if qualname in IMPORT_STATEMENTS:
            spelling, statement = IMPORT_STATEMENTS[qualname]
            if self._visible(spelling.split(".")[0], scope, allow_unbound=True):
                return spelling, [self.import_edit(statement)]
        if via_parent is not None:
            return via_parent, []
        parent, _, attribute = qualname.rpartition(".")
        if not parent:
            raise CannotFix(f"no way to import {qualname}")
        spelled, edits = self.reference(parent, scope)
        return f"{spelled}.{attribute}", edits

    def _alias(self, qualname: str, scope: Scope) -> str | None:
        for name, imported in self.model.index.module.imports.items():
            if imported == qualname and self._visible(name, scope):
                return name
        return None

    def _via_parent(self, qualname: str, scope: Scope) -> str | None:
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            alias = self._alias(".".join(parts[:cut]), scope)
            if alias is not None:
                return ".".join([alias, *parts[cut:]])
        return None

    def _visible(self, name: str, scope: Scope, allow_unbound: bool = False) -> bool:
        """Whether ``name`` at ``scope`` means the module-level import (or is free to bind)."""
        owner = scope.lookup(name)
        module = self.model.index.module
        if owner is None:
            return allow_unbound
        if owner is not module:
            return False
        return module.only_imported(name)

    def import_edit(self, statement: str) -> Edit:
        """Insert ``statement`` after the module's leading imports."""
        offset = self._import_offset()
        text = statement + self.newline
        if offset == len(self.text) and self.text and not self.text.endswith(("\n", "\r")):
            text = self.newline + statement
        return self.edit(offset, offset, text)

    def _import_offset(self) -> int:
        body = self.model.tree.body
        last = None
        for index, statement in enumerate(body):
            if isinstance(statement, (ast.Import, ast.ImportFrom)) or (
                index == 0 and _is_docstring(statement)
            ):
                last = statement
            else:
                break
        if last is None:
            return 0
        row = last.end_lineno or last.lineno
        return self.line_starts[row] if row < len(self.line_starts) else len(self.text)

    def line_before(self, statement: ast.stmt, *lines: str) -> Edit:
        """``lines``, each on a line of its own, before ``statement``, at its indentation."""
        line_start = self.line_starts[statement.lineno - 1]
        indent = self.text[line_start : self.start(statement)]
        if indent.strip():
            raise CannotFix("the statement shares its line with another statement")
        return self.edit(line_start, line_start, "".join(f"{indent}{line}{self.newline}" for line in lines))

    def fresh_name(self, base: str, scope: Scope, taken: Sequence[str] = ()) -> str:
        """``base``, or ``base_2``, ``base_3``... whichever no name in the function uses."""
        used = names_in(scope.function.node) | set(self.model.index.module.bound) | set(taken)
        candidate, number = base, 1
        while candidate in used:
            number += 1
            candidate = f"{base}_{number}"
        return candidate

    def fresh_names(self, base: str, scope: Scope, count: int) -> list[str]:
        names: list[str] = []
        for _ in range(count):
            names.append(self.fresh_name(base, scope, names))
        return names

    def fix(
        self,
        applicability: Applicability,
        message: str,
        edits: Sequence[Edit],
        isolated_in: Scope | None = None,
    ) -> Fix:
        """A fix of ``edits``. ``isolated_in``: a fix that picks fresh names in a function is applied
        alone in its pass, so two fixes cannot pick the same name or split the same key twice."""
        isolation = None
        if isolated_in is not None:
            node = isolated_in.function.node
            isolation = f"function@{getattr(node, 'lineno', 0)}:{getattr(node, 'col_offset', 0)}"
        return Fix(applicability, message, tuple(_unique(edits)), isolation)


@dataclass
class _Spans:
    """Expressions of one statement by ``(parentheses taken in, start, end)`` position."""

    by_span: dict[tuple[int, tuple[int, int], tuple[int, int]], cst.BaseExpression] = field(
        default_factory=dict
    )
    widest: int = 0


_COMPOUND = (
    ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try,
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match,
)  # fmt: skip
_TRAILING_COMMENT = re.compile(r"[ \t]*#[^\r\n]*")


class Snippet:
    """One statement of the document parsed with libcst, and how to put a rewrite back."""

    def __init__(self, doc: Document, statement: ast.stmt) -> None:
        import libcst as cst

        self.doc = doc
        self.first_row = statement.lineno
        start = doc.start(statement)
        self.line_start = doc.line_starts[statement.lineno - 1]
        self.indent = doc.text[self.line_start : start]
        if self.indent.strip():
            raise CannotFix("the statement shares its line with another statement")
        self.end = doc.end(statement)
        if isinstance(statement, _COMPOUND):  # the last line's comment belongs to its last statement
            trailing = _TRAILING_COMMENT.match(doc.text, self.end)
            self.end = trailing.end() if trailing else self.end
        rest = doc.text[self.end : doc.text.find("\n", self.end) if "\n" in doc.text[self.end :] else None]
        if rest.lstrip().startswith(";"):
            raise CannotFix("the statement shares its line with another statement")
        code = _LINE_BREAK.sub("\n", doc.text[self.line_start : self.end])
        self.wrapped = bool(self.indent)
        try:
            self.module = cst.parse_module((_WRAPPER if self.wrapped else "") + code + "\n")
        except cst.ParserSyntaxError as error:
            raise CannotFix(f"libcst cannot parse the statement: {error}") from None
        body = self.module.body
        block = body[0].body if self.wrapped else None
        self.statement: cst.BaseStatement = block.body[0] if block is not None else body[0]  # pyright: ignore[reportAttributeAccessIssue]

    def code(self, statements: Sequence[cst.BaseStatement]) -> str:
        """Source text for ``statements`` at the original statement's indentation."""
        if self.wrapped:
            outer = self.module.body[0]
            block: cst.IndentedBlock = outer.body  # pyright: ignore[reportAssignmentType]
            new_outer = outer.with_changes(body=block.with_changes(body=list(statements)))
            text = self.module.with_changes(body=[new_outer]).code[len(_WRAPPER) :]
        else:
            text = self.module.with_changes(body=list(statements)).code
        text = text.rstrip("\n")
        return text.replace("\n", self.doc.newline)

    def comments(self) -> list[str]:
        """The comments inside the original statement (``# ...``), in order."""
        import libcst as cst

        found: list[str] = []

        class Comments(cst.CSTVisitor):
            def visit_Comment(self, node: cst.Comment) -> None:
                found.append(node.value)

        self.statement.visit(Comments())
        return found

    def code_of(self, node: cst.CSTNode) -> str:
        """The original source text of a node of this statement."""
        return self.module.code_for_node(node)

    def bare_code_of(self, node: cst.BaseExpression) -> str:
        """The source text of an expression, to stand alone or as one argument of a call."""
        return argument_code(self.module, node)

    def operand_code_of(self, node: cst.BaseExpression) -> str:
        """The source text of an expression, parenthesised when an operator could split it."""
        import libcst as cst

        atomic = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.SimpleString)
        return self.code_of(node) if isinstance(node, atomic) or node.lpar else f"({self.code_of(node)})"

    def replace_code(self, code: str) -> Edit:
        """An edit replacing the statement with ``code`` (one or more statements, unindented)."""
        return self.replace(parse_statements(code))

    def replace(self, statements: Sequence[cst.BaseStatement]) -> Edit:
        """An edit replacing the original statement with ``statements``; the comments of the
        original that the rewrite dropped go on their own lines above it."""
        code = self.code(statements)
        lost = [comment for comment in self.comments() if comment not in code]
        if lost and code.startswith(self.indent):
            newline = self.doc.newline
            code = newline.join(self.indent + comment for comment in lost) + newline + code
        if code.startswith(self.indent):
            return self.doc.edit(self.line_start + len(self.indent), self.end, code[len(self.indent) :])
        return self.doc.edit(self.line_start, self.end, code)

    def expression(self, node: ast.expr) -> cst.BaseExpression:
        """The libcst node of an ``ast`` expression inside this statement (matched by position)."""

        shift = 1 - self.first_row + (1 if self.wrapped else 0)
        end_line = node.end_lineno or node.lineno
        start = (node.lineno + shift, self.doc.start(node) - self.doc.line_starts[node.lineno - 1])
        end = (end_line + shift, self.doc.end(node) - self.doc.line_starts[end_line - 1])
        spans = self._expression_spans
        # libcst's spans leave out a node's own parentheses; ast's include those of a tuple
        for widen in range(spans.widest + 1):
            found = spans.by_span.get((widen, start, end))
            if found is not None:
                return found
        raise CannotFix("cannot locate the expression")

    @cached_property
    def _expression_spans(self) -> _Spans:
        """Where each expression of the statement stands, widened by its own parentheses:
        resolved once per statement, so locating many expressions stays linear."""
        import libcst as cst
        from libcst.metadata import MetadataWrapper, PositionProvider

        wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        spans = _Spans()
        for candidate, span in wrapper.resolve(PositionProvider).items():
            if not isinstance(candidate, cst.BaseExpression):
                continue
            parentheses = len(getattr(candidate, "lpar", ()))
            spans.widest = max(spans.widest, parentheses)
            for widen in range(parentheses + 1):
                key = (
                    widen,
                    (span.start.line, span.start.column - widen),
                    (span.end.line, span.end.column + widen),
                )
                spans.by_span.setdefault(key, candidate)
        return spans


def argument_code(module: cst.Module, node: cst.BaseExpression) -> str:
    """The source text of an expression that can stand alone or as one argument of a call: without
    its outer parentheses, unless they hold a comment or the expression spans lines; a tuple, a
    generator or a ``yield`` keeps (or gets) the parentheses its commas or keyword need."""
    import libcst as cst

    code = module.code_for_node(node)
    if isinstance(node, (cst.Tuple, cst.GeneratorExp, cst.Yield)):
        return code if node.lpar else f"({code})"
    parens = [*getattr(node, "lpar", ()), *getattr(node, "rpar", ())]
    if not parens or any("#" in module.code_for_node(p) for p in parens):
        return code
    bare = module.code_for_node(node.with_changes(lpar=[], rpar=[]))
    return code if "\n" in bare else bare


def line_starts(text: str) -> list[int]:
    """The offset at which each line of ``text`` starts (any newline style)."""
    return [0] + [match.end() for match in _LINE_BREAK.finditer(text)]


def parse_expression(code: str) -> cst.BaseExpression:
    import libcst as cst

    return cst.parse_expression(code)


def parse_statements(code: str) -> list[cst.BaseStatement]:
    import libcst as cst

    return list(cst.parse_module(code).body)


def _dominant_newline(text: str) -> str:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    if crlf >= lf and crlf >= cr and crlf:
        return "\r\n"
    if cr > lf:
        return "\r"
    return "\n"


def _indent_unit(text: str) -> str:
    for match in re.finditer(r"^([ \t]+)\S", text, re.MULTILINE):
        return match.group(1) if match.group(1).startswith("\t") else " " * min(len(match.group(1)), 8)
    return "    "


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def names_in(node: ast.AST) -> set[str]:
    """Every name ``node`` binds or reads, parameters included."""
    names: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            names.add(child.id)
        elif isinstance(child, ast.arg):
            names.add(child.arg)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(child.name)
    return names


def _unique(edits: Sequence[Edit]) -> list[Edit]:
    seen: set[Edit] = set()
    unique = []
    for edit in edits:
        if edit not in seen:
            seen.add(edit)
            unique.append(edit)
    return unique
