"""A content-hash cache of per-file results (like ruff's), stored as plain JSON.

An entry is keyed by the file's bytes, its path and module name, jaxlint's version and the
state of its own source files (an edited rule in a development install is never served stale
results), the effective settings and the trace requests other modules sent it. Entries are
JSON, never pickle: a cache directory committed to a repository cannot run code on the machine
that lints it. A missing, unreadable or corrupt entry is a miss (and is rewritten); writes go through a
temporary file and an atomic rename, so concurrent runs never see half an entry; the temporary
file of a writer killed mid-write is removed by the next run that writes.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jaxlint import __version__
from jaxlint.engine.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
from jaxlint.semantic.cross_module import TraceRequest
from jaxlint.semantic.values import Value, from_json, to_json

FORMAT = "3"
DEFAULT_DIRECTORY = ".jaxlint_cache"
TEMPORARY = ".tmp-"  # then the writer's process number: `.tmp-<pid>-<random>`
ORPHAN_AGE_S = 3600


@dataclass
class Entry:
    diagnostics: list[Diagnostic]
    requests: list[TraceRequest]
    returns: dict[str, Value]
    exports: dict[str, Value] = field(default_factory=dict)
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)


@functools.cache
def own_sources_fingerprint() -> str:
    """The names, sizes and modification times of jaxlint's, its rules' and fixers' sources."""
    digest = hashlib.sha256()
    for name in ("jaxlint", "jaxlint.rules", "jaxlint.fixers"):
        for folder in importlib.import_module(name).__path__:
            for path in sorted(Path(folder).rglob("*.py")):
                with contextlib.suppress(OSError):
                    stat = path.stat()
                    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


class Cache:
    """Reads and writes entries under ``directory``; ``None`` directory means no caching."""

    def __init__(self, directory: Path | None, context: str) -> None:
        self.directory = directory
        self._swept = False
        self.context = f"{FORMAT}\0{__version__}\0{own_sources_fingerprint()}\0{context}"

    def key(self, path: str, content: bytes, extra: str) -> str:
        digest = hashlib.sha256()
        for part in (self.context, os.path.abspath(path), extra):
            digest.update(part.encode("utf-8", "surrogatepass"))
            digest.update(b"\0")
        digest.update(content)
        return digest.hexdigest()

    def get(self, key: str) -> Entry | None:
        if self.directory is None:
            return None
        try:
            with open(self._path(key), encoding="utf-8") as handle:
                data = json.load(handle)
            return Entry(
                [decode_diagnostic(d) for d in data["diagnostics"]],
                [TraceRequest.from_json(r) for r in data["requests"]],
                {name: from_json(v) for name, v in data["returns"].items()},
                {name: from_json(v) for name, v in data["exports"].items()},
                [str(name) for name in data["reads"]],
                [str(name) for name in data["writes"]],
            )
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError):
            return None  # an entry of the wrong shape, deeply nested, half written: a miss

    def put(self, key: str, entry: Entry) -> None:
        if self.directory is None:
            return
        data = {
            "diagnostics": [encode_diagnostic(d) for d in entry.diagnostics],
            "requests": [r.to_json() for r in entry.requests],
            "returns": {name: to_json(v) for name, v in entry.returns.items()},
            "exports": {name: to_json(v) for name, v in entry.exports.items()},
            "reads": list(entry.reads),
            "writes": list(entry.writes),
        }
        target = self._path(key)
        if not self._swept:
            self._swept = True
            _remove_orphaned_temporaries(self.directory / f"v{FORMAT}")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            _ensure_gitignore(self.directory)
            descriptor, temporary = tempfile.mkstemp(prefix=f"{TEMPORARY}{os.getpid()}-", dir=target.parent)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(data, handle, separators=(",", ":"))
            os.replace(temporary, target)
        except OSError:
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(temporary)  # pyright: ignore[reportPossiblyUnboundVariable]

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / f"v{FORMAT}" / key[:2] / f"{key[2:]}.json"


def _remove_orphaned_temporaries(folder: Path) -> None:
    """Remove the temporary files of writers that were killed mid-write: their process is gone,
    or the file is older than any write takes."""
    now = time.time()
    with contextlib.suppress(OSError):
        for shard in os.scandir(folder):
            if not shard.is_dir(follow_symlinks=False):
                continue
            with contextlib.suppress(OSError):
                for entry in os.scandir(shard.path):
                    if entry.name.startswith(TEMPORARY) and _orphaned(entry, now):
                        with contextlib.suppress(OSError):
                            os.unlink(entry.path)


def _orphaned(entry: os.DirEntry[str], now: float) -> bool:
    writer = entry.name[len(TEMPORARY) :].partition("-")[0]
    if now - entry.stat(follow_symlinks=False).st_mtime > ORPHAN_AGE_S or not writer.isdigit():
        return True
    try:
        os.kill(int(writer), 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):
        return False  # alive under another user, or not a process number this system has
    return False


def _ensure_gitignore(directory: Path) -> None:
    marker = directory / ".gitignore"
    if not marker.exists():
        with contextlib.suppress(OSError):
            marker.write_text("# Created by jaxlint.\n*\n", encoding="utf-8")


def _location(location: Location) -> list[int]:
    return [location.row, location.column]


def encode_diagnostic(d: Diagnostic) -> dict[str, Any]:
    """A diagnostic as the cache stores it: every field a later run reports (not ruff's schema)."""
    fix = None
    if d.fix is not None:
        fix = {
            "applicability": d.fix.applicability.value,
            "message": d.fix.message,
            "edits": [[e.content, _location(e.location), _location(e.end_location)] for e in d.fix.edits],
            "isolation": d.fix.isolation,
        }
    return {
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "filename": d.filename,
        "location": _location(d.location),
        "end": _location(d.end_location),
        "severity": d.severity,
        "fix": fix,
        "fix_title": d.fix_title,
        "noqa_row": d.noqa_row,
        "cell": d.cell,
        "file_row": d.file_row,
    }


def decode_diagnostic(data: dict[str, Any]) -> Diagnostic:
    fix = None
    if data["fix"] is not None:
        raw = data["fix"]
        fix = Fix(
            Applicability(raw["applicability"]),
            raw["message"],
            tuple(Edit(c, Location(*start), Location(*end)) for c, start, end in raw["edits"]),
            raw.get("isolation"),
        )
    return Diagnostic(
        code=data["code"],
        name=data["name"],
        message=data["message"],
        filename=data["filename"],
        location=Location(*data["location"]),
        end_location=Location(*data["end"]),
        severity=data["severity"],
        fix=fix,
        fix_title=data["fix_title"],
        noqa_row=data["noqa_row"],
        cell=data.get("cell"),
        file_row=data.get("file_row"),
    )
