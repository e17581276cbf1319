"""Fixers of the compile rules (see jaxlint.rules.compile)."""
