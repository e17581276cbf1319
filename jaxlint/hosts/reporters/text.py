"""ruff-style text: ``path:row:col: CODE message``, optionally with the source line and a caret."""

from __future__ import annotations

from collections import Counter

from jaxlint.engine.diagnostics import Applicability, Diagnostic
from jaxlint.engine.registry import fixable_codes

BOLD, RED, YELLOW, CYAN, RESET = "\033[1m", "\033[31m", "\033[33m", "\033[36m", "\033[0m"


def render_text(
    diagnostics: list[Diagnostic],
    lines: dict[str, list[str]],
    show_source: bool = False,
    colour: bool = False,
) -> str:
    out: list[str] = []
    for diagnostic in diagnostics:
        location = diagnostic.location
        marker = (
            "[*] "
            if diagnostic.fix is not None and diagnostic.fix.applicability is Applicability.SAFE
            else ""
        )
        cell = f"cell {diagnostic.cell}:" if diagnostic.cell is not None else ""
        where, code = f"{diagnostic.filename}:{cell}{location.row}:{location.column}:", diagnostic.code
        if colour:
            shade = YELLOW if diagnostic.severity == "warning" else RED
            where, code = f"{BOLD}{where}{RESET}", f"{BOLD}{shade}{code}{RESET}"
            marker = f"{CYAN}{marker}{RESET}" if marker else ""
        out.append(f"{where} {code} {marker}{diagnostic.message}")
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


def statistics(diagnostics: list[Diagnostic]) -> list[dict[str, object]]:
    """Findings per rule, most frequent first, with how many have a fix (``--statistics``)."""
    counts = Counter((d.code, d.name) for d in diagnostics)
    fixable = Counter(d.code for d in diagnostics if d.fix is not None)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    return [
        {"code": code, "name": name, "count": count, "fixable": fixable[code]} for (code, name), count in rows
    ]


def render_statistics(diagnostics: list[Diagnostic]) -> str:
    rows = statistics(diagnostics)
    return "".join(f"{row['count']:>5}\t{row['code']}\t{row['name']}\n" for row in rows)


def summary(diagnostics: list[Diagnostic], files: int, fixed: Counter[str] | None = None) -> str:
    checked = f"{files} file{'s' if files != 1 else ''} checked"
    repaired = sum(fixed.values()) if fixed else 0
    if not diagnostics and not repaired:
        return f"All checks passed ({checked}).\n"
    text = f"Found {_count(diagnostics, repaired)} in {checked}"
    if fixed is not None:
        return text + f" ({repaired} fixed, {len(diagnostics)} remaining).\n"
    text += "."
    if not any(d.fix is not None for d in diagnostics):
        return text + _fixes_not_computed(diagnostics)
    safe = sum(1 for d in diagnostics if d.fix is not None and d.fix.applicability is Applicability.SAFE)
    unsafe = sum(1 for d in diagnostics if d.fix is not None) - safe
    if safe:
        text += f"\n[*] {safe} fixable with the `--fix` option."
    if unsafe:
        text += f"\n{unsafe} more fixable with `--fix --unsafe-fixes`."
    return text + "\n"


def _fixes_not_computed(diagnostics: list[Diagnostic]) -> str:
    """Plain text output computes no fixes (one can cost more than the check): how many findings
    come from rules with a fix, and how to see and apply them."""
    candidates = sum(1 for d in diagnostics if d.code in fixable_codes())
    if not candidates:
        return "\n"
    source = "comes from a rule" if candidates == 1 else "come from rules"
    source += " with fixes for some forms"
    return (
        f"\n{candidates} {source}: `--diff` shows what `--fix` would change "
        "(safe fixes only; add `--unsafe-fixes` for all).\n"
    )


def _count(diagnostics: list[Diagnostic], repaired: int) -> str:
    """``3 errors``, ``2 warnings``, or ``3 errors and 2 warnings`` (fixed findings are errors)."""
    warnings = sum(1 for d in diagnostics if d.severity == "warning")
    errors = len(diagnostics) - warnings + repaired
    parts = [f"{errors} error{'s' if errors != 1 else ''}"] if errors or not warnings else []
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return " and ".join(parts)
