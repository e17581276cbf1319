"""The rule base class: metadata, documentation from one docstring, node subscriptions.

A rule is one class in one ``jaxNNN_<name>.py`` file of a family folder of ``jaxlint.rules``
(``rules/control_flow/jax501_python_branch_on_tracer.py``). Its docstring has the sections
``## What it does``, ``## Why is this bad?``, ``## Example``, ``## Use instead``, ``## Fix safety``
and ``## References``; it is the single source of ``jaxlint rule CODE`` and ``docs/rules.md``.
Its examples are tests: the Example must fire, Use instead must stay silent, and a fixable rule's
fix applied to the Example must give the fix it documents (:meth:`Rule.documented_fix`). A rule
subscribes to node types by defining ``visit_<NodeType>(self, node, ctx)`` methods and reports
through ``ctx.report``, with a typed fix request when its fixer can rewrite the finding.
"""

from __future__ import annotations

import ast
import enum
import inspect
import re
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from jaxlint.engine.context import Context

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "References")
_SECTION_RE = re.compile(r"^## (.+?)\s*$", re.MULTILINE)
_CODE_BLOCK_RE = re.compile(r"```python\n(.*?)```", re.DOTALL)


class FixAvailability(enum.Enum):
    """Whether the rule's findings come with a fix (ruff's ``FixAvailability``)."""

    NONE = "none"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


class Rule:
    """Base class of every rule. Subclasses set the metadata and define ``visit_*`` methods."""

    code: ClassVar[str]
    name: ClassVar[str]
    message: ClassVar[str]
    outcome: ClassVar[str]
    fix_title: ClassVar[str | None] = None
    fix_availability: ClassVar[FixAvailability] = FixAvailability.NONE
    severity: ClassVar[str] = "error"
    # True for rules about code JAX traces abstractly (jit, vmap, lax bodies): the engine then
    # calls them only there, and most code is never visited by them.
    traced_only: ClassVar[bool] = False
    # node types (``ast.Call``) a traced-only rule also visits outside traced code: a library
    # function compiled with `jax.jit` and called from plain code (``jax.jit(float)(x)``)
    visits_anywhere: ClassVar[frozenset[type]] = frozenset()
    # words one of which a module's text must contain for the rule to run on it at all (an
    # optax rule needs `optax`): the engine checks them once per file, before any visit
    mentioned: ClassVar[frozenset[str]] = frozenset()

    def applies(self, context: Context) -> bool:
        """Whether the rule may find anything in this module at all, asked once per file before
        any visit: by default, whether its text mentions one of ``mentioned`` (if any)."""
        return not self.mentioned or any(map(context.mentions, self.mentioned))

    @classmethod
    def docs(cls) -> dict[str, str]:
        """The docstring's sections by title."""
        return parse_sections(inspect.getdoc(cls) or "")

    @classmethod
    def examples(cls) -> tuple[str, str]:
        """The code of the Example and Use instead sections."""
        docs = cls.docs()
        return _code_block(docs.get("Example", "")), _code_block(docs.get("Use instead", ""))

    @classmethod
    def documented_fix(cls) -> str:
        """What the fix makes of the Example: the code block of the Fix safety section when it has
        one (the fix differs from the idiomatic Use instead), else the Use instead block."""
        docs = cls.docs()
        return _code_block(docs.get("Fix safety", "")) or _code_block(docs.get("Use instead", ""))

    @classmethod
    def subscriptions(cls) -> dict[type[ast.AST], str]:
        """The node types this rule visits, with the method that visits each."""
        found: dict[type[ast.AST], str] = {}
        for attribute in dir(cls):
            if attribute.startswith("visit_"):
                node_type = getattr(ast, attribute[len("visit_") :], None)
                if isinstance(node_type, type) and issubclass(node_type, ast.AST):
                    found[node_type] = attribute
        return found

    def callbacks(self) -> dict[type[ast.AST], Callable[[Any, Context], None]]:
        return {kind: getattr(self, method) for kind, method in self.subscriptions().items()}


def parse_sections(doc: str) -> dict[str, str]:
    """Split a rule docstring into its ``## Title`` sections."""
    sections: dict[str, str] = {}
    matches = list(_SECTION_RE.finditer(doc))
    for match, following in zip(matches, [*matches[1:], None]):
        end = following.start() if following is not None else len(doc)
        sections[match.group(1)] = doc[match.end() : end].strip()
    return sections


def _code_block(section: str) -> str:
    match = _CODE_BLOCK_RE.search(section)
    return textwrap.dedent(match.group(1)) if match else ""
