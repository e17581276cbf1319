"""Fixers of the shapes rules (see jaxlint.rules.shapes)."""
