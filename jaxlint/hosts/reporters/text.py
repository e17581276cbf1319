"""ruff-style text: ``path:row:col: CODE message``, optionally with the source line and a caret."""

from __future__ import annotations

from collections import Counter

from jaxlint.engine.diagnostics import Applicability, Diagnostic


def render_text(diagnostics: list[Diagnostic], lines: dict[str, list[str]], show_source: bool = False) -> str:
    out: list[str] = []
    for diagnostic in diagnostics:
        location = diagnostic.location
        marker = (
            "[*] "
            if diagnostic.fix is not None and diagnostic.fix.applicability is Applicability.SAFE
            else ""
        )
        cell = f"cell {diagnostic.cell}:" if diagnostic.cell is not None else ""
        out.append(
            f"{diagnostic.filename}:{cell}{location.row}:{location.column}: {diagnostic.code} {marker}{diagnostic.message}"
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


def summary(diagnostics: list[Diagnostic], files: int, fixed: Counter[str] | None = None) -> str:
    checked = f"{files} file{'s' if files != 1 else ''} checked"
    repaired = sum(fixed.values()) if fixed else 0
    if not diagnostics and not repaired:
        return f"All checks passed ({checked}).\n"
    total = len(diagnostics) + repaired
    text = f"Found {total} error{'s' if total != 1 else ''} in {checked}"
    if fixed is not None:
        return text + f" ({repaired} fixed, {len(diagnostics)} remaining).\n"
    text += "."
    safe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix is not None) - safe
    if safe:
        text += f"\n[*] {safe} fixable with the `--fix` option."
    if unsafe:
        text += f"\n{unsafe} more fixable with `--fix --unsafe-fixes`."
    return text + "\n"
