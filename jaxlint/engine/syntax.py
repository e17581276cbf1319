"""Syntax errors, told apart from syntax that only a newer Python understands."""

from __future__ import annotations

import re
import sys

# Constructs that a newer Python accepts, with the version that introduced them.
_NEWER_SYNTAX = (
    (
        re.compile(r"^\s*type\s+\w+(\[[^\]]*\])?\s*=", re.MULTILINE),
        (3, 12),
        "a `type` alias statement (PEP 695)",
    ),
    (
        re.compile(r"^\s*(async\s+)?def\s+\w+\s*\[", re.MULTILINE),
        (3, 12),
        "generic function syntax (PEP 695)",
    ),
    (re.compile(r"^\s*class\s+\w+\s*\[", re.MULTILINE), (3, 12), "generic class syntax (PEP 695)"),
    (re.compile(r"except\s*\*"), (3, 11), "`except*` (PEP 654)"),
)


def describe_syntax_error(error: SyntaxError, source: str) -> str:
    """A one-line message; says which Python a file needs when its syntax is newer than ours."""
    message = f"SyntaxError: {error.msg}"
    needed = newer_syntax(error, source)
    if needed is None:
        return message
    version, what = needed
    wanted = ".".join(map(str, version))
    running = ".".join(map(str, sys.version_info[:2]))
    return (
        f"{message} (the file uses {what}, which needs Python {wanted}+; jaxlint runs on "
        f"Python {running}: run jaxlint with Python {wanted} or newer, e.g. "
        f"`language_version: python{wanted}` in pre-commit)"
    )


def newer_syntax(error: SyntaxError, source: str) -> tuple[tuple[int, int], str] | None:
    lines = source.splitlines()
    row = error.lineno or 0
    line = lines[row - 1] if 0 < row <= len(lines) else ""
    for pattern, version, what in _NEWER_SYNTAX:
        if sys.version_info >= version:
            continue
        if pattern.search(line) or (not line and pattern.search(source)):
            return version, what
    if sys.version_info < (3, 12) and _nested_fstring_quotes(line):
        return (3, 12), "f-string syntax of PEP 701 (reused quotes or backslashes inside `{}`)"
    return None


def _nested_fstring_quotes(line: str) -> bool:
    """An f-string whose replacement field reuses the enclosing quote (PEP 701)."""
    for match in re.finditer(r"""\bf(["'])(.*)""", line):
        quote, rest = match.group(1), match.group(2)
        depth = 0
        for char in rest:
            if char == "{":
                depth += 1
            elif char == "}":
                depth = max(0, depth - 1)
            elif char == quote:
                if depth > 0:
                    return True
                break
    return False
