"""Finding the Python files to check and reading them with the encoding they declare."""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from jaxlint.project.config import Settings

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


def discover(paths: list[str], settings: Settings) -> Iterator[str]:
    """Yield Python files under ``paths`` in a stable order, skipping excluded folders.

    Files named explicitly are always yielded; directories are searched recursively for
    ``*.py``/``*.pyi``, skipping hidden folders, virtual environments and excluded paths.
    """
    seen: set[str] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in _walk(path, settings):
                if found not in seen:
                    seen.add(found)
                    yield found
        elif raw not in seen:
            seen.add(raw)
            yield raw


def _walk(root: Path, settings: Settings) -> Iterator[str]:
    visited: set[tuple[int, int]] = set()
    for directory, subdirs, files in os.walk(root, followlinks=True):
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
        subdirs[:] = sorted(
            d
            for d in subdirs
            if not d.startswith(".")
            and not settings.is_excluded(os.path.join(directory, d))
            and not os.path.exists(os.path.join(directory, d, "pyvenv.cfg"))
        )
        for name in sorted(files):
            path = os.path.join(directory, name)
            if name.endswith(CHECKED_SUFFIXES) and not settings.is_excluded(path):
                yield path


def read_source(path: str) -> SourceFile:
    """Read ``path`` as Python source: PEP 263 coding cookie or BOM, else UTF-8."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except IsADirectoryError:
        return SourceFile(path, None, error="is a directory")
    except FileNotFoundError:
        return SourceFile(path, None, error="no such file (was it deleted during the run?)")
    except OSError as error:
        return SourceFile(path, None, error=f"cannot read: {error.strerror or error}")
    return decode_source(path, raw)


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


def write_source(path: str, text: str, encoding: str) -> None:
    """Replace ``path``'s contents atomically: a temporary file in the same folder, then a rename.

    The file keeps its encoding (a UTF-8 BOM included), its permissions and, through symlinks,
    its place; a reader never sees a half-written file, and a crash leaves the original intact.
    """
    target = os.path.realpath(path)
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
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise WriteError(f"{path}: not fixed: {error.strerror or error}") from None
