"""What a rule sees while it checks a node: the model, where the node is, and ``report``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from jaxlint.engine.diagnostics import Diagnostic, FixRequest, Location, Site
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.keys import KeyEvent
from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.scopes import Frame, Loops, Scope
from jaxlint.semantic.transforms import ABSTRACT, NONE
from jaxlint.semantic.values import Value

if TYPE_CHECKING:
    from jaxlint.engine.rule import Rule


class Context:
    """Per-file state handed to every rule callback; the engine moves it from node to node."""

    def __init__(self, path: str, lines: list[str], model: SemanticModel) -> None:
        self.path = path
        self.lines = lines
        self.model = model
        self.diagnostics: list[Diagnostic] = []
        self.rule: Rule | None = None
        self.scope: Scope = model.index.module
        self.function: FunctionInfo | None = None
        self.level = NONE
        self.abstract = False
        self.traced_to_run = False
        self.traced = False
        self.loops: Loops = ()
        self.frame: Frame = None
        self._key_events: dict[ast.Call, KeyEvent] | None = None
        self.memo: dict[object, Any] = {}  # per-file scratch space for rules
        self._text: str | None = None
        self._mentioned: dict[str, bool] = {}

    def mentions(self, word: str) -> bool:
        """Whether ``word`` occurs anywhere in the file's text: a cheap gate before the model is
        asked about something only a file naming it can hold (a ``vmap`` layer needs ``vmap``)."""
        found = self._mentioned.get(word)
        if found is None:
            found = self._mentioned[word] = word in self.text  # once per word: a file can be long
        return found

    @property
    def text(self) -> str:
        """The file's text (joined once, on first use)."""
        if self._text is None:
            self._text = "\n".join(self.lines)
        return self._text

    # ------------------------------------------------------------------ where we are

    def enter(self, scope: Scope) -> None:
        """Move to ``scope``: its function (None at module level) and how abstract it is
        (``abstract``: inside code JAX traces abstractly, jit, vmap, lax bodies...)."""
        self.scope = scope
        self.function = self.model.function_of(scope)
        self.level = NONE if self.function is None else self.function.effective_level
        self.abstract = self.level >= ABSTRACT
        # traced abstractly and then run compiled: trace-time Python differs from run time (not
        # so under `jax.eval_shape`, where tracing is all that ever happens)
        function = self.function
        self.traced_to_run = self.abstract and function is not None and not function.only_traced_for_shapes
        self.traced = self.level > NONE
        self._key_events: dict[ast.Call, KeyEvent] | None = None

    @property
    def unreached_when_traced(self) -> frozenset[ast.AST]:
        """Nodes of the current function that no trace of it runs (rules about traced code skip
        them): a branch on a parameter that every traced call fixes (``check=False``)."""
        function = self.function
        if function is None or not self.abstract:
            return frozenset()
        return self.model.unreached_when_traced(function)

    @property
    def key_events(self) -> dict[ast.Call, KeyEvent]:
        """PRNG key reuse in the current function (computed once per function)."""
        if self._key_events is None:
            self._key_events = self.model.key_events(self.scope)
        return self._key_events

    @property
    def parent(self) -> ast.AST | None:
        return None if self.frame is None else self.frame[0]

    def ancestors(self) -> Iterator[ast.AST]:
        frame = self.frame
        while frame is not None:
            yield frame[0]
            frame = frame[1]

    # ------------------------------------------------------------------ questions

    def value(self, node: ast.AST) -> Value:
        return self.model.value(node, self.scope)

    def qualname(self, node: ast.AST) -> str | None:
        return self.model.qualname(node, self.scope)

    def first_time(self, key: object) -> bool:
        """True the first time ``key`` is seen in this file (for one report per thing)."""
        seen = self.memo.setdefault("first_time", set())
        if key in seen:
            return False
        seen.add(key)
        return True

    @property
    def trace_reused(self) -> bool:
        """Whether the current function's Python code runs once per trace, not on every call
        (compiled by ``jit``, cached by ``checkpoint``, a ``lax`` body...; not under a bare ``vmap``)."""
        function = self.function
        return self.traced_to_run and function is not None and self.model.reuses_trace(function)

    def trace_reason(self) -> str:
        """Which transformation traces the current function ("" when none does)."""
        function = self.function
        return "" if function is None else function.why

    # ------------------------------------------------------------------ reporting

    def report(
        self,
        node: ast.AST,
        message: str,
        *,
        end: ast.AST | None = None,
        fix: FixRequest | None = None,
    ) -> None:
        """Report ``node`` (through ``end``, when given) with ``message``; ``fix`` is what the
        rule's fixer needs to rewrite this finding (None: no fix for this one)."""
        rule = self.rule
        assert rule is not None
        last = end if end is not None else node
        start = self.location(node.lineno, node.col_offset)  # pyright: ignore[reportAttributeAccessIssue]
        stop = self.location(
            getattr(last, "end_lineno", None) or node.lineno,  # pyright: ignore[reportAttributeAccessIssue]
            getattr(last, "end_col_offset", None) or node.col_offset,  # pyright: ignore[reportAttributeAccessIssue]
        )
        self.diagnostics.append(
            Diagnostic(
                code=rule.code,
                name=rule.name,
                message=message,
                filename=self.path,
                location=start,
                end_location=stop,
                severity=rule.severity,
                fix_title=rule.fix_title,
                noqa_row=start.row,
                site=Site(node, self.statement_of(node), self.scope),
                request=fix,
            )
        )

    def statement_of(self, node: ast.AST) -> ast.stmt | None:
        """The innermost statement around ``node`` (``node`` itself if it is one)."""
        if isinstance(node, ast.stmt):
            return node
        return next((a for a in self.ancestors() if isinstance(a, ast.stmt)), None)

    def location(self, row: int, byte_column: int) -> Location:
        return Location(row, character_column(self.lines, row, byte_column) + 1)


def character_column(lines: list[str], row: int, byte_column: int) -> int:
    """Convert ``ast``'s UTF-8 byte offset on ``row`` into a 0-based character offset."""
    if 0 < row <= len(lines):
        line = lines[row - 1]
        if not line.isascii():
            return len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))
    return byte_column
