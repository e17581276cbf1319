"""What the host integrations share: each file's settings and rules, and its diagnostics.

flake8, pylint and the language server lint one file at a time, as the host hands it over. They
read ``[tool.jaxlint]`` from the closest ``pyproject.toml`` above the file, as ``jaxlint check``
does, so every front end reports the same findings with the same configuration.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

from jaxlint.engine.linter import Analysis, RuleSet, analyze
from jaxlint.engine.registry import rule_codes
from jaxlint.project.config import Settings, find_config, load_settings


@dataclass
class SettingsCache:
    """Settings per folder: the config file is found once per folder, re-read when it changes."""

    extra_decorators: tuple[str, ...] = ()
    _configs: dict[Path, Path | None] = field(default_factory=dict)
    _loaded: dict[tuple[Path | None, int], Settings] = field(default_factory=dict)
    _rulesets: dict[tuple[str, tuple[str, ...]], RuleSet] = field(default_factory=dict)

    def settings_for(self, path: str, fallback_root: Path | None = None) -> Settings:
        """The settings that apply to ``path`` (raises ``ConfigError`` for a broken config)."""
        folder = Path(os.path.abspath(path)).parent
        if fallback_root is not None and not folder.is_dir():
            folder = fallback_root  # an unsaved document: the workspace's configuration
        if folder not in self._configs:
            self._configs[folder] = find_config(folder)
        config = self._configs[folder]
        key = (config, _mtime(config))
        if key not in self._loaded:
            settings = load_settings(config, rule_codes())
            if self.extra_decorators:
                decorators = (*settings.traced_decorators, *self.extra_decorators)
                settings = settings.with_overrides(traced_decorators=decorators)
            self._loaded[key] = settings
        return self._loaded[key]

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
