"""Settings: ``[tool.jaxlint]`` in the ``pyproject.toml`` closest to each file (else a
``jaxlint.toml``, whose keys are top level), overridden by the command line.

Keys: ``select``, ``extend-select``, ``ignore``, ``per-file-ignores``, ``exclude``,
``extend-exclude``, ``respect-gitignore``, ``traced-decorators``. Selectors are code prefixes
(``JAX5``, ``JAX501``) or ``ALL``; as in ruff, the more specific selector wins (``select = ["JAX5"]``
with ``ignore = ["JAX501"]``, or the other way round), and the command line's selection is applied
over the configuration's (``--select JAX101`` re-enables a rule the configuration ignores). Globs
are ruff's and git's (``tests/**/*.py`` matches ``tests/conftest.py``). Unknown keys, malformed
TOML and unknown selectors are errors naming the file and line, with the closest known key.
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pathspec

DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".eggs",
    "__pycache__",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "__pypackages__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".jaxlint_cache",
    ".ipynb_checkpoints",
)
DEFAULT_EXCLUDE_SET = frozenset(DEFAULT_EXCLUDE)
LIST_KEYS = ("select", "extend-select", "ignore", "exclude", "extend-exclude", "traced-decorators")
KNOWN_KEYS = frozenset(LIST_KEYS) | {"per-file-ignores", "respect-gitignore"}
CONFIG_NAMES = ("pyproject.toml", "jaxlint.toml")  # in this order, in each folder walking up


class ConfigError(Exception):
    """A configuration problem; the message names the file and, where known, the line."""


@dataclass(frozen=True)
class Selection:
    """One layer of rule selection (the command line's, over the configuration's)."""

    select: tuple[str, ...] | None = None  # None: keep what the layer below chose
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def decide(self, code: str) -> bool | None:
        """Whether this layer enables ``code``, disables it, or leaves it (None)."""
        best: tuple[int, bool] | None = None
        for selector in (*(self.select or ()), *self.extend_select):
            if _selects(selector, code) and (best is None or _specificity(selector) > best[0]):
                best = (_specificity(selector), True)
        for selector in self.ignore:
            if _selects(selector, code) and (best is None or _specificity(selector) >= best[0]):
                best = (_specificity(selector), False)
        if best is not None:
            return best[1]
        return False if self.select is not None else None


def _selects(selector: str, code: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


def _specificity(selector: str) -> int:
    return 0 if selector == "ALL" else len(selector)


@dataclass(frozen=True)
class Settings:
    """The configuration that applies to a file (its config file's, with the command line's
    selection on top)."""

    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    traced_decorators: tuple[str, ...] = ()
    respect_gitignore: bool = True
    root: Path = field(default_factory=Path.cwd)
    source: Path | None = None
    command_line: Selection = field(default_factory=Selection)

    def enabled(self, codes: Iterable[str]) -> list[str]:
        """The codes the configuration's selection, then the command line's, enable."""
        layers = (Selection(self.select, self.extend_select, self.ignore), self.command_line)
        enabled = []
        for code in codes:
            state = False
            for layer in layers:
                decided = layer.decide(code)
                state = state if decided is None else decided
            if state:
                enabled.append(code)
        return enabled

    def ignored_in(self, path: str) -> tuple[str, ...]:
        """Code prefixes that ``per-file-ignores`` drops for ``path``."""
        relative = self.relative(path)
        found: list[str] = []
        for pattern, codes in self.per_file_ignores:
            if _glob_match(relative, (pattern,)):
                found.extend(codes)
        return tuple(found)

    def is_excluded(self, path: Path | str) -> bool:
        """Whether a file or folder is excluded: a default folder name (``.venv``, ``build``...)
        or a match of the ``exclude``/``extend-exclude`` patterns."""
        if os.path.basename(path) in DEFAULT_EXCLUDE_SET:
            return True
        patterns = (*self.exclude, *self.extend_exclude)
        if not patterns:
            return False
        return _glob_match(self.relative(str(path)), patterns)

    def is_excluded_path(self, path: str) -> bool:
        """Whether a file named on the command line lies in an excluded place (any folder of
        its path, not only its name: for ``--force-exclude``)."""
        relative = self.relative(path)
        parts = relative.split("/")
        if any(part in DEFAULT_EXCLUDE_SET for part in parts[:-1]):
            return True
        return self.is_excluded(path)

    def relative(self, path: str) -> str:
        absolute = os.path.abspath(path)
        root = os.path.abspath(self.root)
        if absolute == root or absolute.startswith(root + os.sep):
            return os.path.relpath(absolute, root).replace(os.sep, "/")
        return absolute.replace(os.sep, "/")

    def with_overrides(self, **overrides: Any) -> Settings:
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def fingerprint(self) -> str:
        """What in these settings changes which diagnostics a file gets (for caches)."""
        return repr(
            (
                self.select,
                self.extend_select,
                self.ignore,
                self.command_line,
                self.per_file_ignores,
                self.traced_decorators,
            )
        )

    def describe(self) -> str:
        """The settings as ``--show-settings`` prints them."""
        lines = [f"config: {self.source or '(none: defaults)'}", f"root: {self.root}"]
        for name in (
            "select",
            "extend_select",
            "ignore",
            "exclude",
            "extend_exclude",
            "traced_decorators",
            "respect_gitignore",
        ):
            lines.append(f"{name.replace('_', '-')}: {getattr(self, name)!r}")
        lines.append(f"per-file-ignores: {dict(self.per_file_ignores)!r}")
        lines.append(f"command line: {self.command_line!r}")
        return "\n".join(lines)


def _glob_match(relative: str, patterns: Sequence[str]) -> bool:
    """Whether ``relative`` (or a folder it lies in) matches a git/ruff-style glob: ``*.py`` and
    ``build`` match at any depth, ``/build`` only at the root, ``**`` any number of folders."""
    return _compiled(tuple(patterns)).match_file(relative)


@functools.lru_cache(maxsize=1024)
def _compiled(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


def config_in(folder: Path) -> Path | None:
    """The configuration file of ``folder`` itself, if it has one: a ``pyproject.toml`` with a
    ``[tool.jaxlint]`` table, however TOML spells it (``[ tool.jaxlint ]``, ``["tool".jaxlint]``,
    dotted keys, an inline table), else a ``jaxlint.toml``. One that names jaxlint but cannot be
    read as TOML is returned too: loading it then says what is wrong, rather than checking with
    defaults in silence. The closest folder at or above a file that has one configures it."""
    candidate = folder / "pyproject.toml"
    try:
        raw = candidate.read_bytes() if candidate.is_file() else b""
    except OSError:
        raw = b""
    if b"jaxlint" in raw:
        try:
            tool = tomllib.loads(raw.decode("utf-8")).get("tool")
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            return candidate
        if isinstance(tool, dict) and "jaxlint" in tool:
            return candidate
    dedicated = folder / "jaxlint.toml"
    return dedicated if dedicated.is_file() else None


def load_settings(path: Path | None, known_codes: Sequence[str]) -> Settings:
    """Read ``[tool.jaxlint]`` from ``path`` (defaults when None) and validate it."""
    if path is None:
        return Settings()
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ConfigError(
            f"{path}:{line}: not UTF-8 (TOML files must be): byte {raw[error.start]:#04x}"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            f"{path}:{_toml_location(error, text)}: invalid TOML: {_toml_reason(error)}"
        ) from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply to read") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table")
    dedicated = path.name != "pyproject.toml" and "jaxlint" not in tool  # jaxlint.toml: keys at top level
    table = data if dedicated else tool.get("jaxlint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.jaxlint] must be a table")
    return _settings_from_table(table, path, text, known_codes)


def _settings_from_table(
    table: dict[str, Any], path: Path, text: str, known_codes: Sequence[str]
) -> Settings:
    for key in table:
        if key not in KNOWN_KEYS:
            raise ConfigError(
                f"{path}:{_line_of(text, key)}: unknown option `{key}` in [tool.jaxlint]{did_you_mean(key, KNOWN_KEYS)}"
            )
    values: dict[str, Any] = {}
    if "respect-gitignore" in table:
        if not isinstance(table["respect-gitignore"], bool):
            line = _line_of(text, "respect-gitignore")
            raise ConfigError(f"{path}:{line}: `respect-gitignore` must be true or false")
        values["respect_gitignore"] = table["respect-gitignore"]
    for key in LIST_KEYS:
        if key in table:
            values[key.replace("-", "_")] = _string_list(table[key], key, path, text)
    for key in ("select", "extend-select", "ignore"):
        for selector in values.get(key.replace("-", "_"), ()):
            if not is_known_selector(selector, known_codes):
                raise ConfigError(
                    f"{path}:{_line_of(text, selector)}: unknown rule selector `{selector}` in `{key}`"
                )
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{path}:{_line_of(text, 'per-file-ignores')}: `per-file-ignores` must be a table")
    pairs = []
    for pattern, codes in per_file.items():
        code_list = _string_list(codes, f"per-file-ignores.{pattern}", path, text)
        for code in code_list:
            if not is_known_selector(code, known_codes):
                raise ConfigError(f"{path}:{_line_of(text, code)}: unknown rule selector `{code}`")
        pairs.append((pattern, code_list))
    values["per_file_ignores"] = tuple(pairs)
    return Settings(root=path.parent, source=path, **values)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean `x`?)`` for the closest of ``choices``, or nothing."""
    close = difflib.get_close_matches(word, sorted(choices), n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""


def is_known_selector(selector: str, known_codes: Sequence[str]) -> bool:
    if selector == "ALL":
        return True
    return any(code.startswith(selector) for code in known_codes)


def _string_list(value: Any, key: str, path: Path, text: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{path}:{_line_of(text, key)}: `{key}` must be a list of strings")
    return tuple(value)


def _line_of(text: str, needle: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return 1


def _toml_location(error: tomllib.TOMLDecodeError, text: str) -> str:
    match = re.search(r"line (\d+), column (\d+)", str(error))
    if match:
        return f"{match.group(1)}:{match.group(2)}"
    return str(text.count("\n") + 1) if "end of document" in str(error) else "1"


def _toml_reason(error: tomllib.TOMLDecodeError) -> str:
    return re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error)) or "malformed"
