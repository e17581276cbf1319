"""Rule documentation, generated from each rule's docstring: ``jaxlint rule`` and docs/rules.md."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from jaxlint.engine.diagnostics import rule_url
from jaxlint.engine.linter import META_CODES, META_DOCS
from jaxlint.engine.registry import all_rules
from jaxlint.engine.rule import SECTIONS, Rule

FAMILIES = {
    "JAX0": "Files jaxlint could not check, and suppression comments",
    "JAX1": "Purity and side effects in traced code",
    "JAX2": "In-place mutation of JAX arrays",
    "JAX3": "PRNG keys",
    "JAX4": "Data-dependent shapes",
    "JAX5": "Python control flow and conversions on tracers",
    "JAX6": "Compile hygiene and API misuse",
}


def rule_as_text(rule: type[Rule]) -> str:
    docs = rule.docs()
    parts = [f"# {rule.code} {rule.name}", "", rule.message, ""]
    parts.append(f"Outcome: {rule.outcome}")
    parts.append(f"Fix: {rule.fix_availability.value}" + (f" ({rule.fix_title})" if rule.fix_title else ""))
    for title in SECTIONS:
        if title in docs:
            parts += ["", f"## {title}", docs[title]]
    return "\n".join(parts) + "\n"


def rule_as_json(rule: type[Rule]) -> dict[str, Any]:
    return {
        "code": rule.code,
        "name": rule.name,
        "message": rule.message,
        "outcome": rule.outcome,
        "fix_availability": rule.fix_availability.value,
        "fix_title": rule.fix_title,
        "url": rule_url(rule.code, rule.name),
        "docs": rule.docs(),
    }


def rules_markdown() -> str:
    """The whole of docs/rules.md."""
    rules = all_rules()
    out = [
        "# jaxlint rules",
        "",
        "Generated from the rule docstrings by `python -m jaxlint.hosts.docs`; do not edit by hand.",
        "",
        "| Code | Name | What it finds | Fix |",
        "| --- | --- | --- | --- |",
    ]
    for rule in rules:
        anchor = f"{rule.code}-{rule.name}".lower()
        out.append(
            f"| [{rule.code}](#{anchor}) | `{rule.name}` | {rule.message} | {rule.fix_availability.value} |"
        )
    for prefix, title in FAMILIES.items():
        family = [rule for rule in rules if rule.code.startswith(prefix)]
        if not family:
            continue
        out += ["", f"## {prefix}xx: {title}"]
        if prefix == "JAX0":
            out += meta_markdown()
        for rule in family:
            docs = rule.docs()
            out += ["", f"### {rule.code} {rule.name}", "", f"{rule.message}", ""]
            out.append(f"*Outcome:* {rule.outcome}. *Fix:* {rule.fix_availability.value}.")
            for section in SECTIONS:
                if section in docs:
                    out += ["", f"#### {section}", "", docs[section]]
    return "\n".join(out) + "\n"


def meta_markdown() -> list[str]:
    """The sections of the codes for files that were not checked (JAX000-JAX002)."""
    out: list[str] = []
    for code, name in sorted(META_CODES.items()):
        summary, explanation = META_DOCS[code]
        out += ["", f"### {code} {name}", "", f"{summary}.", "", explanation]
    return out


def meta_as_text(code: str) -> str:
    """``jaxlint rule JAX000``."""
    summary, explanation = META_DOCS[code]
    return f"# {code} {META_CODES[code]}\n\n{summary}.\n\n{explanation}\n"


def main(argv: list[str] | None = None) -> int:
    """Write docs/rules.md (or check it is current with ``--check``)."""
    args = sys.argv[1:] if argv is None else argv
    target = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    text = rules_markdown()
    if "--check" in args:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is out of date: run `python -m jaxlint.hosts.docs`", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
