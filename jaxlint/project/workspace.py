"""The whole-project model for long-lived hosts (the language server): which functions of each
module other modules trace, computed from the files on disk and refreshed when one is saved."""

from __future__ import annotations

import threading
from pathlib import Path

from jaxlint.project.cache import DEFAULT_DIRECTORY
from jaxlint.project.config import ConfigError
from jaxlint.project.files import discover
from jaxlint.project.runner import Checker, FixedPoint, Mode, RunResult, analyse_project
from jaxlint.project.settings import SettingsCache
from jaxlint.semantic.cross_module import ProjectView, module_name

MAX_FILES = 20_000  # beyond this, documents are linted on their own


class ProjectModel:
    """Lazily computed whole-project views of a workspace; thread-safe; ``invalidate`` on save."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._fixed_point: FixedPoint | None = None
        self._stale = True

    def invalidate(self) -> None:
        with self._lock:
            self._stale = True

    def view(self, path: str, settings: SettingsCache) -> ProjectView:
        """What the project says about ``path`` (its seeds and the returns it sees)."""
        with self._lock:
            if self._stale:
                self._fixed_point = self._compute(settings)
                self._stale = False
            if self._fixed_point is None:
                name, is_package = module_name(path)
                return ProjectView(name, is_package)
            return self._fixed_point.view(str(Path(path)))

    def _compute(self, settings: SettingsCache) -> FixedPoint | None:
        if self.root is None:
            return None
        try:
            files = [str(Path(f)) for f in discover([str(self.root)], settings)]
            if len(files) > MAX_FILES:
                return None
            cache_dir = settings.settings_in(self.root).root / DEFAULT_DIRECTORY
            mode = Mode(with_fixes=False, jobs=1, cache_dir=cache_dir)
            _, fixed_point = analyse_project(files, Checker(settings, mode), RunResult(files=len(files)))
        except ConfigError:  # a broken configuration is reported per document; no project view
            return None
        return fixed_point
