"""The pylint plugin, loaded as ``jaxlint.pylint_plugin`` (``pylint --load-plugins=jaxlint.pylint_plugin``).

pylint hands checkers astroid trees, not ``ast`` ones, so jaxlint runs its own engine once per
module, on the module's source, and reports each finding as a pylint message.

Message ids are derived from the JAX code and never reused: ``JAX<f><nn>`` becomes
``<C>9<f><nn>``, with ``C`` = ``E`` for an error rule and ``W`` for a warning rule (``JAX501`` ->
``E9501``, ``JAX101`` -> ``W9101``). pylint reserves 51-99 for external checkers and wants the two
digits after the letter shared by one checker, so there is one checker per rule family (90 for
jaxlint's own ``JAX0xx`` problems). The symbol is the rule's name (``python-branch-on-tracer``);
``jaxlint-`` prefixes the ``JAX0xx`` symbols, which would clash with pylint's ``syntax-error``.
All the checkers are named ``jaxlint``, so ``--disable=jaxlint`` turns them all off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pylint.checkers import BaseChecker
from pylint.constants import WarningScope

from jaxlint.engine.diagnostics import Diagnostic, rule_url
from jaxlint.engine.linter import META_CODES, meta_diagnostic
from jaxlint.engine.registry import all_rules
from jaxlint.project.config import ConfigError
from jaxlint.project.files import decode_source
from jaxlint.project.settings import SettingsCache, analyze_file

if TYPE_CHECKING:
    from astroid import nodes
    from pylint.lint import PyLinter
    from pylint.typing import ExtraMessageOptions, MessageDefinitionTuple

_CODE = re.compile(r"^JAX(\d)(\d\d)$")
CHECKER_NAME = "jaxlint"
META_DESCRIPTIONS = {
    "JAX000": "The file does not parse with Python's ast, so jaxlint did not check it.",
    "JAX001": "The file cannot be read or decoded, so jaxlint did not check it.",
    "JAX002": "An internal error in jaxlint; the rest of the file was checked without the failing part.",
}


@dataclass(frozen=True)
class Message:
    """One jaxlint code as a pylint message."""

    code: str
    msgid: str
    symbol: str
    description: str

    @property
    def family(self) -> str:
        return self.code[3]


def pylint_msgid(code: str, severity: str) -> str:
    """``JAX501`` (error) -> ``E9501``; ``JAX101`` (warning) -> ``W9101``."""
    match = _CODE.match(code)
    if match is None:
        raise ValueError(f"{code} is not a JAX<digit><digit><digit> code")
    letter = "E" if severity == "error" else "W"
    return f"{letter}9{match.group(1)}{match.group(2)}"


def messages() -> dict[str, Message]:
    """Every jaxlint code (rules and JAX0xx) as a pylint message, by JAX code."""
    found = {
        code: Message(code, pylint_msgid(code, "error"), f"jaxlint-{name}", META_DESCRIPTIONS[code])
        for code, name in META_CODES.items()
    }
    for rule in all_rules():
        description = f"{rule.message}. {rule.outcome}. See {rule_url(rule.code, rule.name) or f'jaxlint rule {rule.code}'}"
        found[rule.code] = Message(rule.code, pylint_msgid(rule.code, rule.severity), rule.name, description)
    return found


class ModuleAnalyses:
    """jaxlint's diagnostics of the module being checked, computed once for all the checkers."""

    def __init__(self, linter: PyLinter) -> None:
        self.linter = linter
        self.cache: SettingsCache | None = None
        self._module: nodes.Module | None = None
        self._diagnostics: list[Diagnostic] = []

    def diagnostics(self, module: nodes.Module) -> list[Diagnostic]:
        if module is not self._module:
            self._module = module
            self._diagnostics = self._analyze(module)
        return self._diagnostics

    def _analyze(self, module: nodes.Module) -> list[Diagnostic]:
        path = module.file or module.name
        source = _module_source(module, path)
        if isinstance(source, Diagnostic):
            return [source]
        try:
            return analyze_file(source, path, self._settings_cache()).diagnostics
        except ConfigError as error:
            # A broken [tool.jaxlint] is reported on the module, in one line, not as a crash.
            return [meta_diagnostic("JAX001", f"cannot use the configuration: {error}", path)]

    def _settings_cache(self) -> SettingsCache:
        if self.cache is None:
            decorators = getattr(self.linter.config, "jaxlint_traced_decorators", ()) or ()
            self.cache = SettingsCache(extra_decorators=tuple(decorators))
        return self.cache


def _module_source(module: nodes.Module, path: str) -> str | Diagnostic:
    data: Any = module.file_bytes
    if isinstance(data, str):
        return data
    if data is None:
        stream = module.stream()
        if stream is None:
            return meta_diagnostic("JAX001", "cannot read: pylint has no source for this module", path)
        try:
            with stream:
                data = stream.read()
        except OSError as error:
            return meta_diagnostic("JAX001", f"cannot read: {error.strerror or error}", path)
    decoded = decode_source(path, data)
    if decoded.text is None:
        return meta_diagnostic("JAX001", f"{decoded.error}", path)
    return decoded.text


class FamilyChecker(BaseChecker):
    """The messages of one rule family (pylint wants one checker id per checker)."""

    name = CHECKER_NAME

    def __init__(self, linter: PyLinter, family: str, family_messages: list[Message], shared: ModuleAnalyses):
        # Line-scoped: the findings come from jaxlint's own tree, not from an astroid node.
        line_scope: ExtraMessageOptions = {"scope": WarningScope.LINE}
        definitions: dict[str, MessageDefinitionTuple] = {
            m.msgid: ("%s", m.symbol, m.description, line_scope) for m in family_messages
        }
        self.msgs = definitions
        self.family = family
        self.shared = shared
        self.msgid_of = {m.code: m.msgid for m in family_messages}
        super().__init__(linter)

    def visit_module(self, node: nodes.Module) -> None:
        for diagnostic in self.shared.diagnostics(node):
            msgid = self.msgid_of.get(diagnostic.code)
            if msgid is None:
                continue
            start, end = diagnostic.location, diagnostic.end_location
            self.add_message(
                msgid,
                line=start.row,
                args=(f"{diagnostic.code} {diagnostic.message}",),
                col_offset=start.column - 1,
                end_lineno=end.row,
                end_col_offset=end.column - 1,
            )


class OptionsChecker(FamilyChecker):
    """Family 90 (jaxlint's own problems), which also carries jaxlint's pylint options."""

    options = (
        (
            "jaxlint-traced-decorators",
            {
                "default": (),
                "type": "csv",
                "metavar": "<qualified names>",
                "help": "Decorators jaxlint treats like jax.jit, in addition to [tool.jaxlint] "
                "traced-decorators.",
            },
        ),
    )


def register(linter: PyLinter) -> None:
    """pylint's plugin hook."""
    shared = ModuleAnalyses(linter)
    by_family: dict[str, list[Message]] = {}
    for message in messages().values():
        by_family.setdefault(message.family, []).append(message)
    for family, family_messages in sorted(by_family.items()):
        checker_class = OptionsChecker if family == "0" else FamilyChecker
        linter.register_checker(checker_class(linter, family, family_messages, shared))
