"""Each file's settings and rules, shared by every host.

``jaxlint check``, pre-commit, flake8, pylint and the language server all resolve configuration
per file: ``[tool.jaxlint]`` of the closest ``pyproject.toml`` above the file (else a
``jaxlint.toml``), so every front end reports the same findings whatever order files come in.
The command line adds a selection layer on top (``--select``, ``--ignore``...), or fixes one
configuration file for every file (``--config``), or none (``--isolated``).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

from jaxlint.engine.linter import Analysis, RuleSet, analyze
from jaxlint.engine.registry import rule_codes
from jaxlint.project.config import Selection, Settings, config_in, load_settings


@dataclass
class SettingsCache:
    """Settings per folder: the config file is found once per folder, re-read when it changes."""

    extra_decorators: tuple[str, ...] = ()
    command_line: Selection = field(default_factory=Selection)
    config: Path | None = None  # --config: this file for every file
    isolated: bool = False  # --isolated: no configuration file at all
    respect_gitignore: bool | None = None  # --no-respect-gitignore: False, over configuration
    _configs: dict[Path, Path | None] = field(default_factory=dict)
    _loaded: dict[tuple[Path | None, int], Settings] = field(default_factory=dict)
    _rulesets: dict[tuple[str, tuple[str, ...]], RuleSet] = field(default_factory=dict)

    def settings_for(self, path: str, fallback_root: Path | None = None) -> Settings:
        """The settings that apply to ``path`` (raises ``ConfigError`` for a broken config)."""
        folder = Path(os.path.abspath(path)).parent
        if fallback_root is not None and not folder.is_dir():
            folder = fallback_root  # an unsaved document: the workspace's configuration
        return self.settings_in(folder)

    def settings_in(self, folder: Path) -> Settings:
        """The settings that apply to the files of ``folder``."""
        folder = Path(os.path.abspath(folder))
        if folder not in self._configs:
            self._configs[folder] = self._find(folder)
        config = self._configs[folder]
        key = (config, _mtime(config))
        if key not in self._loaded:
            settings = load_settings(config, rule_codes())
            decorators = (*settings.traced_decorators, *self.extra_decorators)
            settings = settings.with_overrides(
                traced_decorators=decorators,
                command_line=self.command_line,
                respect_gitignore=self.respect_gitignore,
            )
            self._loaded[key] = settings
        return self._loaded[key]

    def _find(self, folder: Path) -> Path | None:
        if self.isolated:
            return None
        return self.config if self.config is not None else self._closest_config(folder)

    def _closest_config(self, folder: Path) -> Path | None:
        """The configuration of the closest folder at or above ``folder`` that has one
        (``config_in``), remembered for every folder on the way up: each configuration file is
        read once per run, not once per folder below it."""
        passed: list[Path] = []
        found: Path | None = None
        current = folder
        while True:
            if current in self._configs:
                found = self._configs[current]
                break
            passed.append(current)
            found = config_in(current)
            if found is not None or current.parent == current:
                break
            current = current.parent
        for each in passed:
            self._configs[each] = found
        return found

    def ruleset_for(self, settings: Settings, path: str) -> RuleSet:
        """The enabled rules for ``path``, minus its ``per-file-ignores``."""
        ignored = settings.ignored_in(path)
        key = (settings.fingerprint(), ignored)
        if key not in self._rulesets:
            ruleset = RuleSet.from_codes(settings.enabled(rule_codes()))
            self._rulesets[key] = ruleset.without(ignored) if ignored else ruleset
        return self._rulesets[key]

    def forget_configs(self) -> None:
        """Look for configuration files again (one may have been created or deleted)."""
        self._configs.clear()


def analyze_file(
    source: str,
    path: str,
    cache: SettingsCache,
    tree: ast.Module | None = None,
    fallback_root: Path | None = None,
) -> Analysis:
    """Lint one file's ``source`` with the settings that apply to ``path``."""
    settings = cache.settings_for(path, fallback_root)
    ruleset = cache.ruleset_for(settings, path)
    return analyze(source, path, ruleset, frozenset(settings.traced_decorators), tree)


def _mtime(path: Path | None) -> int:
    if path is None:
        return 0
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1
