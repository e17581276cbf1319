"""ruff-style text: ``path:row:col: CODE message``, optionally with the source line and a caret."""

from __future__ import annotations

from collections import Counter

from jaxlint.diagnostics import Diagnostic


def render_text(diagnostics: list[Diagnostic], lines: dict[str, list[str]], show_source: bool = False) -> str:
    out: list[str] = []
    for diagnostic in diagnostics:
        location = diagnostic.location
        out.append(
            f"{diagnostic.filename}:{location.row}:{location.column}: {diagnostic.code} {diagnostic.message}"
        )
        source_lines = lines.get(diagnostic.filename)
        if show_source and source_lines and 0 < location.row <= len(source_lines):
            text = source_lines[location.row - 1].expandtabs(1)
            width = 1
            if diagnostic.end_location.row == location.row:
                width = max(1, diagnostic.end_location.column - location.column)
            gutter = f"{location.row:>4} | "
            out.append(f"{gutter}{text}")
            out.append(" " * (len(gutter) + location.column - 1) + "^" * width)
    return "\n".join(out) + ("\n" if out else "")


def render_statistics(diagnostics: list[Diagnostic]) -> str:
    counts = Counter((d.code, d.name) for d in diagnostics)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    return "".join(f"{count:>5}\t{code}\t{name}\n" for (code, name), count in rows)


def summary(diagnostics: list[Diagnostic], files: int) -> str:
    if not diagnostics:
        return f"All checks passed ({files} file{'s' if files != 1 else ''} checked).\n"
    fixable = sum(1 for d in diagnostics if d.fix is not None)
    text = f"Found {len(diagnostics)} error{'s' if len(diagnostics) != 1 else ''}"
    text += f" in {files} file{'s' if files != 1 else ''} checked."
    if fixable:
        text += f"\n[*] {fixable} fixable with the `--fix` option."
    return text + "\n"
