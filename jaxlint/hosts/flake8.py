"""The flake8 plugin: jaxlint's rules as ``JAX`` codes in flake8's report.

Registered through the ``flake8.extension`` entry point under the name ``JAX`` (flake8 takes the
entry point's name as the code prefix). It lints the ``ast`` tree flake8 has already parsed, with
the rules, ``[tool.jaxlint]`` configuration and messages of ``jaxlint check``; flake8's own
``--select``, ``--extend-ignore``, ``per-file-ignores`` and ``# noqa`` apply on top.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from typing import Any, ClassVar

from jaxlint import __version__
from jaxlint.engine.linter import lint_source
from jaxlint.project.settings import SettingsCache

Finding = tuple[int, int, str, type]


class JaxlintChecker:
    """A flake8 tree plugin; flake8 creates one per file."""

    name = "jaxlint"
    version = __version__
    cache: ClassVar[SettingsCache] = SettingsCache()

    def __init__(self, tree: ast.Module, filename: str, lines: list[str]) -> None:
        self.tree = tree
        self.filename = filename
        self.lines = lines
        # Here, not in run(): flake8 reports an error raised here (a broken [tool.jaxlint]) in one
        # line naming the file; one raised while it iterates run() would end in a traceback.
        self.settings = self.cache.settings_for(filename)

    @classmethod
    def add_options(cls, parser: Any) -> None:
        parser.add_option(
            "--jaxlint-traced-decorators",
            default="",
            parse_from_config=True,
            comma_separated_list=True,
            help="decorators jaxlint treats like jax.jit, in addition to [tool.jaxlint] "
            "traced-decorators (comma-separated qualified names)",
        )

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        decorators = tuple(name for name in options.jaxlint_traced_decorators if name)
        cls.cache = SettingsCache(extra_decorators=decorators)

    def run(self) -> Iterator[Finding]:
        source = "".join(self.lines)
        ruleset = self.cache.ruleset_for(self.settings, self.filename)
        decorators = frozenset(self.settings.traced_decorators)
        for diagnostic in lint_source(source, self.filename, ruleset, decorators, self.tree):
            location = diagnostic.location
            yield location.row, location.column - 1, f"{diagnostic.code} {diagnostic.message}", type(self)
