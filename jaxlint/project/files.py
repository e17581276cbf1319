"""Finding the Python files to check and reading them with the encoding they declare."""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import stat
import tempfile
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pathspec

from jaxlint.project.config import DEFAULT_EXCLUDE_SET, Settings

if TYPE_CHECKING:
    from jaxlint.project.settings import SettingsCache

SOURCE_SUFFIXES = (".py", ".pyi")  # Python source
NOTEBOOK_SUFFIX = ".ipynb"  # Jupyter notebooks: their code cells are checked
CHECKED_SUFFIXES = (*SOURCE_SUFFIXES, NOTEBOOK_SUFFIX)


def is_python_file(path: str) -> bool:
    """A file to check: ``*.py``/``*.pyi``/``*.ipynb``, or a script whose shebang names Python."""
    if path.endswith(CHECKED_SUFFIXES):
        return True
    try:
        with open(path, "rb") as handle:
            first = handle.readline(200)
    except OSError:
        return True  # let reading report the problem
    return first.startswith(b"#!") and b"python" in first


@dataclass
class SourceFile:
    """A file's text, or why it could not be read."""

    path: str
    text: str | None
    encoding: str = "utf-8"
    error: str | None = None
    raw: bytes | None = None
    identity: tuple[str, int, int] | None = None  # (real path, device, inode) when it was read


def discover(
    paths: list[str],
    settings: SettingsCache | Settings,
    problems: list[str] | None = None,
    skipped: list[tuple[str, str]] | None = None,
) -> Iterator[str]:
    """Yield Python files under ``paths`` in a stable order, skipping excluded folders.

    Files named explicitly are always yielded; directories are searched recursively for
    ``*.py``/``*.pyi``/``*.ipynb``, skipping hidden folders, virtual environments, what
    ``.gitignore`` files ignore and what the configuration of each folder excludes.
    """
    seen: set[str] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in _walk(path, settings, problems, skipped):
                if found not in seen:
                    seen.add(found)
                    yield found
        elif raw not in seen:
            seen.add(raw)
            yield raw


def _walk(
    root: Path,
    resolver: SettingsCache | Settings,
    problems: list[str] | None = None,
    skipped: list[tuple[str, str]] | None = None,
) -> Iterator[str]:
    """The files to check under ``root``; with ``skipped``, also what was left out and why."""
    visited: set[tuple[int, int]] = set()
    ignores: dict[str, Ignores] = {}

    def unreadable(error: OSError) -> None:  # a folder os.walk cannot list: said, not skipped silently
        if problems is not None:
            problems.append(f"{error.filename}: folder not checked: {error.strerror or error}")

    # a folder named on the command line is checked even if a .gitignore above it ignores it
    # (as a file named there is): those .gitignore files then do not apply inside it
    above = _gitignores(os.path.dirname(os.path.abspath(root)), ignores)
    overruled = {ignore for ignore in above if ignore.ignores(str(root), folder=True)}
    for directory, subdirs, files in os.walk(root, followlinks=True, onerror=unreadable):
        try:
            stat = os.stat(directory)
            identity = (stat.st_dev, stat.st_ino)
        except OSError:
            subdirs[:] = []
            continue
        if identity in visited:  # a symlink loop
            subdirs[:] = []
            continue
        visited.add(identity)
        settings = resolver if isinstance(resolver, Settings) else resolver.settings_in(Path(directory))
        gitignored = _gitignores(directory, ignores) if settings.respect_gitignore else ()
        if overruled:
            gitignored = tuple(ignore for ignore in gitignored if ignore not in overruled)
        kept = []
        for name in sorted(subdirs):
            reason = _skip_folder(os.path.join(directory, name), settings, gitignored)
            if reason is None:
                kept.append(name)
            elif skipped is not None:
                skipped.append((os.path.join(directory, name), reason))
        subdirs[:] = kept
        for name in sorted(files):
            path = os.path.join(directory, name)
            if not name.endswith(CHECKED_SUFFIXES):
                continue
            reason = _skip_file(path, settings, gitignored)
            if reason is None:
                yield path
            elif skipped is not None:
                skipped.append((path, reason))


def _skip_folder(path: str, settings: Settings, gitignored: tuple[GitIgnore, ...]) -> str | None:
    """Why a folder is not searched (None: it is)."""
    name = os.path.basename(path)
    if name.startswith("."):
        return "hidden folder"
    if name in DEFAULT_EXCLUDE_SET:
        return "excluded by default"
    if settings.is_excluded(path):
        return "`exclude` in the configuration"
    if os.path.exists(os.path.join(path, "pyvenv.cfg")):
        return "a virtual environment"
    if any(ignore.ignores(path, folder=True) for ignore in gitignored):
        return ".gitignore"
    return None


def _skip_file(path: str, settings: Settings, gitignored: tuple[GitIgnore, ...]) -> str | None:
    """Why a Python file found in a folder is not checked (None: it is)."""
    if settings.is_excluded(path):
        return "`exclude` in the configuration"
    if any(ignore.ignores(path, folder=False) for ignore in gitignored):
        return ".gitignore"
    return None


@dataclass(frozen=True, eq=False)
class GitIgnore:
    """The patterns of one ``.gitignore`` file, relative to its folder."""

    folder: str
    spec: pathspec.GitIgnoreSpec

    def ignores(self, path: str, folder: bool) -> bool:
        relative = os.path.relpath(path, self.folder).replace(os.sep, "/")
        return self.spec.match_file(relative + "/" if folder else relative)

    @staticmethod
    def read(folder: str) -> GitIgnore | None:
        try:
            with open(os.path.join(folder, ".gitignore"), encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            return None
        return GitIgnore(folder, pathspec.GitIgnoreSpec.from_lines(lines))


Ignores = tuple[bool, tuple["GitIgnore", ...]]  # (inside a repository?, the .gitignore files that apply)


def _gitignores(directory: str, known: dict[str, Ignores]) -> tuple[GitIgnore, ...]:
    """The ``.gitignore`` files that apply in ``directory``: its own and its parents' up to the
    repository's root (the folder with ``.git``); none outside a repository."""
    return _repository_ignores(os.path.abspath(directory), known)[1]


def _repository_ignores(directory: str, known: dict[str, Ignores]) -> Ignores:
    if directory not in known:
        parent = os.path.dirname(directory)
        if os.path.exists(os.path.join(directory, ".git")):
            in_repository, inherited = True, ()
        elif parent == directory:
            in_repository, inherited = False, ()
        else:
            in_repository, inherited = _repository_ignores(parent, known)
        own = GitIgnore.read(directory) if in_repository else None
        known[directory] = (in_repository, (*inherited, own) if own is not None else inherited)
    return known[directory]


def read_source(path: str) -> SourceFile:
    """Read ``path`` as Python source: PEP 263 coding cookie or BOM, else UTF-8. Only a regular
    file is opened (a FIFO or a device named ``*.py`` would block or never end)."""
    try:
        status = os.stat(path)
        if not stat.S_ISREG(status.st_mode) and not stat.S_ISDIR(status.st_mode):
            return SourceFile(path, None, error="not a regular file (a pipe, socket or device): skipped")
        with open(path, "rb") as handle:
            raw = handle.read()
        identity = (os.path.realpath(path), status.st_dev, status.st_ino)
    except IsADirectoryError:
        return SourceFile(path, None, error="is a directory")
    except FileNotFoundError:
        return SourceFile(path, None, error="no such file (was it deleted during the run?)")
    except OSError as error:
        return SourceFile(path, None, error=f"cannot read: {error.strerror or error}")
    source = decode_source(path, raw)
    source.identity = identity
    return source


def read_regular(path: str) -> bytes | None:
    """The bytes of ``path`` if it is a regular file that can be read (never opens a FIFO)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def content_digest(raw: bytes) -> str:
    """A digest of a file's bytes: which version of it an analysis read."""
    return hashlib.sha256(raw).hexdigest()


def decode_source(path: str, raw: bytes) -> SourceFile:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as error:
        return SourceFile(path, None, error=f"cannot decode: {error.msg}", raw=raw)
    try:
        text = raw.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        reason = error.reason if isinstance(error, UnicodeDecodeError) else str(error)
        return SourceFile(path, None, encoding, error=f"cannot decode as {encoding}: {reason}", raw=raw)
    if text.startswith("\ufeff"):
        text = text[1:]
    return SourceFile(path, text, encoding, raw=raw)


class WriteError(Exception):
    """A fixed file could not be written; the message says why (one line)."""


def write_source(path: str, text: str, encoding: str, read: SourceFile | None = None) -> None:
    """Replace ``path``'s contents atomically: a temporary file in the same folder, then a rename.

    The file keeps its encoding (a UTF-8 BOM included), its permissions, its owner (when root
    writes) and, through symlinks, its place; a reader never sees a half-written file, and a
    crash leaves the original intact. With ``read`` (what was read and analysed), the file is
    compared just before the rename: if it is no longer the same file at the same place (a
    symlink swapped in) or its bytes changed (the user's editor saved meanwhile), nothing is
    written.
    """
    target = os.path.realpath(path)
    if read is not None:
        _still_as_read(path, target, read)
    writable_bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    if not os.access(target, os.W_OK) or not os.stat(target).st_mode & writable_bits:
        raise WriteError(f"{path}: not fixed: the file is read-only")
    try:
        data = text.encode(encoding)
    except (UnicodeEncodeError, LookupError) as error:
        raise WriteError(f"{path}: not fixed: the fix cannot be encoded as {encoding}: {error}") from None
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        descriptor, temporary = tempfile.mkstemp(
            prefix=".jaxlint-", suffix=".tmp", dir=os.path.dirname(target)
        )
    except OSError as error:
        raise WriteError(f"{path}: not fixed: {error.strerror or error}") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        if hasattr(os, "geteuid") and os.geteuid() == 0:  # keep another user's file theirs
            owner = os.stat(target)
            os.chown(temporary, owner.st_uid, owner.st_gid)
        if read is not None:
            _still_as_read(path, target, read)  # once more, as close to the rename as can be
        os.replace(temporary, target)
    except (OSError, WriteError) as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, WriteError):
            raise
        raise WriteError(f"{path}: not fixed: {error.strerror or error}") from None


def _still_as_read(path: str, target: str, read: SourceFile) -> None:
    """Raise ``WriteError`` unless ``path`` is still the file that was read, with the same bytes."""
    changed = f"{path}: not fixed: the file changed while jaxlint was fixing it (not rewritten)"
    if read.identity is not None:
        real, device, inode = read.identity
        try:
            status = os.stat(target)
        except OSError:
            raise WriteError(changed) from None
        if target != real or (status.st_dev, status.st_ino) != (device, inode):
            raise WriteError(f"{path}: not fixed: it is no longer the file that was read (moved or relinked)")
    try:
        with open(target, "rb") as handle:
            now = handle.read()
    except OSError:
        raise WriteError(changed) from None
    if read.raw is not None and now != read.raw:
        raise WriteError(changed)
