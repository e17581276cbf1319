"""Progress on a terminal for long runs: ``checked 120/500 files`` on stderr, redrawn in place.

Off when stderr is not a terminal (CI logs, pipes), with ``-q``, and for runs that end quickly.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY = 0.5  # seconds before the first line: quick runs print nothing (JAXLINT_PROGRESS_DELAY)
INTERVAL = 0.1  # seconds between redraws


class Progress:
    """Counts finished files and redraws one status line, at most every ``INTERVAL`` seconds."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.delay = _seconds(os.environ.get("JAXLINT_PROGRESS_DELAY"), DELAY)
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.started < self.delay or (now - self.drawn_at < INTERVAL and done < total):
            return
        self.drawn_at = now
        line = f"jaxlint: checked {done}/{total} files"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()

    @staticmethod
    @contextmanager
    def on_terminal(enabled: bool = True, stream: TextIO | None = None) -> Iterator[Progress | None]:
        """A ``Progress`` when ``stream`` (stderr) is a terminal and progress is wanted."""
        chosen: TextIO | None = stream if stream is not None else sys.stderr
        if not enabled or chosen is None or not chosen.isatty():
            yield None
            return
        progress = Progress(chosen)
        try:
            yield progress
        finally:
            progress.clear()


def _seconds(text: str | None, default: float) -> float:
    try:
        return float(text) if text else default
    except ValueError:
        return default
